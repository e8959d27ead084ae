/**
 * `policy stats` as text: a table per tool and per agent (from the store's metric
 * records), one per rule and one per hook event (the runner's own time, from the decision
 * log).
 */
import type { MetricsAggregate, MetricStats } from '../../engine/memory/metrics';
import type { RuleStats } from '../../engine/host/decision-log-stats';

export interface StatsReport {
  metrics: MetricsAggregate | null;
  /** Why there are no metrics (no store yet, store off). */
  metricsNote?: string;
  rules: RuleStats | null;
  /** Why there are no rule counts (no decision log). */
  rulesNote?: string;
  /** The runner's unjudged answers for this project, from the per-user fail-open counter. */
  failOpens: FailOpenStats;
}

export interface FailOpenStats {
  /** Calls let through unjudged (on_error: open). */
  count: number;
  last: { time: string; code: string; event: string | null; tool: string | null; message: string } | null;
  /** For comparison: events stopped unjudged (on_error: closed). */
  failClosed: number;
  /** A counter file that is not a plain file (tampering): the count may be short. */
  problems?: string[];
}

/** Right-aligned numbers, left-aligned names. */
function table(header: string[], rows: string[][]): string[] {
  const all = [header, ...rows];
  const widths = header.map((_, i) => Math.max(...all.map((r) => r[i].length)));
  return all.map((r) => `  ${r.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  ')}`.trimEnd());
}

const ms = (n: number | undefined) => (n === undefined ? '-' : Number.isInteger(n) ? String(n) : n.toFixed(1));

function metricRows(groups: Record<string, MetricStats>): string[][] {
  return Object.entries(groups).map(([name, s]) => [name, String(s.count), String(s.failures), ms(s.durationMs?.mean), ms(s.durationMs?.p50), ms(s.durationMs?.max), ms(s.durationMs?.total)]);
}

const METRIC_HEADER = ['calls', 'failed', 'mean ms', 'p50 ms', 'max ms', 'total ms'];

/**
 * The report as text.
 * @example formatStats({ metrics, rules }) // 'Tools (3 calls, 1 failed)\n  tool  calls ...'
 */
export function formatStats(report: StatsReport): string {
  const out: string[] = [];
  const m = report.metrics;
  if (!m || m.count === 0) {
    out.push(`Tools and agents: no metric records${report.metricsNote ? ` (${report.metricsNote})` : ''}`);
  } else {
    out.push(`Tools (${m.count} call${m.count === 1 ? '' : 's'}, ${m.failures} failed)`, ...table(['tool', ...METRIC_HEADER], metricRows(m.tools)));
    out.push('', 'Agents', ...table(['agent', ...METRIC_HEADER], metricRows(m.agents)));
  }
  out.push('');
  const r = report.rules;
  if (!r) {
    out.push(`Rules: no decision log${report.rulesNote ? ` (${report.rulesNote})` : ''}`);
  } else {
    const rows = Object.entries(r.rules).map(([id, c]) => [id, String(c.deny), String(c.ask), String(c.allow), String(c.block), String(c.other), String(c.total)]);
    out.push(`Rules (${r.decisions} logged decision${r.decisions === 1 ? '' : 's'})`);
    out.push(...(rows.length > 0 ? table(['rule', 'deny', 'ask', 'allow', 'block', 'other', 'total'], rows) : ['  no rule named in them']));
    const handlers = Object.entries(r.handlers ?? {}).map(([event, h]) => [event, String(h.count), String(h.errors), ms(h.durationMs?.mean), ms(h.durationMs?.p50), ms(h.durationMs?.max)]);
    if (handlers.length > 0) out.push('', 'Runner, per event', ...table(['event', 'events', 'errors', 'mean ms', 'p50 ms', 'max ms'], handlers));
  }
  return `${out.join('\n')}\n\n${formatFailOpens(report.failOpens)}`;
}

/**
 * The fail-open counter's line.
 * @example formatFailOpens({ count: 1, last: { time: '2026-01-15T10:07:30.000Z', code: 'schema-type', ... }, failClosed: 0 })
 *   // 'Fail-opens: 1 (last: 2026-01-15T10:07:30.000Z, schema-type); fail-closed: 0\n'
 */
export function formatFailOpens(f: FailOpenStats): string {
  const line = `Fail-opens: ${f.count}${f.last ? ` (last: ${f.last.time}, ${f.last.code})` : ''}; fail-closed: ${f.failClosed}\n`;
  return line + (f.problems ?? []).map((p) => `  the count may be short: ${p}\n`).join('');
}
