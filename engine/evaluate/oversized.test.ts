import { compiledPolicy, compiledRule, pathFilter, toolFilter } from '../../test/support/compiled';
import { memoryContext, MemoryFacts } from '../../test/support/memory-facts';
import { evaluate, evaluateNow } from '../evaluate';
import type { CompiledRule, Decision, HookEvent } from '../types';
import { DEFAULT_MAX_INPUT_BYTES, GUARDED_EVENT_BYTES, inputLimitSettings, inputLimits, oversizedBytes, oversizedOutcome } from './oversized';

const bashEvent = (command: string): HookEvent => ({ hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command } });
const writeEvent = (filePath: string): HookEvent => ({ hook_event_name: 'PreToolUse', tool_name: 'Write', tool_input: { file_path: filePath, content: 'x' } });
const shellRule = (partial: Partial<CompiledRule> = {}) => compiledRule({ id: 'no-src', tools: toolFilter('Bash'), paths: pathFilter({ deny: ['src/**'] }), message: 'no writes to src', ...partial });

describe('sizes', () => {
  it.each<[string, number, number | null]>([
    ['x'.repeat(16), 16, null],
    ['x'.repeat(17), 16, 17],
    ['é'.repeat(8), 16, null],
    ['é'.repeat(9), 16, 18],
    ['€'.repeat(6), 17, 18],
    ['😀'.repeat(4), 16, null],
    ['😀'.repeat(5), 16, 20],
  ])('oversizedBytes(%j, %d) is %p', (text, limit, expected) => {
    expect(oversizedBytes(text, limit)).toBe(expected);
  });

  it('the settings: defaults, and what a policy file gives', () => {
    expect(inputLimits({})).toEqual({ outcome: 'ask', maxBytes: DEFAULT_MAX_INPUT_BYTES });
    expect(inputLimits({ oversized: 'deny', maxInputBytes: 100 })).toEqual({ outcome: 'deny', maxBytes: 100 });
    expect(inputLimitSettings({ oversized: 'ignore', max_input_bytes: 65536 })).toEqual({ oversized: 'ignore', maxInputBytes: 65536 });
    expect(inputLimitSettings({ oversized: 'maybe', max_input_bytes: -1 })).toEqual({});
    expect(inputLimitSettings(undefined)).toEqual({});
  });
});

describe('oversizedOutcome', () => {
  it.each<[CompiledRule['outcome'], string, 'deny' | 'ask' | 'allow' | 'ignore', string]>([
    ['deny', 'PreToolUse', 'ask', 'ask'],
    ['ask', 'PreToolUse', 'deny', 'deny'],
    ['deny', 'PreToolUse', 'allow', 'allow'],
    ['deny', 'PreToolUse', 'ignore', 'ignore'],
    // A Stop cannot be asked about: the rule's own outcome stands.
    ['block', 'Stop', 'ask', 'block'],
    ['block', 'UserPromptSubmit', 'ask', 'block'],
    ['warn', 'PreToolUse', 'ask', 'ignore'],
    ['context', 'SessionStart', 'deny', 'ignore'],
    ['allow', 'PreToolUse', 'ask', 'ignore'],
  ])('a %s rule on %s with oversized %s: %s', (outcome, event, setting, expected) => {
    expect(oversizedOutcome(compiledRule({ outcome }), event, setting)).toBe(expected);
  });
});

describe('a command or path longer than max_input_bytes is not analysed', () => {
  const big = `${'echo x; '.repeat(Math.ceil(DEFAULT_MAX_INPUT_BYTES / 8))}echo pwned > src/a.ts`;

  it('a shell paths rule that denies answers ask, with an input-oversized warning', async () => {
    const d = await evaluate(compiledPolicy([shellRule()]), bashEvent(big), memoryContext());
    expect(d.outcome).toBe('ask');
    expect(d.reason).toMatch(/^hookpolicy could not check this call against rule "no-src": the Bash command is \d+ bytes, more than max_input_bytes \(16384\)/);
    expect(d.errors.map((e) => [e.code, e.severity])).toEqual([['input-oversized', 'warning']]);
    expect(d.trace[0]).toMatchObject({ status: 'fired', error: { code: 'input-oversized' } });
  });

  it.each<['deny' | 'allow' | 'ignore', Decision['outcome']]>([['deny', 'deny'], ['allow', 'allow'], ['ignore', 'none']])('settings.oversized %s: %s', async (setting, outcome) => {
    const d = await evaluate(compiledPolicy([shellRule()], { oversized: setting }), bashEvent(big), memoryContext());
    expect(d.outcome).toBe(outcome);
  });

  it('an allow rule with paths does not apply: it cannot say every path is covered', async () => {
    const d = await evaluate(compiledPolicy([shellRule({ outcome: 'allow', paths: pathFilter({ allow: ['**'] }) })]), bashEvent(big), memoryContext());
    expect(d.outcome).toBe('none');
    expect(d.trace[0]).toMatchObject({ status: 'not-matched', failed: { condition: 'paths' } });
  });

  it('a raised max_input_bytes analyses the same command', async () => {
    const d = await evaluate(compiledPolicy([shellRule()], { maxInputBytes: 1_000_000 }), bashEvent(big), memoryContext());
    expect(d.outcome).toBe('deny');
    expect(d.errors).toEqual([]);
  });

  it('a Write path longer than the limit: the paths rule answers ask; a command pattern rule still decides on a big command', async () => {
    const pathRule = compiledRule({ id: 'no-env', tools: toolFilter('Write'), paths: pathFilter({ deny: ['**/.env'] }) });
    const w = await evaluate(compiledPolicy([pathRule]), writeEvent(`${'a/'.repeat(100_000)}.env`), memoryContext());
    expect(w.outcome).toBe('ask');
    const commandRule = compiledRule({ id: 'no-rm', tools: toolFilter('Bash'), command: [{ source: '\\brm -rf /', flags: '' }] });
    const b = await evaluate(compiledPolicy([commandRule]), bashEvent(`${' '.repeat(100_000)}rm -rf /`), memoryContext());
    expect(b.outcome).toBe('deny');
  });
});

describe('a large event past deadline_ms (the wall-clock watchdog)', () => {
  /** Facts whose stat busy-waits: synchronous work no timer could interrupt. */
  class SlowFacts extends MemoryFacts {
    override stat(path: string): 'file' | 'dir' | null {
      const until = Date.now() + 3000;
      while (Date.now() < until) { /* spin */ }
      return super.stat(path);
    }
  }
  const slow = compiledRule({ id: 'slow-deny', events: ['PreToolUse'], onlyIfExists: 'x', outcome: 'deny', message: 'slow' });
  const event = { ...bashEvent('ls'), padding: 'p'.repeat(GUARDED_EVENT_BYTES) };
  const ctx = (inputBytes: number) => ({ ...memoryContext({}, {}, Date.now), facts: new SlowFacts({}), inputBytes });

  it('is stopped at deadline_ms: the rule not evaluated answers settings.oversized, earlier rules keep their say', () => {
    const earlier = compiledRule({ id: 'warned', outcome: 'warn', message: 'early warning' });
    const after = compiledRule({ id: 'informs', outcome: 'context', message: 'later context' });
    const start = Date.now();
    const d = evaluateNow(compiledPolicy([earlier, slow, after], { deadlineMs: 200 }), event, ctx(JSON.stringify(event).length)) as Decision;
    expect(Date.now() - start).toBeLessThan(1500);
    expect(d.outcome).toBe('ask');
    expect(d.warnings).toEqual(['early warning']);
    expect(d.contexts).toEqual([]);
    expect(d.hits.map((h) => h.id)).toEqual(['warned', 'slow-deny']);
    expect(d.errors.map((e) => [e.code, e.severity])).toEqual([['input-oversized', 'warning']]);
    expect(d.errors[0].message).toMatch(/could not be checked within deadline_ms \(200 ms\); rules "slow-deny" answer ask/);
  });

  it('a small event is not watched (no cost): it runs to the end', () => {
    const start = Date.now();
    const d = evaluateNow(compiledPolicy([slow], { deadlineMs: 200 }), bashEvent('ls'), ctx(100)) as Decision;
    expect(Date.now() - start).toBeGreaterThanOrEqual(2900);
    expect(d.outcome).toBe('none');
  });
});
