/**
 * Aggregates of `metric` records (seed 002's handler metrics): how many calls, how many
 * failed, and their durations, in all, per tool and per agent. A metric record carries
 * `fields.tool`, `fields.duration_ms` and `fields.success` (as a metrics rule records
 * them from PostToolUse and PostToolUseFailure). Pure.
 */
import type { MemoryRecord } from '../types';
import { isFailure } from './record-kinds';

export interface DurationStats {
  total: number;
  mean: number;
  /** The median by nearest rank (the lower middle for an even count). */
  p50: number;
  max: number;
}

export interface MetricStats {
  count: number;
  failures: number;
  /** Over the records that carry a number in `duration_ms`; null when none does. */
  durationMs: DurationStats | null;
}

export interface MetricsAggregate extends MetricStats {
  /** By `fields.tool` ('(none)' when absent), names sorted. */
  tools: Record<string, MetricStats>;
  /** By the record's agent ('(main)' for the main session), names sorted. */
  agents: Record<string, MetricStats>;
}

/** The key of records without an agent: the main session. */
export const MAIN_AGENT = '(main)';
export const METRIC_KIND = 'metric';

/**
 * The aggregate of the `metric` records among `records` (other kinds are ignored).
 * @example aggregateMetrics([metric('Bash', 120, true), metric('Bash', 80, false)]).tools.Bash
 *   // { count: 2, failures: 1, durationMs: { total: 200, mean: 100, p50: 80, max: 120 } }
 */
export function aggregateMetrics(records: readonly MemoryRecord[]): MetricsAggregate {
  const metrics = records.filter((r) => r.kind === METRIC_KIND);
  return {
    ...stats(metrics),
    tools: grouped(metrics, (r) => r.fields.tool?.trim() || '(none)'),
    agents: grouped(metrics, (r) => r.agent ?? MAIN_AGENT),
  };
}

function stats(records: readonly MemoryRecord[]): MetricStats {
  const durations = records.map(durationOf).filter((d): d is number => d !== null).sort((a, b) => a - b);
  return {
    count: records.length,
    failures: records.filter(isFailure).length,
    durationMs: durations.length === 0 ? null : durationStats(durations),
  };
}

function durationStats(sorted: readonly number[]): DurationStats {
  const total = sorted.reduce((sum, d) => sum + d, 0);
  return {
    total: round(total),
    mean: round(total / sorted.length),
    p50: sorted[Math.ceil(sorted.length / 2) - 1],
    max: sorted[sorted.length - 1],
  };
}

function grouped(records: readonly MemoryRecord[], key: (r: MemoryRecord) => string): Record<string, MetricStats> {
  const groups = new Map<string, MemoryRecord[]>();
  for (const r of records) {
    const k = key(r);
    const list = groups.get(k);
    if (list) list.push(r);
    else groups.set(k, [r]);
  }
  return Object.fromEntries([...groups.keys()].sort().map((k) => [k, stats(groups.get(k) as MemoryRecord[])]));
}

/** `duration_ms` as a finite, non-negative number, else null. */
function durationOf(record: MemoryRecord): number | null {
  const text = record.fields.duration_ms?.trim();
  if (!text) return null;
  const n = Number(text);
  return Number.isFinite(n) && n >= 0 ? n : null;
}

function round(n: number): number {
  return Math.round(n * 10) / 10;
}
