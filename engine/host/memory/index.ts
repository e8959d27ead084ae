/**
 * The memory store, one room: recording events append to a journal (journal.ts), readers
 * open an SQLite index that ingests it first (memory-index.ts, loaded lazily), and this
 * entry point is what the rest of the engine imports: where a project's store is, how the
 * runner records a decision's records, and the lazy MemoryFacts it gives the evaluator.
 */
import * as path from 'path';
import { redactRecord, redactText } from '../redact';
import { diagnostic } from '../../diagnostics';
import { storeSettings } from '../../memory/store-settings';
import type { CompiledEmbeddings, CompiledSettings, Decision, Diagnostic, HookEvent } from '../../types';
import { isoTime } from '../iso-time';
import { shipToPostgres } from '../postgres/ship';
import { appendToJournal, boundedRecord, JOURNAL_FILE, type JournalRecord } from './journal';
import type { MemoryIndexPool } from './index-pool';
import { lazyMemoryFacts, type LazyMemoryFacts } from './lazy-facts';
import type { MemoryIndexOptions } from './memory-index';
import { MEMORY_UNAVAILABLE_FIX, MemoryUnavailableError } from './sqlite';

export { lazyMemoryFacts, type LazyMemoryFacts } from './lazy-facts';
export { MemoryUnavailableError, MEMORY_UNAVAILABLE_FIX } from './sqlite';
export { StoreRefusedError } from './store-folder';
export { JOURNAL_FILE } from './journal';
export { createMemoryIndexPool, type MemoryIndexPool } from './index-pool';

/** Where a project's store is and how long records stay (and its embeddings, when the policy has them), or null when the policy turned it off. */
export type ProjectStore = Omit<MemoryIndexOptions, 'now'> & { embeddings?: CompiledEmbeddings };

/**
 * The project's store from the policy's settings (null: no policy; default `.claude/hookpolicy/memory`).
 * @example projectStore('/p', policy.settings) // { dir: '/p/.claude/hookpolicy/memory', projectRoot: '/p', retentionDays: 90, maxRecords: 20000 }
 */
export function projectStore(projectRoot: string, settings: CompiledSettings | null): ProjectStore | null {
  const s = storeSettings(settings);
  if (s.dir === null) return null;
  const embeddings = settings?.memory?.embeddings;
  return { dir: path.resolve(projectRoot, s.dir), projectRoot, retentionDays: s.retentionDays, maxRecords: s.maxRecords, ...(embeddings ? { embeddings } : {}) };
}

export interface RecordMemoryOptions {
  decision: Decision;
  event: HookEvent;
  store: ProjectStore;
  now: number;
  /** The runner's environment: with HOOKPOLICY_DATABASE_URL the records are also queued for PostgreSQL (default: none). */
  env?: Readonly<Record<string, string | undefined>>;
}

/**
 * Appends the decision's records (Decision.records) to the store's journal, each with the
 * event's session, the decision's agent and event, and the time. Returns a `memory-error`
 * warning instead of throwing; the decision is never changed.
 * @example recordMemory({ decision, event, store, now: Date.now() }) // []
 */
export function recordMemory(options: RecordMemoryOptions): Diagnostic[] {
  const { decision, event, store } = options;
  if (!decision.records || decision.records.length === 0) return [];
  const at = isoTime(options.now);
  const session = typeof event.session_id === 'string' && event.session_id !== '' ? event.session_id : null;
  // The decision log's secret detection (redact.ts): a command's output kept in memory (`cat .env`, `printenv`) keeps no secret.
  const records: JournalRecord[] = decision.records.map((r) => ({
    at, session, agent: decision.agent, event: decision.event, rule: r.rule, kind: r.kind, importance: r.importance, text: redactText(r.text), fields: redactRecord(r.fields),
  }));
  const problems: Diagnostic[] = [];
  const file = path.join(store.dir, JOURNAL_FILE);
  try {
    // What was at the journal's path is set aside, never followed: the records still go in, and this says so.
    const setAside = appendToJournal(store.dir, store.projectRoot, records);
    if (setAside) problems.push(diagnostic('memory-error', `the memory journal: ${setAside}`, { file }));
  } catch (e) {
    problems.push(diagnostic('memory-error', `cannot append ${records.length} record(s) to the memory journal: ${(e as Error).message}`, { file }));
  }
  // The team database gets them whatever became of the local append (its own outbox, its own warning).
  const shipped = shipToPostgres(options.env ?? {}, store.projectRoot, records.map((record) => ({ type: 'memory' as const, record: boundedRecord(record) })));
  if (shipped) problems.push(shipped);
  return problems;
}

/**
 * The warning for a store a rule could not read during the event: `memory-unavailable`,
 * with the fix, when better-sqlite3 is missing; `memory-error` for anything else (a
 * folder refused, a broken index). A rule that denies, asks or blocks failed per on_error
 * (its own fact-error); any other just did not apply, as with a file that does not exist,
 * and without this warning nothing would say why. Null when no question failed.
 * @example memoryReadProblem(new MemoryUnavailableError('Cannot find module'), dir) // { code: 'memory-unavailable', ... }
 */
export function memoryReadProblem(failure: unknown, dir: string): Diagnostic | null {
  if (failure === undefined) return null;
  // By code, not instanceof: the error may come from the index's own bundle (dist/memory.cjs).
  if (isMemoryUnavailable(failure)) return diagnostic('memory-unavailable', (failure as Error).message, undefined, MEMORY_UNAVAILABLE_FIX);
  // An error from another bundle or realm (better-sqlite3's SqliteError) may not be an instanceof Error here.
  const message = (failure as { message?: unknown } | null)?.message;
  const why = typeof message === 'string' ? message : String(failure);
  return diagnostic('memory-error', `a rule could not read the memory store: ${why} (a rule that denies, asks or blocks fails per on_error; any other does not apply)`, { file: dir });
}

/** True for a MemoryUnavailableError from any bundle. */
export function isMemoryUnavailable(e: unknown): boolean {
  return e instanceof MemoryUnavailableError || (typeof e === 'object' && e !== null && (e as { code?: unknown }).code === 'memory-unavailable');
}

/**
 * The MemoryFacts for one event over the project's store, opened at the first question
 * (taken from `pool` when given). `env`: where the embeddings' key is read (default process.env).
 * @example const memory = projectMemoryFacts(store, Date.now); memory.count('test', 'session', who)
 */
export function projectMemoryFacts(store: ProjectStore, now: () => number, env?: Readonly<Record<string, string | undefined>>, pool?: MemoryIndexPool): LazyMemoryFacts {
  return lazyMemoryFacts({ ...store, now, ...(env ? { env } : {}), ...(pool ? { pool } : {}) });
}
