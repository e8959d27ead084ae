/**
 * `unparsable: sandbox` in the real client: a subagent in the ai-team pack's tester lane
 * runs a command whose writes cannot be known. The runner answers with `updatedInput`
 * (no permission decision), Claude Code runs the sandboxed command line in its place, and
 * on disk the lane holds: the test the command wrote is there, the source file it wrote is
 * not; the command's output, with the sandbox's report, reaches the model as the tool
 * result. Where this machine cannot make user namespaces the case is skipped, and says so.
 */
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { say, tools, type Scenario } from './scenario';
import { describeRealClient, runCase, SESSION_TIMEOUT_MS } from './suite';
import { toolResult } from './transcript';

const MURDOCK = '---\nname: murdock\ndescription: Writes the tests.\ntools: Read, Write, Bash\n---\nYou write tests.\n';
const SCRIPT = 'mkdir -p tests src\necho "test" > tests/cart.test.ts\necho "impl" > src/cart.ts\necho RAN-IN-SANDBOX\n';
const canSandbox = process.platform === 'linux'
  && spawnSync('unshare', ['--user', '--map-root-user', '--mount', '--pid', '--fork', '--mount-proc', '--', 'true']).status === 0;

function scenario(dir: string): Scenario {
  return {
    main: [tools({ name: 'Agent', input: { description: 'tests', prompt: 'SUBAGENT-MURDOCK: write the tests', subagent_type: 'murdock', run_in_background: false } }), say('done')],
    subagents: [{ marker: 'SUBAGENT-MURDOCK', turns: [tools({ name: 'Bash', input: { command: `sh ${path.join(dir, 'write.sh')}`, description: 'Run the script' } }), say('Ran it.')] }],
  };
}

describeRealClient('the lane sandbox', () => {
  (canSandbox ? it : it.skip)('murdock\'s unreadable command runs sandboxed under bypassPermissions: his test is kept, the source file discarded', () => {
    const { project, session } = runCase({ policy: 'version: 1\ninclude: [ai-team]\n', files: { '.claude/agents/murdock.md': MURDOCK, 'write.sh': SCRIPT }, scenario });
    expect(project.read('tests/cart.test.ts')).toBe('test\n');
    expect(project.exists('src/cart.ts')).toBe(false);
    const result = toolResult(session.requests, 'toolu_s0_0_0');
    expect(result?.isError).toBe(false);
    expect(result?.text).toContain('RAN-IN-SANDBOX');
    expect(result?.text).toContain('hookpolicy sandbox: this command ran in a sandbox; what it wrote that you may not write was discarded (src, src/cart.ts)');
    expect(result?.text).toContain('murdock is the tester and writes test files only');
  }, SESSION_TIMEOUT_MS);
});
