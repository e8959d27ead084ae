/**
 * The conventions the CLI shares with ESLint and its ecosystem, through the built CLI
 * (node bin/policy.cjs): exit codes, colour, --quiet, --output-file, and what `policy
 * lint` reads.
 */
import * as path from 'node:path';
import { makeProject, REPO_ROOT, type TempProject } from '../support/run-hook';
import { HAS_TERMINAL, runCli, runCliInTerminal } from '../support/run-cli';

const LINT_FIXTURES = path.join(REPO_ROOT, 'fixtures', 'lint');

describe('exit codes: 0 ok, 1 problems found, 2 usage or internal error', () => {
  it('exits 2 on an unknown command, with a usage message', () => {
    const run = runCli(['bogus'], { cwd: REPO_ROOT });
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain("error: unknown command 'bogus'");
    expect(run.stderr).toContain('(add --help for usage)');
  });

  it('exits 2 without a command, with the usage on stderr', () => {
    const run = runCli([], { cwd: REPO_ROOT });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('Usage: policy [options] [command]');
  });

  it.each([
    ['test', '--bogus'],
    ['version', '--bogus'],
    ['lint', '--bogus'],
  ])('exits 2 on an unknown option of %s', (...args) => {
    const run = runCli(args, { cwd: REPO_ROOT });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("error: unknown option '--bogus'");
  });

  it('exits 0 for --help and --version', () => {
    expect(runCli(['--help'], { cwd: REPO_ROOT }).code).toBe(0);
    expect(runCli(['--version'], { cwd: REPO_ROOT }).code).toBe(0);
  });

  it('exits 1 when lint finds problems, 0 when it finds none', () => {
    expect(runCli(['lint'], { cwd: path.join(LINT_FIXTURES, 'bad') }).code).toBe(1);
    expect(runCli(['lint'], { cwd: path.join(LINT_FIXTURES, 'clean') }).code).toBe(0);
  });
});

describe('policy hook: a usage error in its command line', () => {
  const usage = "policy hook: unknown option '--bogus' (usage: policy hook [--config FILE]... [--on-error open|closed])";
  let p: TempProject;
  beforeAll(() => {
    p = makeProject('version: 1\nrules:\n  - id: no-rm\n    on: PreToolUse\n    tools: Bash\n    command: ["rm -rf"]\n    deny: "no rm -rf"\n');
  });
  afterAll(() => p.remove());

  it('exits 2 naming the option, on an event exit 2 cannot stop', () => {
    const r = p.run({ hook_event_name: 'SessionStart', source: 'startup' }, { args: ['--bogus'] });
    expect([r.exitCode, r.stdout, r.stderr]).toEqual([2, '', `${usage}\n`]);
  });

  it('fails open, visibly, on PreToolUse: a typo in settings.json does not block every tool call', () => {
    const r = p.run({ hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls' } }, { args: ['--bogus'] });
    expect(r.exitCode).toBe(0);
    expect(r.json).toEqual({ systemMessage: `hookpolicy: error hook-usage: ${usage} (failing open: the event was not checked)` });
  });

  it('fails closed on PreToolUse under --on-error closed', () => {
    const r = p.run({ hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls' } }, { args: ['--on-error', 'closed', '--bogus'] });
    expect(r.exitCode).toBe(0);
    expect(r.json).toMatchObject({ hookSpecificOutput: { permissionDecision: 'deny' } });
  });

  (HAS_TERMINAL ? it : it.skip)('is reported at once when typed at a terminal, without waiting for stdin', async () => {
    const typed = await runCliInTerminal(['hook', '--bogus'], { cwd: p.dir, timeoutMs: 5_000 });
    expect([typed.code, typed.output]).toEqual([2, `${usage}\r\n`]);
    // Without a usage error, the runner waits for the event on stdin.
    expect((await runCliInTerminal(['hook'], { cwd: p.dir, timeoutMs: 1_500 })).code).toBeNull();
  });
});
