/**
 * Input shaped to defeat the checks rather than to run: commands padded with 100 KB of
 * whitespace or words so that a pattern cannot finish (the watchdog stopped it and
 * on_error: open turned the shipped deny into a warning), and inputs so large that the
 * analysis outlasts deadline_ms. The shipped patterns decide in linear time, a pattern that
 * is stopped all the same never lets the call through, and every event is answered within
 * deadline_ms + 1 s whatever its size.
 */
import { ensureBuilt, makeSandbox, responseProblems, spawnHook, type Sandbox } from '../support/hook-process';
import { packMessage } from '../support/run-hook';

beforeAll(() => ensureBuilt(), 120_000);

const bash = (command: string) => JSON.stringify({ hook_event_name: 'PreToolUse', session_id: 's', tool_name: 'Bash', tool_input: { command } });

describe('security-guard against padded commands (through the binary)', () => {
  let box: Sandbox;
  beforeAll(() => {
    box = makeSandbox({ '.claude/policies.yaml': 'version: 1\ninclude: [security-guard]\n' });
  });
  afterAll(() => box.remove());

  const KB100 = 100_000;
  const pad = (unit: string) => unit.repeat(Math.ceil(KB100 / unit.length));
  // [name, padding put before the command]: newline runs made the patterns quadratic.
  const paddings: Array<[string, string]> = [
    ['spaces', pad(' ')],
    ['newlines', pad('\n')],
    ['newlines, then a command that is not the one', `${pad('\n')}true; `],
    ['tabs and newlines', pad('\t\n')],
    ['carriage returns', pad('\r\n')],
    ['words', `${pad('echo x ')}; `],
    ['separators', pad('; ')],
    ['subshells', `${pad('(true ')}; `],
    ['earlier pushes', pad('git push \n')],
  ];
  const commands: Array<[string, string, Record<string, string>]> = [
    ['rm -rf /', 'guard-no-rm-root', { command: '' }],
    ['git push --force origin main', 'guard-no-force-push-main', { command: '' }],
    ['cat .env', 'guard-no-env-reads-bash', {}],
  ];

  const cases = paddings.flatMap(([name, padding]) => commands.map(([command, rule, values]) => [name, command, padding, rule, values] as const));
  it.each(cases)('%s before %s: still denied, by its own rule, without a watchdog', async (_name, command, padding, rule, values) => {
    const full = `${padding}${command}`;
    const r = await spawnHook(bash(full), { projectDir: box.dir, cacheDir: box.cacheDir, timeoutMs: 20_000 });
    expect(responseProblems(r)).toEqual([]);
    // No pattern was stopped, nothing failed open. (The built-in self-protection rule cannot
    // parse a 100 KB command for its writes: its input-oversized warning is expected.)
    expect(r.stderr).not.toMatch(/regex-unsafe|failing|error/);
    const out = JSON.parse(r.stdout) as { hookSpecificOutput: { permissionDecision: string; permissionDecisionReason: string } };
    expect(out.hookSpecificOutput.permissionDecision).toBe('deny');
    const message = packMessage('security-guard', rule, 'command' in values ? { command: full } : values);
    // Messages are cut to Claude Code's 10,000-character limit.
    expect(out.hookSpecificOutput.permissionDecisionReason).toBe(message.slice(0, 10_000));
  }, 30_000);
});

describe('huge input is answered within deadline_ms + 1 s (through the binary)', () => {
  // Measured before: a 98 KB Bash command took 125 s (10 s on a faster machine), parsing it
  // word by word; deadline_ms never fired, since no timer can interrupt synchronous work.
  let box: Sandbox;
  const DEADLINE = 2000;
  beforeAll(async () => {
    box = makeSandbox({ '.claude/policies.yaml': `version: 1\ninclude: [ai-team, security-guard]\nsettings: { deadline_ms: ${DEADLINE} }\n` });
    await spawnHook(bash('ls'), { projectDir: box.dir, cacheDir: box.cacheDir }); // compiles the policy once
  }, 30_000);
  afterAll(() => box.remove());

  const lynch = (tool: string, input: Record<string, string>) => JSON.stringify({ hook_event_name: 'PreToolUse', session_id: 's', agent_type: 'lynch', tool_name: tool, tool_input: input });
  const cases: Array<[string, () => string]> = [
    ['a 98 KB Bash command of assignments', () => lynch('Bash', { command: `${'a=1 '.repeat(24_500)}rm x` })],
    ['a 98 KB Bash command of redirections', () => lynch('Bash', { command: `${'echo a > f; '.repeat(8_000)}rm x` })],
    ['a 15 KB command (under max_input_bytes) in a 40 KB event', () => lynch('Bash', { command: `${'a=1 '.repeat(3_700)}rm x`, description: 'd'.repeat(25_000) })],
    ['a 400 KB Write path', () => lynch('Write', { file_path: `${box.dir}/${'a/'.repeat(200_000)}x.ts`, content: 'x' })],
    ['a 400 KB path of one name', () => lynch('Write', { file_path: `${box.dir}/${'a'.repeat(400_000)}`, content: 'x' })],
    ['a 4 MB Write content', () => lynch('Write', { file_path: `${box.dir}/src/a.ts`, content: 'x = 1;\n'.repeat(600_000) })],
  ];
  it.each(cases)('%s: answered in time, and never let through unseen', async (_name, make) => {
    const stdin = make();
    const start = Date.now();
    const r = await spawnHook(stdin, { projectDir: box.dir, cacheDir: box.cacheDir, timeoutMs: 60_000 });
    expect(r.endedAt - start).toBeLessThan(DEADLINE + 1000);
    expect(responseProblems(r)).toEqual([]);
    // lynch writes nothing: each of these is a write, denied or (when it cannot be checked) asked about.
    const decision = (JSON.parse(r.stdout) as { hookSpecificOutput?: { permissionDecision?: string } }).hookSpecificOutput?.permissionDecision;
    expect(['deny', 'ask']).toContain(decision);
  }, 70_000);

  it('a 27-byte command whose pattern\'s stars split a long name in every way: answered at once, and denied (before: a backtracking regex ran for minutes)', async () => {
    box.write(`src/${'a'.repeat(250)}`, '');
    const start = Date.now();
    const r = await spawnHook(lynch('Bash', { command: 'rm src/*a*a*a*a*a*a*a*a*b' }), { projectDir: box.dir, cacheDir: box.cacheDir, timeoutMs: 60_000 });
    expect(r.endedAt - start).toBeLessThan(DEADLINE + 1000);
    expect(responseProblems(r)).toEqual([]);
    expect((JSON.parse(r.stdout) as { hookSpecificOutput?: { permissionDecision?: string } }).hookSpecificOutput?.permissionDecision).toBe('deny');
  }, 70_000);
});
