// Order statistics over a list of samples (milliseconds or any unit).

/** The q-quantile (0..1) by nearest rank over sorted samples. */
export function quantile(samples, q) {
  if (samples.length === 0) return NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[rank];
}

/** median, p90, p99, min, max and the min-max spread relative to the median. */
export function summarize(samples) {
  const median = quantile(samples, 0.5);
  const min = Math.min(...samples);
  const max = Math.max(...samples);
  return {
    n: samples.length,
    median,
    p90: quantile(samples, 0.9),
    p99: quantile(samples, 0.99),
    min,
    max,
    spread: median > 0 ? (max - min) / median : 0,
  };
}

export function round(x, digits = 2) {
  return Number.isFinite(x) ? Number(x.toFixed(digits)) : x;
}
