/**
 * One answer for a host event the rules read as several events (a Codex patch that writes
 * three files is a Write or an Edit of each): the strictest outcome wins, as between rules
 * (deny and block beat ask beat allow), and what each event's rules said is kept.
 */
import type { Decision, FinalOutcome } from '../types';

const RANK: Record<FinalOutcome, number> = { none: 0, allow: 1, ask: 2, deny: 3, block: 3 };

/**
 * The decisions of one host event's parts, as one.
 * @example mergeDecisions([allowed, denied]).outcome // 'deny'
 */
export function mergeDecisions(decisions: readonly Decision[]): Decision {
  if (decisions.length === 1) return decisions[0];
  const first = decisions[0];
  const top = decisions.reduce((best, d) => (RANK[d.outcome] > RANK[best.outcome] ? d : best), first);
  const deciding = decisions.filter((d) => d.outcome === top.outcome && top.outcome !== 'none');
  const unique = (items: string[]) => [...new Set(items)];
  const merged: Decision = {
    ...first,
    tool: top.tool,
    outcome: top.outcome,
    reason: deciding.length === 0 ? null : unique(deciding.map((d) => d.reason).filter((r): r is string => r !== null)).join('\n') || null,
    decidedBy: deciding.flatMap((d) => d.decidedBy),
    hits: decisions.flatMap((d) => d.hits),
    contexts: unique(decisions.flatMap((d) => d.contexts)),
    warnings: unique(decisions.flatMap((d) => d.warnings)),
    trace: decisions.flatMap((d) => d.trace),
    bypass: decisions.find((d) => d.bypass)?.bypass ?? null,
    errors: decisions.flatMap((d) => d.errors),
  };
  const paths = decisions.flatMap((d) => d.paths ?? []);
  if (decisions.some((d) => d.paths)) merged.paths = unique(paths);
  const broken = new Map<string, NonNullable<Decision['broken']>[number]>();
  for (const b of decisions.flatMap((d) => d.broken ?? [])) {
    const seen = broken.get(`${b.kind}:${b.name}`);
    broken.set(`${b.kind}:${b.name}`, seen ? { ...seen, covers: seen.covers || b.covers } : b);
  }
  if (broken.size > 0) merged.broken = [...broken.values()];
  else delete merged.broken;
  const records = decisions.flatMap((d) => d.records ?? []);
  if (records.length > 0) merged.records = records;
  else delete merged.records;
  const dropped = decisions.reduce((n, d) => n + (d.droppedRecords ?? 0), 0);
  if (dropped > 0) merged.droppedRecords = dropped;
  else delete merged.droppedRecords;
  return merged;
}
