/**
 * Which decision records `policy log` (and `policy report`) show: by time, agent, rule,
 * outcome, tool, event and session. Each list matches any of its values; lists combine
 * with and.
 */
import type { DecisionRecord } from '../types';

export interface DecisionLogFilter {
  /** Epoch ms: records at or after. */
  sinceMs?: number;
  /** Epoch ms: records at or before. */
  untilMs?: number;
  /** Agent names; `main` is the main session (a record whose agent is null). */
  agents?: readonly string[];
  /** Records that name one of these rules. */
  rules?: readonly string[];
  outcomes?: readonly string[];
  tools?: readonly string[];
  events?: readonly string[];
  sessions?: readonly string[];
  /** The newest this many of the matching records (still oldest first). */
  limit?: number;
}

/** The fields of a logged record a filter reads (every record of the log has them). */
export type FilterableRecord = Pick<DecisionRecord, 'time' | 'session_id' | 'event' | 'tool' | 'agent' | 'outcome' | 'rules'>;

/** The outcomes a decision record can have. */
export const RECORD_OUTCOMES = ['deny', 'ask', 'allow', 'block', 'none'] as const;

/**
 * Whether a record passes the filter (limit aside).
 * @example matchesFilter(record, { outcomes: ['deny'], agents: ['main'] }) // true for a deny of the main session
 */
export function matchesFilter(record: FilterableRecord, filter: DecisionLogFilter): boolean {
  if (filter.sinceMs !== undefined || filter.untilMs !== undefined) {
    const at = Date.parse(record.time);
    if (!Number.isFinite(at)) return false;
    if (filter.sinceMs !== undefined && at < filter.sinceMs) return false;
    if (filter.untilMs !== undefined && at > filter.untilMs) return false;
  }
  if (filter.agents && !filter.agents.includes(record.agent ?? 'main')) return false;
  if (filter.rules && !record.rules.some((r) => filter.rules!.includes(r))) return false;
  if (filter.outcomes && !filter.outcomes.includes(record.outcome)) return false;
  if (filter.tools && !(record.tool !== null && filter.tools.includes(record.tool))) return false;
  if (filter.events && !filter.events.includes(record.event)) return false;
  if (filter.sessions && !(record.session_id !== null && filter.sessions.includes(record.session_id))) return false;
  return true;
}
