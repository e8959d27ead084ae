/**
 * ai-team's path rules hold for files a Bash command writes, and for paths that lead
 * elsewhere through a symlink: judged by what they really touch.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { makeProject, type TempProject } from '../../support/run-hook';

let project: TempProject;
beforeAll(() => {
  project = makeProject('version: 1\ninclude: [ai-team]\n');
});
afterAll(() => project.remove());

function bash(agent: string, command: string) {
  return project.run({
    hook_event_name: 'PreToolUse', session_id: 's1', cwd: project.dir, permission_mode: 'default',
    tool_name: 'Bash', tool_input: { command }, tool_use_id: 't1', agent_type: agent,
  });
}

describe('Bash writes are path writes', () => {
  it.each([
    ['lynch', 'echo x > src/app.ts', 'src/app.ts'],
    ['ai-team:lynch', 'cat notes.md | tee -a docs/review.md', 'docs/review.md'],
    ['amy', 'git log > findings.txt', 'findings.txt'],
    ['sosa', "bash -c 'sed -i s/a/b/ src/x.ts'", 'src/x.ts'],
  ])('%s: `%s` is denied like a Write of %s', (agent, command, written) => {
    const r = bash(agent, command);
    expect(r.exitCode).toBe(0);
    expect(r.json).toMatchObject({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny' } });
    expect((r.json as any).hookSpecificOutput.permissionDecisionReason).toContain(`this command writes ${written}`);
  });

  it.each([
    ['lynch', 'npm test 2>&1 | tail -20'],
    ['lynch', "grep -rn '>' src"],
    ['amy', 'echo x > /tmp/scratch.txt'],
    ['ba', 'echo x > src/app.ts'],
    ['Explore', 'echo x > src/app.ts'],
  ])('%s: `%s` gets no opinion', (agent, command) => {
    const r = bash(agent, command);
    expect([r.exitCode, r.stdout]).toEqual([0, '']);
  });

  it('a command whose target cannot be known is asked about, not waved through', () => {
    const r = bash('lynch', 'echo x > "$TARGET"');
    expect(r.json).toMatchObject({ hookSpecificOutput: { permissionDecision: 'ask' } });
  });
});

describe('a symlink inside an allowed folder that leads outside it', () => {
  let outside: string;
  beforeAll(() => {
    outside = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'ai-team-outside-')));
    fs.mkdirSync(project.file('__tests__'), { recursive: true });
    fs.symlinkSync(path.join(outside), project.file('__tests__/fixtures'));
  });
  afterAll(() => fs.rmSync(outside, { recursive: true, force: true }));

  it('is judged by where it leads: murdock cannot write through it', () => {
    const r = project.run({
      hook_event_name: 'PreToolUse', session_id: 's1', cwd: project.dir, tool_name: 'Write', agent_type: 'murdock',
      tool_input: { file_path: project.file('__tests__/fixtures/cart.test.ts'), content: 'x' },
    });
    expect(r.json).toMatchObject({ hookSpecificOutput: { permissionDecision: 'deny' } });
  });

  it('while a real file in the allowed folder stays allowed', () => {
    const r = project.run({
      hook_event_name: 'PreToolUse', session_id: 's1', cwd: project.dir, tool_name: 'Write', agent_type: 'murdock',
      tool_input: { file_path: project.file('__tests__/cart.test.ts'), content: 'x' },
    });
    expect([r.exitCode, r.stdout]).toEqual([0, '']);
  });
});
