import { aggregateReport, reportAggregator } from './aggregate';
import { parseLogLine } from './log-record';

const line = (time: string, outcome: string, fields: Record<string, unknown> = {}) =>
  JSON.stringify({ time: `2026-01-14T${time}Z`, session_id: 's', event: 'PreToolUse', tool: 'Bash', agent: null, outcome, rules: [], reason: null, paths: [], policy: [], ...fields });

const LOG = [
  line('09:00:00.000', 'deny', { rules: ['no-env-writes'], paths: ['.env'], command: 'echo x > .env', agent: 'murdock' }),
  line('09:01:00.000', 'deny', { rules: ['no-env-writes', 'no-env-writes'], paths: ['.env', '.env', 'b'], command: 'echo x > .env' }),
  line('09:02:00.000', 'ask', { rules: ['ask-migrations'], tool: 'Write', paths: ['db/m.sql'] }),
  line('09:03:00.000', 'allow', { rules: ['allow-tests'], command: 'npm test' }),
  line('09:04:00.000', 'none', { tool: null, event: 'Stop', errors: ['/p/.claude/policies.yaml:4:7: error expression-error: boom', 'x: warning input-oversized: big'] }),
  line('09:05:00.000', 'deny', { rules: ['no-env-writes'], errors: ['/p/.claude/policies.yaml:9:3: error deadline-exceeded: late'], bypass: { env: 'HOOKPOLICY_OFF', value: '1', rules: [] } }),
  line('09:06:00.000', 'none', { tool: null, event: '(unreadable)', errors: ['error event-invalid: stdin is not JSON'], fail_open: true }),
  'not json {',
  '',
  '{"time":"yesterday","outcome":"deny","rules":[]}',
  '{"time":"2026-01-14T09:06:00Z","outcome":"maybe","rules":[]}',
  '[1,2]',
];

describe('aggregateReport', () => {
  const report = aggregateReport(LOG);

  it('counts decisions by outcome, and garbled lines (not blank ones)', () => {
    expect([report.decisions, report.garbled, report.outside]).toEqual([7, 4, 0]);
    expect(report.outcomes).toEqual({ deny: 3, ask: 1, block: 0, allow: 1, none: 2, total: 7 });
    expect([report.first, report.last]).toEqual(['2026-01-14T09:00:00.000Z', '2026-01-14T09:06:00.000Z']);
  });

  it('per agent (the main session as (main)), per rule (once per decision), per tool (the event when there is none)', () => {
    expect(report.agents.rows.map((r) => [r.key, r.value.total, r.value.deny])).toEqual([['(main)', 6, 2], ['murdock', 1, 1]]);
    expect(report.rules.rows.map((r) => [r.key, r.value.total])).toEqual([['no-env-writes', 3], ['allow-tests', 1], ['ask-migrations', 1]]);
    expect(report.tools.rows.map((r) => r.key)).toEqual(['Bash', '(Stop)', '(unreadable)', 'Write']);
  });

  it('the paths and commands denied most often, each once per decision', () => {
    expect(report.deniedPaths.rows).toEqual([{ key: '.env', value: 2 }, { key: 'b', value: 1 }]);
    expect(report.deniedCommands.rows).toEqual([{ key: 'echo x > .env', value: 2 }]);
  });

  it('errors by code and message, those that let the call through, the latest first; bypasses', () => {
    expect([report.errors.decisions, report.errors.letThrough, report.errors.unjudged]).toEqual([3, 2, 1]);
    expect(report.errors.codes.rows.map((r) => r.key)).toEqual(['deadline-exceeded', 'event-invalid', 'expression-error', 'input-oversized']);
    expect(report.errors.recent.map((e) => [e.time.slice(11, 16), e.outcome, e.others, e.unjudged])).toEqual([['09:06', 'none', 0, true], ['09:05', 'deny', 0, false], ['09:04', 'none', 1, false]]);
    expect(report.bypasses).toEqual({ decisions: 1, envs: { rows: [{ key: 'HOOKPOLICY_OFF', value: 1 }], more: { keys: 0, total: 0 } } });
  });

  it('buckets the timeline', () => {
    expect(report.timeline?.stepMs).toBe(60_000);
    expect(report.timeline?.buckets.map((b) => b.total)).toEqual([1, 1, 1, 1, 1, 1, 1]);
  });

  it('keeps the period: --since inclusive, --until exclusive', () => {
    const r = aggregateReport(LOG, { sinceMs: Date.parse('2026-01-14T09:01:00Z'), untilMs: Date.parse('2026-01-14T09:04:00Z') });
    expect([r.decisions, r.outside, r.first, r.last]).toEqual([3, 4, '2026-01-14T09:01:00.000Z', '2026-01-14T09:03:00.000Z']);
  });

  it('shows the top rows and sums up the rest', () => {
    const r = aggregateReport(LOG, { top: 1 });
    expect(r.rules.rows.map((x) => x.key)).toEqual(['no-env-writes']);
    expect(r.rules.more).toEqual({ keys: 2, total: 2 });
  });

  it('is empty for an empty log', () => {
    const r = aggregateReport([]);
    expect([r.decisions, r.timeline, r.first, r.rules.rows]).toEqual([0, null, null, []]);
  });

  it('cuts huge keys before counting them, and counts a dropped line as garbled', () => {
    const a = reportAggregator();
    a.add(line('09:00:00.000', 'deny', { paths: ['p'.repeat(100_000)] }));
    a.addGarbled();
    const r = a.result();
    expect(r.deniedPaths.rows[0].key.length).toBeLessThanOrEqual(400);
    expect(r.garbled).toBe(1);
  });

  it('reads 100,000 lines in well under a few seconds', () => {
    const lines = Array.from({ length: 100_000 }, (_, i) => line(`${String(9 + Math.floor(i / 36_000)).padStart(2, '0')}:${String(Math.floor(i / 600) % 60).padStart(2, '0')}:00.000`, ['deny', 'ask', 'allow'][i % 3], { rules: [`r${i % 40}`], paths: [`src/${i % 500}.ts`], agent: `a${i % 7}` }));
    const started = Date.now();
    const r = aggregateReport(lines);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(r.decisions).toBe(100_000);
    expect(r.timeline!.buckets.length).toBeLessThanOrEqual(60);
    expect(r.deniedPaths.rows).toHaveLength(25);
  });
});

describe('parseLogLine', () => {
  it.each([
    ['no time', '{"outcome":"deny","rules":[]}'],
    ['an unknown outcome', '{"time":"2026-01-14T09:00:00Z","outcome":"maybe"}'],
    ['a time that is no date', '{"time":"soon","outcome":"deny"}'],
    ['not an object', '"deny"'],
    ['null', 'null'],
  ])('%s is garbled', (_name, text) => {
    expect(parseLogLine(text)).toBeNull();
  });

  it('takes only strings from lists and leaves out what has the wrong type', () => {
    const r = parseLogLine('{"time":"2026-01-14T09:00:00Z","outcome":"deny","rules":["a",1,null],"paths":"x","tool":7,"command":["rm"],"errors":[{}],"bypass":"yes"}');
    expect(r).toMatchObject({ rules: ['a'], paths: [], tool: null, command: null, errors: [], bypass: null, event: '(unknown)' });
  });
});
