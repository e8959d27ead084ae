/**
 * ai-team's lanes hold for the files a Bash command writes as they hold for Write, for
 * paths that lead elsewhere through a symlink (dangling ones included), and for commands
 * whose writes cannot be known (run in the sandbox, or asked about where there is none).
 * Through the built runner.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { makeProject, packMessage, type TempProject } from '../../support/run-hook';

const LOG = '.claude/policy-decisions.jsonl';
let project: TempProject;
beforeAll(() => {
  project = makeProject('version: 1\ninclude: [ai-team]\n');
});
afterAll(() => project.remove());

/** A Bash call by `agent` ('' for the main session, hannibal). */
function bash(agent: string, command: string) {
  return project.run({
    hook_event_name: 'PreToolUse', session_id: 's1', cwd: project.dir, permission_mode: 'default',
    tool_name: 'Bash', tool_input: { command }, tool_use_id: 't1', ...(agent ? { agent_type: agent } : {}),
  });
}

function decision(r: ReturnType<typeof bash>): { decision: string; reason: string } | null {
  const out = (r.json as { hookSpecificOutput?: { permissionDecision: string; permissionDecisionReason: string } } | null)?.hookSpecificOutput;
  return out ? { decision: out.permissionDecision, reason: out.permissionDecisionReason } : null;
}

describe('every lane holds for Bash writes as for Write', () => {
  it.each([
    ['', 'ateam-orchestrator-mission-files-only', 'hannibal', 'echo x > src/app.ts', 'src/app.ts'],
    ['murdock', 'ateam-tester-writes-tests-only', 'murdock', 'cat > src/cart.ts <<EOF\nexport const total = 0;\nEOF', 'src/cart.ts'],
    ['ba', 'ateam-implementer-no-test-writes', 'ba', "sed -i 's/toBe(1)/toBe(2)/' src/cart.test.ts", 'src/cart.test.ts'],
    ['lynch', 'ateam-reviewer-writes-nothing', 'lynch', 'cp /tmp/x src/app.ts', 'src/app.ts'],
    ['lynch', 'ateam-reviewer-writes-nothing', 'lynch', 'mv notes.md src/app.ts', 'src/app.ts'],
    ['ai-team:lynch', 'ateam-reviewer-writes-nothing', 'lynch', 'cat notes.md | tee -a src/review.md', 'src/review.md'],
    ['lynch', 'ateam-reviewer-writes-nothing', 'lynch', 'dd if=/dev/zero of=src/app.ts bs=1 count=1', 'src/app.ts'],
    ['lynch', 'ateam-reviewer-writes-nothing', 'lynch', 'truncate -s 0 src/app.ts', 'src/app.ts'],
    ['lynch', 'ateam-reviewer-writes-nothing', 'lynch', 'touch src/app.ts', 'src/app.ts'],
    ['lynch', 'ateam-reviewer-writes-nothing', 'lynch', 'rm -f src/app.ts', 'src/app.ts'],
    ['lynch', 'ateam-reviewer-writes-nothing', 'lynch', 'echo notes > /tmp/review.md', '/tmp/review.md'],
    ['amy', 'ateam-investigator-no-project-writes', 'amy', 'git log > findings.txt', 'findings.txt'],
    ['sosa', 'ateam-sosa-writes-nothing', 'sosa', "bash -c 'sed -i s/a/b/ src/x.ts'", 'src/x.ts'],
  ])('%s: `%s` is denied by its lane like a Write of the file', (agentType, rule, agent, command, written) => {
    const r = bash(agentType, command);
    expect(r.exitCode).toBe(0);
    expect(decision(r)).toEqual({ decision: 'deny', reason: packMessage('ai-team', rule, { agent, path: written }) });
  });

  it.each([
    ['lynch', 'git status && git diff HEAD~1 | head -50'],
    ['lynch', "grep -rn '>' src"],
    ['amy', 'echo x > /tmp/scratch.txt'],
    ['ba', 'echo x > src/app.ts'],
    ['murdock', 'echo x > tests/cart.test.ts'],
    ['', 'mkdir -p mission && echo "# plan" > mission/plan.md'],
    ['Explore', 'echo x > src/app.ts'],
  ])('%s: `%s` gets no opinion', (agent, command) => {
    const r = bash(agent, command);
    expect([r.exitCode, r.stdout]).toEqual([0, '']);
  });

  it.each([
    ['lynch', 'npm test 2>&1 | tail -20', 'npm: not a command whose writes are known'],
    ['murdock', 'npx jest src', 'npx: not a command whose writes are known'],
    ['', 'git commit -am wip', 'git commit is not a git command known to leave the files alone'],
    ['lynch', 'echo x > "$TARGET"', '> writes to a path that is not static'],
    ['ba', "alias ls='rm -rf tests'; ls", 'it defines an alias'],
  ])('%s: `%s` cannot be checked, so it runs in the sandbox, or is asked about where there is none', (agent, command, why) => {
    const sandboxed = (bash(agent, command).json as { hookSpecificOutput: { updatedInput?: { command: string }; permissionDecision?: string } }).hookSpecificOutput;
    if (process.platform === 'linux') {
      expect(sandboxed.permissionDecision).toBeUndefined();
      expect(sandboxed.updatedInput?.command).toMatch(/\/dist\/sandbox\.cjs' run \S+ '/);
      expect(sandboxed.updatedInput?.command.endsWith(`'${command.split("'").join("'\\''")}'`)).toBe(true);
    }
    // A sandbox that could not start here lately: the rule asks, as it did before there was one.
    const note = path.join(project.cacheDir, 'sandbox-unavailable');
    fs.writeFileSync(note, 'unshare: operation not permitted\n');
    try {
      expect(decision(bash(agent, command))).toEqual({ decision: 'ask', reason: expect.stringContaining(why) });
    } finally {
      fs.rmSync(note);
    }
  });

  it('a PowerShell command is not parsed, so it is asked about', () => {
    const r = project.run({
      hook_event_name: 'PreToolUse', session_id: 's1', cwd: project.dir, tool_name: 'PowerShell',
      tool_input: { command: 'Set-Content src/app.ts pwned' }, agent_type: 'lynch',
    });
    expect(decision(r)).toEqual({ decision: 'ask', reason: expect.stringContaining('PowerShell commands are not parsed') });
  });

  it('the decision log lists every file the command writes, not only the one that was caught', () => {
    const before = project.readJsonl(LOG).length;
    const r = bash('ba', 'echo a > src/a.ts && echo b > tests/a.test.ts');
    expect(decision(r)?.decision).toBe('deny');
    const log = project.readJsonl(LOG).slice(before);
    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({ rules: ['ateam-implementer-no-test-writes'], paths: ['src/a.ts', 'tests/a.test.ts'] });
  });
});

describe('reopened descriptors: a file opened for reading, then written through its descriptor', () => {
  beforeAll(() => project.write('src/a.ts', 'export const a = 1;\n'));

  it.each([
    ['echo pwned 1<src/a.ts >/dev/stdout'],
    ['echo pwned 3<src/a.ts >/dev/fd/3'],
    ['< src/a.ts tee /dev/stdin'],
    ['echo pwned 3<src/a.ts >/proc/self/fd/3'],
    ['echo pwned 2<src/a.ts >/dev/stderr'],
    ['exec 3<src/a.ts; echo pwned > /dev/fd/3'],
    ['{ cat /dev/null >/dev/fd/4; } 4<src/a.ts'],
    ["bash -c 'echo pwned >/dev/fd/3' 3<src/a.ts"],
  ])('lynch: `%s` is denied as a write of src/a.ts', (command) => {
    expect(decision(bash('lynch', command))).toEqual({
      decision: 'deny',
      reason: packMessage('ai-team', 'ateam-reviewer-writes-nothing', { agent: 'lynch', path: 'src/a.ts' }),
    });
  });
});

describe('a symlink inside an allowed folder that leads outside it', () => {
  let outside: string;
  beforeAll(() => {
    outside = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'ai-team-outside-')));
    fs.mkdirSync(project.file('__tests__'), { recursive: true });
    fs.symlinkSync(path.join(outside), project.file('__tests__/fixtures'));
    fs.mkdirSync(project.file('tests'), { recursive: true });
    // Dangling: src/new.ts does not exist; writing through the link creates it.
    fs.symlinkSync('../src/new.ts', project.file('tests/dl.test.ts'));
  });
  afterAll(() => fs.rmSync(outside, { recursive: true, force: true }));

  const write = (file: string) => project.run({
    hook_event_name: 'PreToolUse', session_id: 's1', cwd: project.dir, tool_name: 'Write', agent_type: 'murdock',
    tool_input: { file_path: project.file(file), content: 'x' },
  });

  it('is judged by where it leads: murdock cannot write through it', () => {
    expect(decision(write('__tests__/fixtures/cart.test.ts'))?.decision).toBe('deny');
  });

  it('a dangling link is judged by the file it would create: tests/dl.test.ts -> ../src/new.ts', () => {
    expect(decision(write('tests/dl.test.ts'))).toEqual({
      decision: 'deny',
      reason: packMessage('ai-team', 'ateam-tester-writes-tests-only', { agent: 'murdock', path: 'tests/dl.test.ts' }),
    });
    expect(decision(bash('murdock', 'echo x > tests/dl.test.ts'))?.decision).toBe('deny');
    expect(fs.existsSync(project.file('src/new.ts'))).toBe(false);
  });

  it('while a real file in the allowed folder stays allowed', () => {
    const r = write('__tests__/cart.test.ts');
    expect([r.exitCode, r.stdout]).toEqual([0, '']);
  });
});
