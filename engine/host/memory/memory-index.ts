/**
 * The store's reader: the index opened and brought up to date with the journal, and the
 * questions rules (MemoryFacts) and `policy memory` ask of it. Loaded by the runner only
 * when a rule reads the store (it is built into the memory chunk, dist/memory.cjs, with the
 * lets that ask it).
 */
import type { MemoryFacts, MemoryRecord, MemoryScope, MemoryWho } from '../../types';
import { openIndexDb } from './index-schema';
import { getMeta, ingestJournal, type IngestResult } from './ingest';
import { ftsQuery, idf, prefixTerm, queryTerms, relevance } from './search-query';
import type { SqliteDatabase } from './sqlite';
import { statement } from './statements';
import { ensureStoreFolder } from './store-folder';

export interface MemoryIndexOptions {
  /** The store folder (absolute). */
  dir: string;
  projectRoot: string;
  retentionDays: number;
  maxRecords: number;
  now: () => number;
}

export interface ListFilter {
  kind?: string;
  session?: string;
  agent?: string;
  /** Records at or after this time (epoch ms). */
  sinceMs?: number;
  limit?: number;
}

export interface ForgetFilter extends Omit<ListFilter, 'limit'> {
  ids?: number[];
  /** Records before this time (epoch ms). */
  beforeMs?: number;
}

/** A record row as SQLite returns it: its fields as JSON text. */
interface Row extends Omit<MemoryRecord, 'fields'> {
  fields: string;
}

/** A search candidate: its id, bm25 score and text, enough to rank it. */
interface Candidate {
  id: number;
  score: number;
  text: string;
}

/** Every record, as the index holds them; opened by openMemoryIndex. */
export class MemoryIndex implements MemoryFacts {
  /** What the ingest at opening did. */
  readonly ingest: IngestResult;

  /** `db`: the index's database, for the embeddings beside the records (engine/host/embeddings). */
  constructor(readonly db: SqliteDatabase, private readonly options: MemoryIndexOptions) {
    this.ingest = this.refresh();
  }

  /** Ingests what the journal gained since (the constructor already did once). */
  refresh(rotate = false): IngestResult {
    const { dir, retentionDays, maxRecords } = this.options;
    return ingestJournal(this.db, { dir, now: this.options.now(), retentionDays, maxRecords, rotate });
  }

  count(kind: string, scope: MemoryScope, who: MemoryWho, sinceMs?: number): number {
    const where = scoped(kind, scope, who, sinceMs);
    return (statement(this.db, `SELECT count(*) AS n FROM records WHERE ${where.sql}`).get(...where.params) as { n: number }).n;
  }

  last(kind: string, scope: MemoryScope, who: MemoryWho, first?: boolean): MemoryRecord | null {
    const where = scoped(kind, scope, who);
    const row = statement(this.db, `SELECT * FROM records WHERE ${where.sql} ORDER BY id ${first ? 'ASC' : 'DESC'} LIMIT 1`).get(...where.params) as Row | undefined;
    return row ? toRecord(row) : null;
  }

  summaries(limit: number, excludeSession: string | null): MemoryRecord[] {
    const rows = statement(this.db, `SELECT r.* FROM records r JOIN (SELECT max(id) AS id FROM records WHERE kind = 'summary' AND session IS NOT ? GROUP BY session) newest
      ON r.id = newest.id ORDER BY r.id DESC LIMIT ?`).all(excludeSession, Math.max(0, Math.floor(limit))) as Row[];
    return rows.map(toRecord);
  }

  search(query: string, limit: number): Array<{ record: MemoryRecord; relevance: number }> {
    if (limit <= 0) return [];
    // Each word's weight from how many records have it; words no record has do not count.
    const records = (statement(this.db, 'SELECT count(*) AS n FROM records').get() as { n: number }).n;
    const matching = statement(this.db, 'SELECT count(*) AS n FROM records_fts WHERE records_fts MATCH ?');
    const known = new Map<string, number>();
    for (const term of queryTerms(query)) {
      const n = (matching.get(prefixTerm(term)) as { n: number }).n;
      if (n > 0) known.set(term, idf(records, n));
    }
    const match = ftsQuery([...known.keys()]);
    if (match === null) return [];
    // Candidates by bm25, more than asked: the relevance then orders them (bm25 breaks ties).
    // Ranked inside the full-text table first, so only the candidates are joined to their
    // text; only the records given back are read whole (turning 50 rows into objects was
    // a fifth of a search's time in the policy server).
    const rows = statement(this.db, `SELECT f.rowid AS id, f.score, r.text FROM (SELECT rowid, bm25(records_fts) AS score FROM records_fts
      WHERE records_fts MATCH ? ORDER BY score LIMIT ?) f JOIN records r ON r.id = f.rowid ORDER BY f.score`).all(match, Math.max(50, Math.floor(limit) * 10)) as Candidate[];
    const whole = statement(this.db, 'SELECT * FROM records WHERE id = ?');
    return rows
      .map((row) => ({ row, relevance: relevance(row.text, known) }))
      .sort((a, b) => b.relevance - a.relevance || a.row.score - b.row.score || b.row.id - a.row.id)
      .slice(0, Math.floor(limit))
      .flatMap(({ row, relevance: r }) => {
        // Forgotten by another process since the query: not found any more.
        const record = whole.get(row.id) as Row | undefined;
        return record ? [{ record: toRecord(record), relevance: r }] : [];
      });
  }

  sessionRecords(session: string): MemoryRecord[] {
    return (statement(this.db, 'SELECT * FROM records WHERE session IS ? ORDER BY id').all(session) as Row[]).map(toRecord);
  }

  /** Records matching the filter, newest first (limit default 50). */
  list(filter: ListFilter = {}): MemoryRecord[] {
    const where = filtered(filter);
    const rows = this.db.prepare(`SELECT * FROM records WHERE ${where.sql} ORDER BY id DESC LIMIT ?`).all(...where.params, filter.limit ?? 50) as Row[];
    return rows.map(toRecord);
  }

  /** One record by id, or null. */
  get(id: number): MemoryRecord | null {
    const row = this.db.prepare('SELECT * FROM records WHERE id = ?').get(id) as Row | undefined;
    return row ? toRecord(row) : null;
  }

  /** Every record matching the filter, oldest first, one at a time (export). */
  *each(filter: ListFilter = {}): IterableIterator<MemoryRecord> {
    const where = filtered(filter);
    for (const row of this.db.prepare(`SELECT * FROM records WHERE ${where.sql} ORDER BY id`).iterate(...where.params)) yield toRecord(row as Row);
  }

  /**
   * Deletes the matching records (their text overwritten: secure_delete), and renames the
   * journal aside so that the forgotten lines leave it too. Returns how many went.
   */
  forget(filter: ForgetFilter): number {
    const where = filtered(filter);
    const clauses = [where.sql];
    const params = [...where.params];
    if (filter.ids) {
      clauses.push(`id IN (${filter.ids.map(() => '?').join(', ') || 'NULL'})`);
      params.push(...filter.ids);
    }
    if (filter.beforeMs !== undefined) {
      clauses.push('at_ms < ?');
      params.push(filter.beforeMs);
    }
    const removed = this.db.prepare(`DELETE FROM records WHERE ${clauses.join(' AND ')}`).run(...params).changes;
    // FTS5 marks deleted tokens and drops them at its next merge: merge now, so the text is gone.
    if (removed > 0) this.db.exec("INSERT INTO records_fts (records_fts) VALUES ('optimize')");
    this.refresh(true);
    // The deleted pages may still sit in the write-ahead log: fold it into the file and empty it.
    this.db.pragma('wal_checkpoint(TRUNCATE)');
    return removed;
  }

  /** How many records the index holds, and how many journal lines were skipped as malformed. */
  status(): { records: number; malformed: number } {
    const records = (this.db.prepare('SELECT count(*) AS n FROM records').get() as { n: number }).n;
    return { records, malformed: getMeta<number>(this.db, 'malformed', 0) };
  }

  close(): void {
    this.db.close();
  }
}

/**
 * The store's index, brought up to date with the journal (the folder made and checked
 * first). Throws MemoryUnavailableError without better-sqlite3, StoreRefusedError for a
 * folder it will not use.
 * @example openMemoryIndex({ dir, projectRoot, retentionDays: 90, maxRecords: 20000, now: Date.now }).count('test', 'session', who)
 */
export function openMemoryIndex(options: MemoryIndexOptions): MemoryIndex {
  ensureStoreFolder(options.dir, options.projectRoot);
  const db = openIndexDb(options.dir);
  try {
    return new MemoryIndex(db, options);
  } catch (e) {
    db.close();
    throw e;
  }
}

function scoped(kind: string, scope: MemoryScope, who: MemoryWho, sinceMs?: number): { sql: string; params: unknown[] } {
  const clauses: string[] = [];
  const params: unknown[] = [];
  if (kind !== '*') {
    clauses.push('kind = ?');
    params.push(kind);
  }
  if (scope === 'session' || scope === 'agent') {
    clauses.push('session IS ?');
    params.push(who.session);
  }
  if (scope === 'agent') {
    clauses.push('agent IS ?');
    params.push(who.agent);
  }
  if (sinceMs !== undefined) {
    clauses.push('at_ms >= ?');
    params.push(sinceMs);
  }
  return { sql: clauses.length > 0 ? clauses.join(' AND ') : '1', params };
}

function filtered(filter: ListFilter): { sql: string; params: unknown[] } {
  const clauses: string[] = [];
  const params: unknown[] = [];
  for (const key of ['kind', 'session', 'agent'] as const) {
    if (filter[key] === undefined) continue;
    clauses.push(`${key} = ?`);
    params.push(filter[key]);
  }
  if (filter.sinceMs !== undefined) {
    clauses.push('at_ms >= ?');
    params.push(filter.sinceMs);
  }
  return { sql: clauses.length > 0 ? clauses.join(' AND ') : '1', params };
}

function toRecord(row: Row): MemoryRecord {
  return {
    id: row.id,
    at: row.at,
    session: row.session,
    agent: row.agent,
    event: row.event,
    rule: row.rule,
    kind: row.kind,
    importance: row.importance,
    text: row.text,
    fields: JSON.parse(row.fields) as Record<string, string>,
  };
}
