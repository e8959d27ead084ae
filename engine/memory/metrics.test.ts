import { aggregateMetrics, MAIN_AGENT } from './metrics';
import { memoryRecord } from './test-support';

const metric = (tool: string, duration: string | undefined, success: string | undefined, extra: { agent?: string | null; event?: string } = {}) =>
  memoryRecord('metric', `${tool}`, {
    fields: { tool, ...(duration !== undefined ? { duration_ms: duration } : {}), ...(success !== undefined ? { success } : {}) },
    agent: extra.agent ?? null,
    event: extra.event ?? 'PostToolUse',
  });

describe('aggregateMetrics', () => {
  it('is all zero for no metric records, other kinds ignored', () => {
    expect(aggregateMetrics([memoryRecord('command', 'ls')])).toEqual({ count: 0, failures: 0, durationMs: null, tools: {}, agents: {} });
  });

  it('counts, failures and durations in all, per tool and per agent', () => {
    const a = aggregateMetrics([
      metric('Bash', '120', 'true'),
      metric('Bash', '80', 'false', { agent: 'murdock' }),
      metric('Bash', '40', undefined, { event: 'PostToolUseFailure' }),
      metric('Write', '10', 'true', { agent: 'murdock' }),
    ]);
    expect(a).toEqual({
      count: 4,
      failures: 2,
      durationMs: { total: 250, mean: 62.5, p50: 40, max: 120 },
      tools: {
        Bash: { count: 3, failures: 2, durationMs: { total: 240, mean: 80, p50: 80, max: 120 } },
        Write: { count: 1, failures: 0, durationMs: { total: 10, mean: 10, p50: 10, max: 10 } },
      },
      agents: {
        [MAIN_AGENT]: { count: 2, failures: 1, durationMs: { total: 160, mean: 80, p50: 40, max: 120 } },
        murdock: { count: 2, failures: 1, durationMs: { total: 90, mean: 45, p50: 10, max: 80 } },
      },
    });
  });

  it.each([
    ['missing', undefined],
    ['empty', ''],
    ['not a number', 'fast'],
    ['negative', '-5'],
  ])('leaves a %s duration out of the durations, not out of the count', (_name, duration) => {
    const a = aggregateMetrics([metric('Bash', duration, 'true'), metric('Bash', '7', 'true')]);
    expect([a.count, a.durationMs]).toEqual([2, { total: 7, mean: 7, p50: 7, max: 7 }]);
  });

  it('groups records without a tool under (none), and sorts names', () => {
    const a = aggregateMetrics([metric('', '1', 'true'), metric('Write', '1', 'true'), metric('Bash', '1', 'true')]);
    expect(Object.keys(a.tools)).toEqual(['(none)', 'Bash', 'Write']);
  });

  it('rounds the mean and total to one decimal', () => {
    expect(aggregateMetrics([metric('Bash', '1', 'true'), metric('Bash', '1', 'true'), metric('Bash', '2', 'true')]).durationMs?.mean).toBe(1.3);
  });
});
