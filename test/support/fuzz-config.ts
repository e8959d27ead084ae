/**
 * fast-check settings for the robustness suites: a fixed seed by default so CI runs are
 * reproducible, and two environment variables for longer or different runs
 * (`npm run fuzz -- --seed N --runs M` sets them, see scripts/fuzz.mjs):
 * - HOOKPOLICY_FC_SEED: the seed (an integer);
 * - HOOKPOLICY_FC_RUNS: runs of each in-process property (spawned properties scale down).
 */
import fc from 'fast-check';

/** The seed CI uses. */
export const DEFAULT_FC_SEED = 20260601;
/** Runs of each in-process property in CI. */
export const DEFAULT_FC_RUNS = 400;

function intFromEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw);
  if (!Number.isSafeInteger(value)) throw new Error(`${name} must be an integer, not ${JSON.stringify(raw)}`);
  return value;
}

export const FC_SEED = intFromEnv('HOOKPOLICY_FC_SEED', DEFAULT_FC_SEED);
export const FC_RUNS = Math.max(1, intFromEnv('HOOKPOLICY_FC_RUNS', DEFAULT_FC_RUNS));

/**
 * Parameters for fc.assert: the seed, and `share` of FC_RUNS runs (at least `min`).
 * A failure message names the seed and path, so it can be replayed.
 * @example await fc.assert(property, fcParams()) // FC_RUNS runs with FC_SEED
 */
export function fcParams<T>(share = 1, min = 1): fc.Parameters<T> {
  return { seed: FC_SEED, numRuns: Math.max(min, Math.round(FC_RUNS * share)), endOnFailure: true };
}

/**
 * `count` values of an arbitrary, the same ones for the same seed.
 * @example sampleOf(fc.string(), 5) // five strings
 */
export function sampleOf<T>(arbitrary: fc.Arbitrary<T>, count: number): T[] {
  return fc.sample(arbitrary, { seed: FC_SEED, numRuns: count });
}
