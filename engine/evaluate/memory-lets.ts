/**
 * Store-reading lets (`count`, `last`, `summaries`, `search`, `summary`, `metrics`),
 * computed through facts.memory. Loaded by the runner only when a rule with one is
 * reached (dist/memory.cjs), so events that read no memory never load it. Without a store
 * the let fails like a file that does not exist: the rule does not apply, unless
 * `optional`. A store that cannot be read (better-sqlite3 missing, a refused folder, a
 * broken index: the runner warns about it once, memory-unavailable or memory-error) fails
 * the let as `unreadable`: a rule that denies, asks or blocks then fails per on_error
 * (rule.ts), any other does not apply.
 */
import type { CompiledLet, MemoryFacts, MemoryRecord } from '../types';
import { summaryLines, searchLines } from '../memory/lines';
import { aggregateMetrics } from '../memory/metrics';
import { summarizeSession } from '../memory/summary';
import { cutText } from './fields';
import type { LetResult } from './lets';
import type { EventScope } from './scope';
import { renderStrict } from './template';

/** The longest search query sent to the store: a prompt can be any size. */
const MAX_QUERY_CHARS = 1000;
const MINUTE_MS = 60_000;
const UNREADABLE = 'the memory store cannot be read: ';

/**
 * The value of a store-reading let, with its sub-values.
 * @example computeMemoryLet(failsLet, lookup, scope) // { ok: true, value: '3', path: null }
 */
export function computeMemoryLet(l: CompiledLet, lookup: (name: string) => string | undefined, scope: EventScope): LetResult {
  const memory = scope.memory;
  if (!memory) return failed('the project has no memory store');
  try {
    return computeWith(memory, l, lookup, scope);
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    // A MemoryUnavailableError already says so.
    return { ok: false, detail: why.startsWith(UNREADABLE) ? why : `${UNREADABLE}${why}`, path: null, unreadable: true };
  }
}

function computeWith(memory: MemoryFacts, l: CompiledLet, lookup: (name: string) => string | undefined, scope: EventScope): LetResult {
  const query = l.memory ?? { scope: 'session' as const };
  const who = scope.who;
  switch (l.kind) {
    case 'count': {
      let since: number | undefined;
      if (query.sinceMinutes !== undefined) {
        if (!scope.ctx.now) return failed('since_minutes needs a clock, and the evaluation has none');
        since = scope.ctx.now() - query.sinceMinutes * MINUTE_MS;
      }
      return { ok: true, value: String(memory.count(l.target, query.scope, who, since)), path: null };
    }
    case 'last': {
      const record = memory.last(l.target, query.scope, who, query.first);
      if (!record) return failed(`no ${l.target === '*' ? '' : `${l.target} `}record in the ${query.scope} scope`);
      return { ok: true, value: cutText(record.text), path: null, subs: recordSubs(record, scope.ctx.now) };
    }
    case 'summaries': {
      const records = memory.summaries(query.limit ?? 3, who.session);
      if (records.length === 0) return failed('no summary of another session');
      const lines = summaryLines(records, query.budgetTokens ?? 500);
      return { ok: true, value: cutText(lines.text), path: null, subs: { count: String(lines.count) } };
    }
    case 'search':
      return search(l, lookup, memory, query.limit ?? 3, query.minRelevance ?? 0);
    case 'summary':
    case 'metrics': {
      if (who.session === null) return failed('the event has no session_id');
      const records = memory.sessionRecords(who.session);
      if (l.kind === 'summary') {
        const summary = summarizeSession(records);
        return summary === '' ? failed('this session has no records') : { ok: true, value: cutText(summary), path: null };
      }
      const metrics = aggregateMetrics(records);
      return metrics.count === 0 ? failed('this session has no metric records') : { ok: true, value: cutText(JSON.stringify(metrics)), path: null };
    }
    default:
      return failed(`"${l.kind}" does not read the memory store`);
  }
}

function search(l: CompiledLet, lookup: (name: string) => string | undefined, memory: MemoryFacts, limit: number, minRelevance: number): LetResult {
  const rendered = renderStrict(l.target, lookup);
  if (rendered.missing !== undefined) return failed(`no value for {{${rendered.missing}}}`);
  const text = rendered.text.slice(0, MAX_QUERY_CHARS).trim();
  if (text === '') return failed('the search text is empty');
  const results = memory.search(text, limit).filter((r) => r.relevance >= minRelevance);
  // With embeddings configured: how this search ranked (full text alone when the endpoint did not answer).
  const ranking = memory.searchNote?.() ?? null;
  if (results.length === 0) return failed(`nothing in the memory store matches${ranking ? ` (${ranking})` : ''}`);
  return {
    ok: true,
    value: cutText(searchLines(results)),
    path: null,
    subs: { count: String(results.length), top: results[0].relevance.toFixed(2), ...(ranking ? { ranking } : {}) },
  };
}

/** A `last` record's sub-values: at, age_minutes (with a clock), kind, importance, id, fields.X. */
function recordSubs(record: MemoryRecord, now: (() => number) | undefined): Record<string, string> {
  const subs: Record<string, string> = {
    at: record.at,
    kind: record.kind,
    importance: String(record.importance),
    id: String(record.id),
  };
  const at = Date.parse(record.at);
  if (now && Number.isFinite(at)) subs.age_minutes = String(Math.max(0, Math.floor((now() - at) / MINUTE_MS)));
  for (const [name, value] of Object.entries(record.fields)) subs[`fields.${name}`] = cutText(value);
  return subs;
}

function failed(detail: string): LetResult {
  return { ok: false, detail, path: null };
}
