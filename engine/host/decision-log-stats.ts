/**
 * How often each rule decided, and what the runner itself cost per event (the handler
 * metrics of seed 002), from the decision log (settings.log.file): for `policy stats`.
 * Each logged decision counts once for every rule it names, under its outcome; `other`
 * counts decisions where the rules fired without deciding (warn, context).
 */
import * as fs from 'fs';
import * as path from 'path';

export interface RuleCounts {
  deny: number;
  ask: number;
  allow: number;
  block: number;
  other: number;
  total: number;
}

/** The runner's work on one kind of event: how often, how often with errors, how long. */
export interface HandlerStats {
  count: number;
  /** Decisions logged with errors (a broken rule, a deadline, a log or memory problem). */
  errors: number;
  /** The runner's own time (`duration_ms`), over the records that have it; null when none has. */
  durationMs: { mean: number; p50: number; max: number } | null;
}

export interface RuleStats {
  /** The log file read (absolute). */
  file: string;
  /** Decision records read (after the filters); malformed lines are skipped. */
  decisions: number;
  rules: Record<string, RuleCounts>;
  /** Per hook event. */
  handlers: Record<string, HandlerStats>;
}

export interface RuleStatsFilter {
  sinceMs?: number;
  session?: string;
}

/**
 * The per-rule counts of a decision log; null when the file does not exist.
 * @example ruleStats('/p/.claude/decisions.jsonl', {}).rules['no-env-writes'] // { deny: 3, ask: 0, allow: 0, block: 0, other: 0, total: 3 }
 */
export function ruleStats(file: string, filter: RuleStatsFilter): RuleStats | null {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
  const rules = new Map<string, RuleCounts>();
  const handlers = new Map<string, { count: number; errors: number; durations: number[] }>();
  let decisions = 0;
  for (const line of text.split('\n')) {
    const record = parse(line);
    if (!record) continue;
    if (filter.sinceMs !== undefined && !(Date.parse(record.time) >= filter.sinceMs)) continue;
    if (filter.session !== undefined && record.session_id !== filter.session) continue;
    decisions++;
    const handler = handlers.get(record.event) ?? { count: 0, errors: 0, durations: [] };
    handler.count++;
    if (record.errors > 0) handler.errors++;
    if (record.durationMs !== null) handler.durations.push(record.durationMs);
    handlers.set(record.event, handler);
    const outcome = (['deny', 'ask', 'allow', 'block'] as const).find((o) => o === record.outcome) ?? 'other';
    for (const rule of new Set(record.rules)) {
      const counts = rules.get(rule) ?? { deny: 0, ask: 0, allow: 0, block: 0, other: 0, total: 0 };
      counts[outcome]++;
      counts.total++;
      rules.set(rule, counts);
    }
  }
  return {
    file: path.resolve(file),
    decisions,
    rules: Object.fromEntries([...rules.keys()].sort().map((k) => [k, rules.get(k) as RuleCounts])),
    handlers: Object.fromEntries([...handlers.keys()].sort().map((k) => [k, handlerStats(handlers.get(k)!)])),
  };
}

function handlerStats(h: { count: number; errors: number; durations: number[] }): HandlerStats {
  if (h.durations.length === 0) return { count: h.count, errors: h.errors, durationMs: null };
  const sorted = [...h.durations].sort((a, b) => a - b);
  const mean = sorted.reduce((sum, d) => sum + d, 0) / sorted.length;
  // The median by nearest rank: the lower middle of an even count, as the metrics do.
  return { count: h.count, errors: h.errors, durationMs: { mean: Math.round(mean * 100) / 100, p50: sorted[Math.ceil(sorted.length / 2) - 1], max: sorted[sorted.length - 1] } };
}

interface LoggedDecision {
  time: string;
  session_id: string | null;
  event: string;
  outcome: string;
  rules: string[];
  errors: number;
  durationMs: number | null;
}

function parse(line: string): LoggedDecision | null {
  if (line.trim() === '') return null;
  try {
    const v = JSON.parse(line) as Record<string, unknown>;
    if (typeof v.time !== 'string' || typeof v.outcome !== 'string' || !Array.isArray(v.rules)) return null;
    return {
      time: v.time,
      session_id: typeof v.session_id === 'string' ? v.session_id : null,
      event: typeof v.event === 'string' ? v.event : '(unknown)',
      outcome: v.outcome,
      rules: v.rules.filter((r): r is string => typeof r === 'string'),
      errors: Array.isArray(v.errors) ? v.errors.length : 0,
      durationMs: typeof v.duration_ms === 'number' && Number.isFinite(v.duration_ms) ? v.duration_ms : null,
    };
  } catch {
    return null;
  }
}
