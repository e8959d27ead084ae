/**
 * Journal -> index: the lines appended since the last read, each ingested exactly once.
 * One process at a time does it, inside a `BEGIN IMMEDIATE` transaction that re-reads the
 * offset it starts from, so concurrent readers never ingest a line twice; only complete
 * lines are taken. Retention is applied here, and a journal past ROTATE_BYTES is renamed
 * aside once ingested, so it does not grow forever; a renamed journal is read once more
 * for lines a writer that opened it before the rename appended after, and removed after
 * ROTATED_GRACE_MS.
 */
import * as fs from 'fs';
import * as path from 'path';
import { JOURNAL_FILE, readJournal, type JournalRecord } from './journal';
import type { SqliteDatabase } from './sqlite';
import { statement } from './statements';

/** A journal this long (bytes), fully ingested, is renamed aside. */
export const ROTATE_BYTES = 1024 * 1024;
/** How long a renamed journal is kept for late appends before it is removed. */
export const ROTATED_GRACE_MS = 60_000;
/** How often retention runs when nothing new was ingested. */
const RETENTION_EVERY_MS = 3_600_000;

interface JournalState {
  /** The inode of the journal the offset belongs to (0: none yet). */
  ino: number;
  offset: number;
}

interface RotatedJournal {
  file: string;
  ino: number;
  offset: number;
  /** When it was renamed (epoch ms). */
  at: number;
}

export interface IngestOptions {
  dir: string;
  now: number;
  retentionDays: number;
  maxRecords: number;
  /** Rename the journal aside once ingested, whatever its size (forget: the forgotten text leaves the journal too). */
  rotate?: boolean;
}

export interface IngestResult {
  ingested: number;
  malformed: number;
  removed: number;
}

/**
 * Ingests what the journal holds past the stored offset; a no-op without a write
 * transaction when there is nothing new and retention is not due.
 * @example ingestJournal(db, { dir, now: Date.now(), retentionDays: 90, maxRecords: 20000 }) // { ingested: 3, malformed: 0, removed: 0 }
 */
export function ingestJournal(db: SqliteDatabase, options: IngestOptions): IngestResult {
  if (!options.rotate && !pending(db, options)) return { ingested: 0, malformed: 0, removed: 0 };
  db.exec('BEGIN IMMEDIATE');
  try {
    const result = ingestLocked(db, options);
    db.exec('COMMIT');
    return result;
  } catch (e) {
    db.exec('ROLLBACK');
    throw e;
  }
}

/** Whether anything is to be done: read without a lock (a WAL reader waits for nobody). */
function pending(db: SqliteDatabase, options: IngestOptions): boolean {
  const state = getMeta<JournalState>(db, 'journal', { ino: 0, offset: 0 });
  if (getMeta<RotatedJournal[]>(db, 'rotated', []).length > 0) return true;
  if (options.now - getMeta<number>(db, 'retention_at', 0) > RETENTION_EVERY_MS) return true;
  const st = statOrNull(path.join(options.dir, JOURNAL_FILE));
  return st !== null && (st.ino !== state.ino || st.size !== state.offset);
}

function ingestLocked(db: SqliteDatabase, options: IngestOptions): IngestResult {
  const { dir, now } = options;
  const journal = path.join(dir, JOURNAL_FILE);
  let state = getMeta<JournalState>(db, 'journal', { ino: 0, offset: 0 });
  const rotated = getMeta<RotatedJournal[]>(db, 'rotated', []);
  const current = statOrNull(journal);
  if (state.ino !== 0 && current?.ino !== state.ino) {
    // The offset's journal was renamed by a rotation that never committed, or removed:
    // finish it as a renamed journal when it is there; the journal now is read from its start.
    const orphan = renamedJournals(dir).find((f) => statOrNull(path.join(dir, f))?.ino === state.ino && !rotated.some((r) => r.file === f));
    if (orphan) rotated.push({ file: orphan, ino: state.ino, offset: state.offset, at: now });
    state = { ino: 0, offset: 0 };
  }
  const insert = insertStatement(db);
  let ingested = 0;
  let malformed = 0;
  const kept: RotatedJournal[] = [];
  for (const r of rotated) {
    const chunk = readJournal(path.join(dir, r.file), r.offset);
    chunk.records.forEach((rec) => insert(rec));
    ingested += chunk.records.length;
    malformed += chunk.malformed;
    if (now - r.at >= ROTATED_GRACE_MS) fs.rmSync(path.join(dir, r.file), { force: true });
    else kept.push({ ...r, offset: chunk.end });
  }
  const chunk = readJournal(journal, state.offset);
  chunk.records.forEach((rec) => insert(rec));
  ingested += chunk.records.length;
  malformed += chunk.malformed;
  state = { ino: current?.ino ?? 0, offset: chunk.end };
  const removed = ingested > 0 || now - getMeta<number>(db, 'retention_at', 0) > RETENTION_EVERY_MS ? applyRetention(db, options) : 0;
  if (current && state.offset > 0 && (state.offset >= ROTATE_BYTES || options.rotate)) {
    const file = `journal-${now}-${process.pid}.jsonl`;
    fs.renameSync(journal, path.join(dir, file));
    kept.push({ file, ino: state.ino, offset: state.offset, at: now });
    state = { ino: 0, offset: 0 };
  }
  setMeta(db, 'journal', state);
  setMeta(db, 'rotated', kept);
  if (malformed > 0) setMeta(db, 'malformed', getMeta<number>(db, 'malformed', 0) + malformed);
  return { ingested, malformed, removed };
}

/** Deletes records older than retentionDays and all but the newest maxRecords; returns how many went. */
function applyRetention(db: SqliteDatabase, options: IngestOptions): number {
  const cutoff = options.now - options.retentionDays * 86_400_000;
  let removed = statement(db, 'DELETE FROM records WHERE at_ms < ?').run(cutoff).changes;
  removed += keepNewest(db, Math.floor(options.maxRecords));
  setMeta(db, 'retention_at', options.now);
  return removed;
}

/**
 * Deletes all but the newest `max` records. Ids only grow (AUTOINCREMENT), so a store
 * whose first and last ids lie within `max` of each other holds no more than `max`: two
 * lookups at the ends of the table, where walking `max` rows to find the cut read every
 * page of a large store (~3 ms at 20,000 records) at each ingest. Otherwise the records
 * are counted on the smallest index and only the surplus is walked.
 */
function keepNewest(db: SqliteDatabase, max: number): number {
  const { span } = statement(db, 'SELECT (SELECT max(id) FROM records) - (SELECT min(id) FROM records) + 1 AS span').get() as { span: number | null };
  if (span === null || span <= max) return 0;
  const { n } = statement(db, 'SELECT count(*) AS n FROM records').get() as { n: number };
  if (n <= max) return 0;
  return statement(db, 'DELETE FROM records WHERE id IN (SELECT id FROM records ORDER BY id LIMIT ?)').run(n - max).changes;
}

function insertStatement(db: SqliteDatabase): (r: JournalRecord) => void {
  const insert = statement(db, 'INSERT INTO records (at, at_ms, session, agent, event, rule, kind, importance, text, fields) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)');
  return (r) => {
    const ms = Date.parse(r.at);
    insert.run(r.at, Number.isFinite(ms) ? ms : 0, r.session, r.agent, r.event, r.rule, r.kind, r.importance, r.text, JSON.stringify(r.fields));
  };
}

/** Journals renamed aside, by name. */
function renamedJournals(dir: string): string[] {
  try {
    return fs.readdirSync(dir).filter((f) => /^journal-\d+-\d+\.jsonl$/.test(f));
  } catch {
    return [];
  }
}

/**
 * A value of the meta table, or `fallback`.
 * @example getMeta<number>(db, 'malformed', 0) // 2
 */
export function getMeta<T>(db: SqliteDatabase, key: string, fallback: T): T {
  const row = statement(db, 'SELECT value FROM meta WHERE key = ?').get(key) as { value: string } | undefined;
  return row ? (JSON.parse(row.value) as T) : fallback;
}

function setMeta(db: SqliteDatabase, key: string, value: unknown): void {
  statement(db, 'INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value').run(key, JSON.stringify(value));
}

function statOrNull(file: string): fs.Stats | null {
  try {
    return fs.lstatSync(file);
  } catch {
    return null;
  }
}
