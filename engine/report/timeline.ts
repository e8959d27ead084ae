/**
 * Decisions over time, in buckets: the step is the smallest of a few round sizes (a
 * minute to a year) that keeps the chart at most MAX_BUCKETS bars, buckets aligned on UTC
 * multiples of the step, so a week of decisions is 28 bars of 6 hours, a morning 48 of 5 minutes.
 */
import { OUTCOMES, type ReportOutcome } from './log-record';

export interface Timeline {
  /** The first bucket's start (epoch ms, a multiple of stepMs). */
  startMs: number;
  stepMs: number;
  /** Counts by outcome per bucket, in time order. */
  buckets: (Record<ReportOutcome, number> & { total: number })[];
}

export const MAX_BUCKETS = 60;

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const STEPS = [MINUTE, 5 * MINUTE, 15 * MINUTE, 30 * MINUTE, HOUR, 3 * HOUR, 6 * HOUR, 12 * HOUR, DAY, 7 * DAY, 30 * DAY, 365 * DAY];

/**
 * The step for decisions from `first` to `last` (epoch ms).
 * @example timelineStep(0, 86_400_000) // 1_800_000 (half an hour: 48 buckets)
 */
export function timelineStep(first: number, last: number): number {
  const fits = (step: number) => Math.floor(last / step) - Math.floor(first / step) + 1 <= MAX_BUCKETS;
  // Past a year a step (times planted decades apart): whole years, as many as it takes.
  return STEPS.find(fits) ?? Math.ceil((last - first + 1) / (MAX_BUCKETS - 1) / (365 * DAY)) * 365 * DAY;
}

/**
 * The buckets of `times[i]` (epoch ms) with outcome `OUTCOMES[outcomes[i]]`; `first` and `last` are their extremes.
 * @example timeline(Float64Array.of(0, 90_000), Uint8Array.of(0, 3), 0, 90_000).buckets.length // 2
 */
export function timeline(times: Float64Array, outcomes: Uint8Array, first: number, last: number): Timeline {
  const stepMs = timelineStep(first, last);
  const startMs = Math.floor(first / stepMs) * stepMs;
  const buckets = Array.from({ length: Math.floor((last - startMs) / stepMs) + 1 }, () => ({ deny: 0, ask: 0, block: 0, allow: 0, none: 0, total: 0 }));
  for (let i = 0; i < times.length; i++) {
    const b = buckets[Math.floor((times[i] - startMs) / stepMs)];
    b[OUTCOMES[outcomes[i]]]++;
    b.total++;
  }
  return { startMs, stepMs, buckets };
}
