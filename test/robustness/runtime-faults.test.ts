/**
 * Faults after the policy has built: an evaluation past deadline_ms, a decision log or a
 * cache folder that cannot be written. The deadline follows on_error; the log and the
 * cache only ever cost a warning, never the decision.
 */
import { runHook } from '../../cli/hook';
import { compilePolicyFiles } from '../../engine/host/compile-entry';
import { ensureBuilt, makeSandbox, responseProblems, spawnHook, type Sandbox } from '../support/hook-process';

beforeAll(() => ensureBuilt(), 120_000);

const EVENTS = {
  PreToolUse: '{"hook_event_name":"PreToolUse","tool_name":"Write","tool_input":{"file_path":"a.ts"}}',
  Stop: '{"hook_event_name":"Stop"}',
  TeammateIdle: '{"hook_event_name":"TeammateIdle","teammate_name":"ba"}',
};
const RULE = 'rules:\n  - { id: r, on: [PreToolUse, Stop, TeammateIdle], block: "ruled" }\n';
const DEADLINE = /^hookpolicy: error deadline-exceeded: evaluating the event took longer than deadline_ms \(50 ms\) \(failing (open|closed): the event was not checked\)$/;

describe('deadline_ms, with an evaluation that never answers (in-process)', () => {
  let box: Sandbox;
  beforeAll(() => {
    box = makeSandbox({ '.claude/policies.yaml': `version: 1\nsettings: { deadline_ms: 50 }\n${RULE}` });
  });
  afterAll(() => box.remove());

  const run = (stdin: string, argv: string[]) => runHook({
    argv,
    stdin,
    env: { CLAUDE_PROJECT_DIR: box.dir, HOOKPOLICY_CACHE_DIR: box.cacheDir },
    cwd: box.dir,
    compiler: () => ({ compilePolicyFiles }),
    cacheDirs: [box.cacheDir],
    evaluator: () => new Promise(() => undefined),
  });

  it.each([
    ['PreToolUse', 'open', { stdout: 'systemMessage', exitCode: 0 }],
    ['Stop', 'open', { stdout: 'systemMessage', exitCode: 0 }],
    ['TeammateIdle', 'open', { stdout: 'systemMessage', exitCode: 0 }],
    ['PreToolUse', 'closed', { stdout: 'deny', exitCode: 0 }],
    ['Stop', 'closed', { stdout: 'block', exitCode: 0 }],
    ['TeammateIdle', 'closed', { stdout: '', exitCode: 2 }],
  ] as const)('%s, on_error %s', async (event, mode, expected) => {
    const result = await run(EVENTS[event], mode === 'closed' ? ['--on-error', 'closed'] : []);
    expect(result.timedOut).toBe(true);
    const r = result.response;
    expect(responseProblems(r)).toEqual([]);
    expect(r.exitCode).toBe(expected.exitCode);
    expect(r.stderr.trimEnd()).toMatch(DEADLINE);
    expect(r.stderr).toContain(`failing ${mode}`);
    const out = r.stdout === '' ? null : JSON.parse(r.stdout);
    if (expected.stdout === 'systemMessage') expect(out).toEqual({ systemMessage: r.stderr.trimEnd() });
    if (expected.stdout === 'deny') expect(out.hookSpecificOutput).toMatchObject({ permissionDecision: 'deny', permissionDecisionReason: r.stderr.trimEnd() });
    if (expected.stdout === 'block') expect(out).toMatchObject({ decision: 'block', reason: r.stderr.trimEnd() });
    if (expected.stdout === '') expect(out).toBeNull();
  });
});

describe('deadline_ms with a real expression (through the binary)', () => {
  const policy = (when: string) => `version: 1\nsettings: { deadline_ms: 100, on_error: closed }\nrules:\n  - id: slow\n    on: Stop\n    when: ${JSON.stringify(when)}\n    block: "ruled"\n`;

  // JSONata runs on promise microtasks, where no timer can interrupt it: its own time and
  // depth guardrails (set from deadline_ms) stop a busy or endless expression.
  test('a CPU-bound expression past the deadline answers per on_error', async () => {
    const box = makeSandbox({ '.claude/policies.yaml': policy('$reduce([1..300000], function($a, $b) { $a + $b }) > 0') });
    try {
      const r = await spawnHook(EVENTS.Stop, { projectDir: box.dir, cacheDir: box.cacheDir, timeoutMs: 10_000 });
      expect(JSON.parse(r.stdout)).toMatchObject({ decision: 'block', reason: expect.stringMatching(/deadline-exceeded/) });
    } finally {
      box.remove();
    }
  }, 15_000);

  test('an expression that never ends still lets the runner answer', async () => {
    const box = makeSandbox({ '.claude/policies.yaml': policy('($f := function($x) { $f($x + 1) }; $f(1))') });
    try {
      const r = await spawnHook(EVENTS.Stop, { projectDir: box.dir, cacheDir: box.cacheDir, timeoutMs: 3000 });
      expect(r.signal).toBeNull();
      expect(JSON.parse(r.stdout)).toMatchObject({ decision: 'block', reason: expect.stringMatching(/deadline-exceeded/) });
    } finally {
      box.remove();
    }
  }, 15_000);
});

describe('a regex the watchdog stops (through the binary)', () => {
  // The compiler marks the pattern; the runner matches it under the 1 s watchdog, and names
  // why it was marked (the classifier loads from dist/regex-safety.cjs only then).
  test('a deny rule whose pattern is stopped answers settings.oversized (ask), not on_error; the warning gives the classifier\'s reason', async () => {
    const box = makeSandbox({
      '.claude/policies.yaml': 'version: 1\nsettings: { on_error: closed }\nrules:\n  - { id: nested, on: PreToolUse, tools: Bash, command: ["^(a+)+$"], deny: "no" }\n',
    });
    try {
      const bash = JSON.stringify({ hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: `${'a'.repeat(40)}!` } });
      const r = await spawnHook(bash, { projectDir: box.dir, cacheDir: box.cacheDir, timeoutMs: 10_000 });
      const out = JSON.parse(r.stdout);
      // on_error: closed would deny, open would let the call through: neither; it is asked about.
      expect(out.hookSpecificOutput.permissionDecision).toBe('ask');
      expect(out.hookSpecificOutput.permissionDecisionReason).toMatch(/^hookpolicy could not check this call against rule "nested": its pattern did not finish/);
      expect(out.systemMessage).toMatch(/warning regex-unsafe: rule "nested": .*ran longer than 1000 ms on this text and was stopped \(a quantifier applied to a group that contains a quantifier\); the rule answers ask/);
    } finally {
      box.remove();
    }
  }, 15_000);
});

describe('a decision log that cannot be written', () => {
  it('costs a log-error warning on stderr, never the decision', async () => {
    const box = makeSandbox({
      // The log's folder is a file: nothing can be written there (a folder at the log's own path is set aside: log-integrity).
      '.claude/policies.yaml': `version: 1\nsettings: { log: { file: logs/decisions.jsonl } }\n${RULE}`,
      'logs': 'not a folder',
    });
    try {
      const stop = await spawnHook(EVENTS.Stop, { projectDir: box.dir, cacheDir: box.cacheDir });
      expect(stop.stdout).toBe('{"decision":"block","reason":"ruled"}\n');
      expect(stop.stderr).toMatch(new RegExp(`^hookpolicy: ${box.dir}/logs/decisions.jsonl: warning log-error: cannot write the decision log: ENOTDIR`));
      const idle = await spawnHook(EVENTS.TeammateIdle, { projectDir: box.dir, cacheDir: box.cacheDir });
      expect(idle.exitCode).toBe(2);
      expect(idle.stderr.split('\n')[0]).toBe('ruled');
      expect(idle.stderr).toContain('warning log-error');
    } finally {
      box.remove();
    }
  });
});

describe('a cache folder that cannot be used', () => {
  it('costs nothing but time: the answer is the same', async () => {
    const box = makeSandbox({ '.claude/policies.yaml': `version: 1\n${RULE}`, 'not-a-folder': 'x' });
    try {
      const opts = { projectDir: box.dir, cacheDir: box.file('not-a-folder') };
      for (let i = 0; i < 2; i++) {
        const r = await spawnHook(EVENTS.Stop, opts);
        expect(r).toMatchObject({ stdout: '{"decision":"block","reason":"ruled"}\n', exitCode: 0 });
        expect(r.stderr === '' || /warning cache-error/.test(r.stderr)).toBe(true);
      }
    } finally {
      box.remove();
    }
  });
});
