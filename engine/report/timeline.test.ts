import { stepName } from './svg';
import { MAX_BUCKETS, timeline, timelineStep } from './timeline';

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;

describe('timelineStep', () => {
  it.each([
    ['one instant', 0, 0, MIN],
    ['an hour', 0, HOUR - 1, MIN],
    ['a morning', 0, 4 * HOUR, 5 * MIN],
    ['a day', 0, DAY - 1, 30 * MIN],
    ['a week', 0, 7 * DAY - 1, 3 * HOUR],
    ['a year', 0, 365 * DAY, 7 * DAY],
    ['a century (planted times)', 0, 100 * 365 * DAY, 2 * 365 * DAY],
  ])('%s', (_name, first, last, step) => {
    expect(timelineStep(first, last)).toBe(step);
  });

  it('never gives more than MAX_BUCKETS buckets', () => {
    for (const span of [1, 59 * MIN, 61 * MIN, 3 * DAY + 7, 1000 * DAY, 5000 * 365 * DAY]) {
      for (const first of [0, 17 * MIN + 3, 1_768_000_000_000]) {
        const step = timelineStep(first, first + span);
        expect(Math.floor((first + span) / step) - Math.floor(first / step) + 1).toBeLessThanOrEqual(MAX_BUCKETS);
      }
    }
  });
});

describe('timeline', () => {
  it('aligns buckets on the step and counts each outcome', () => {
    const t0 = Date.parse('2026-01-14T09:00:30Z');
    const t = timeline(Float64Array.of(t0, t0 + 10_000, t0 + 2 * MIN), Uint8Array.of(0, 3, 4), t0, t0 + 2 * MIN);
    expect(t.startMs).toBe(Date.parse('2026-01-14T09:00:00Z'));
    expect(t.buckets).toEqual([
      { deny: 1, ask: 0, block: 0, allow: 1, none: 0, total: 2 },
      { deny: 0, ask: 0, block: 0, allow: 0, none: 0, total: 0 },
      { deny: 0, ask: 0, block: 0, allow: 0, none: 1, total: 1 },
    ]);
  });
});

describe('stepName', () => {
  it.each([[MIN, '1 minute'], [30 * MIN, '30 minutes'], [HOUR, '1 hour'], [12 * HOUR, '12 hours'], [DAY, '1 day'], [7 * DAY, '1 week'], [30 * DAY, '30 days'], [2 * 365 * DAY, '2 years']])('%d ms: %s', (ms, name) => {
    expect(stepName(ms)).toBe(name);
  });
});
