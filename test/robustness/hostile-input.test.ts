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
    expect(r.stderr).toBe('');
    const out = JSON.parse(r.stdout) as { hookSpecificOutput: { permissionDecision: string; permissionDecisionReason: string } };
    expect(out.hookSpecificOutput.permissionDecision).toBe('deny');
    const message = packMessage('security-guard', rule, 'command' in values ? { command: full } : values);
    // Messages are cut to Claude Code's 10,000-character limit.
    expect(out.hookSpecificOutput.permissionDecisionReason).toBe(message.slice(0, 10_000));
  }, 30_000);
});
