/**
 * The index's SQLite file: `<dir>/index.db`, in WAL mode (readers never wait for the one
 * writer; commits without fsync, see synchronous below), with a busy timeout (concurrent hook processes take turns), secure_delete (a
 * forgotten record's text is overwritten, not left in free pages) and the schema: the
 * records, an FTS5 table over their text kept in step by triggers, and a key/value table
 * for the ingest state.
 */
import * as fs from 'fs';
import * as path from 'path';
import { loadSqlite, openDatabase, type SqliteDatabase } from './sqlite';

export const INDEX_FILE = 'index.db';
const SCHEMA_VERSION = 1;
/** How long a process waits for another one's write transaction before failing. */
const BUSY_TIMEOUT_MS = 5000;

const SCHEMA = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS records (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  at TEXT NOT NULL,
  at_ms INTEGER NOT NULL,
  session TEXT,
  agent TEXT,
  event TEXT NOT NULL,
  rule TEXT NOT NULL,
  kind TEXT NOT NULL,
  importance REAL NOT NULL,
  text TEXT NOT NULL,
  fields TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS records_kind ON records (kind, session, agent);
CREATE INDEX IF NOT EXISTS records_session ON records (session);
CREATE INDEX IF NOT EXISTS records_at ON records (at_ms);
CREATE VIRTUAL TABLE IF NOT EXISTS records_fts USING fts5 (text, content='records', content_rowid='id', tokenize='unicode61 remove_diacritics 2');
CREATE TRIGGER IF NOT EXISTS records_ai AFTER INSERT ON records BEGIN
  INSERT INTO records_fts (rowid, text) VALUES (new.id, new.text);
END;
CREATE TRIGGER IF NOT EXISTS records_ad AFTER DELETE ON records BEGIN
  INSERT INTO records_fts (records_fts, rowid, text) VALUES ('delete', old.id, old.text);
END;
`;

/**
 * Opens (creating when missing) the index in a checked store folder. Throws
 * MemoryUnavailableError when better-sqlite3 cannot be loaded, an Error when index.db is
 * not a regular file.
 * @example const db = openIndexDb('/p/.claude/hookpolicy/memory')
 */
export function openIndexDb(dir: string): SqliteDatabase {
  // Loaded first: without better-sqlite3 nothing is looked at.
  loadSqlite();
  const file = path.join(dir, INDEX_FILE);
  try {
    const st = fs.lstatSync(file);
    // SQLite follows a symlink: one planted here would put the index wherever it leads.
    if (!st.isFile()) throw new Error(`${file} is not a regular file; the memory store does not use it`);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
  const db = openDatabase(file, BUSY_TIMEOUT_MS);
  try {
    db.pragma('secure_delete = ON');
    // In WAL mode: durable when a process dies, fsync only at checkpoints, not at every commit.
    db.pragma('synchronous = NORMAL');
    if (db.pragma('user_version', { simple: true }) !== SCHEMA_VERSION) createSchema(db);
    return db;
  } catch (e) {
    db.close();
    throw e;
  }
}

/** The schema and WAL mode, made once by whichever process comes first. */
function createSchema(db: SqliteDatabase): void {
  db.pragma('journal_mode = WAL');
  db.exec('BEGIN IMMEDIATE');
  try {
    db.exec(SCHEMA);
    db.pragma(`user_version = ${SCHEMA_VERSION}`);
    db.exec('COMMIT');
  } catch (e) {
    db.exec('ROLLBACK');
    throw e;
  }
}
