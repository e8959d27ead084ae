/**
 * How often each rule decided, from the decision log (settings.log.file): for `policy
 * stats`. Each logged decision counts once for every rule it names, under its outcome;
 * `other` counts decisions where the rules fired without deciding (warn, context).
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

export interface RuleStats {
  /** The log file read (absolute). */
  file: string;
  /** Decision records read (after the filters); malformed lines are skipped. */
  decisions: number;
  rules: Record<string, RuleCounts>;
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
  let decisions = 0;
  for (const line of text.split('\n')) {
    const record = parse(line);
    if (!record) continue;
    if (filter.sinceMs !== undefined && !(Date.parse(record.time) >= filter.sinceMs)) continue;
    if (filter.session !== undefined && record.session_id !== filter.session) continue;
    decisions++;
    const outcome = (['deny', 'ask', 'allow', 'block'] as const).find((o) => o === record.outcome) ?? 'other';
    for (const rule of new Set(record.rules)) {
      const counts = rules.get(rule) ?? { deny: 0, ask: 0, allow: 0, block: 0, other: 0, total: 0 };
      counts[outcome]++;
      counts.total++;
      rules.set(rule, counts);
    }
  }
  return { file: path.resolve(file), decisions, rules: Object.fromEntries([...rules.keys()].sort().map((k) => [k, rules.get(k) as RuleCounts])) };
}

function parse(line: string): { time: string; session_id: string | null; outcome: string; rules: string[] } | null {
  if (line.trim() === '') return null;
  try {
    const v = JSON.parse(line) as Record<string, unknown>;
    if (typeof v.time !== 'string' || typeof v.outcome !== 'string' || !Array.isArray(v.rules)) return null;
    return { time: v.time, session_id: typeof v.session_id === 'string' ? v.session_id : null, outcome: v.outcome, rules: v.rules.filter((r): r is string => typeof r === 'string') };
  } catch {
    return null;
  }
}
