/**
 * Record embeddings in the store's index (index.db), beside the records they belong to:
 * one unit-length vector per record and model, as float32. A trigger deletes a record's
 * vector with the record, so retention and `policy memory forget` take it too (and
 * secure_delete overwrites it). Made by the memory process; readers only read, and a store
 * where nothing was ever embedded has no such table.
 */
import type { SqliteDatabase } from '../memory/sqlite';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS record_vectors (record_id INTEGER PRIMARY KEY, model TEXT NOT NULL, vector BLOB NOT NULL);
CREATE TRIGGER IF NOT EXISTS record_vectors_ad AFTER DELETE ON records BEGIN
  DELETE FROM record_vectors WHERE record_id = old.id;
END;
CREATE TABLE IF NOT EXISTS record_vectors_state (key TEXT PRIMARY KEY, value TEXT NOT NULL);
`;

/** Kinds never embedded: the memory process's own failures. */
export const NOT_EMBEDDED = ['summary-error', 'embedding-error'];

/**
 * Makes the vectors' table and trigger when missing.
 * @example ensureVectorTable(db)
 */
export function ensureVectorTable(db: SqliteDatabase): void {
  db.exec(SCHEMA);
}

/** True when the store has the table (something was embedded once). */
export function hasVectorTable(db: SqliteDatabase): boolean {
  return db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'record_vectors'").get() !== undefined;
}

/**
 * The newest records that have no vector of `model` yet, at most `limit`.
 * @example unembedded(db, 'nomic-embed-text', 32) // [{ id: 12, text: 'Write src/a.ts' }]
 */
export function unembedded(db: SqliteDatabase, model: string, limit: number): Array<{ id: number; text: string }> {
  return db.prepare(`SELECT id, text FROM records r WHERE kind NOT IN (${NOT_EMBEDDED.map(() => '?').join(', ')})
    AND NOT EXISTS (SELECT 1 FROM record_vectors v WHERE v.record_id = r.id AND v.model = ?) ORDER BY id DESC LIMIT ?`)
    .all(...NOT_EMBEDDED, model, limit) as Array<{ id: number; text: string }>;
}

/** How many records (other than the process's own failures) have no vector of `model`. */
export function unembeddedCount(db: SqliteDatabase, model: string): number {
  if (!hasVectorTable(db)) return (db.prepare(`SELECT count(*) AS n FROM records WHERE kind NOT IN (${NOT_EMBEDDED.map(() => '?').join(', ')})`).get(...NOT_EMBEDDED) as { n: number }).n;
  return (db.prepare(`SELECT count(*) AS n FROM records r WHERE kind NOT IN (${NOT_EMBEDDED.map(() => '?').join(', ')})
    AND NOT EXISTS (SELECT 1 FROM record_vectors v WHERE v.record_id = r.id AND v.model = ?)`).get(...NOT_EMBEDDED, model) as { n: number }).n;
}

/**
 * Stores each record's vector (made unit-length) for `model`, in one transaction; a
 * record deleted meanwhile is skipped.
 * @example saveVectors(db, 'm', [{ id: 12, vector: [0.1, 0.3] }])
 */
export function saveVectors(db: SqliteDatabase, model: string, vectors: ReadonlyArray<{ id: number; vector: readonly number[] }>): void {
  const insert = db.prepare('INSERT OR REPLACE INTO record_vectors (record_id, model, vector) SELECT id, ?, ? FROM records WHERE id = ?');
  db.exec('BEGIN IMMEDIATE');
  try {
    for (const v of vectors) insert.run(model, encodeVector(unit(v.vector)), v.id);
    db.exec('COMMIT');
  } catch (e) {
    db.exec('ROLLBACK');
    throw e;
  }
}

/**
 * The vectors of `model` of the newest `limit` embedded records.
 * @example loadVectors(db, 'm', 2000)[0] // { id: 12, vector: Float32Array [...] }
 */
export function loadVectors(db: SqliteDatabase, model: string, limit: number): Array<{ id: number; vector: Float32Array }> {
  if (!hasVectorTable(db)) return [];
  const rows = db.prepare('SELECT record_id AS id, vector FROM record_vectors WHERE model = ? ORDER BY record_id DESC LIMIT ?').all(model, limit) as Array<{ id: number; vector: Buffer }>;
  return rows.map((r) => ({ id: r.id, vector: decodeVector(r.vector) }));
}

/**
 * A value of the vectors' state table (when the memory process was last started, ...), or null.
 * @example stateValue(db, 'started_at') // '1768471200000'
 */
export function stateValue(db: SqliteDatabase, key: string): string | null {
  if (!hasVectorTable(db)) return null;
  const row = db.prepare('SELECT value FROM record_vectors_state WHERE key = ?').get(key) as { value: string } | undefined;
  return row?.value ?? null;
}

/** Sets a value of the vectors' state table (made when missing). */
export function setStateValue(db: SqliteDatabase, key: string, value: string): void {
  ensureVectorTable(db);
  db.prepare('INSERT OR REPLACE INTO record_vectors_state (key, value) VALUES (?, ?)').run(key, value);
}

/**
 * The vector scaled to length 1 (all zeros stays zeros), so that a dot product is the cosine.
 * @example unit([3, 4]) // [0.6, 0.8]
 */
export function unit(vector: readonly number[]): number[] {
  let sum = 0;
  for (const x of vector) sum += x * x;
  const norm = Math.sqrt(sum);
  return norm > 0 ? vector.map((x) => x / norm) : [...vector];
}

/**
 * The dot product of two vectors of one length (of unit vectors: their cosine); null when the lengths differ.
 * @example dot(new Float32Array([0.6, 0.8]), [1, 0]) // 0.6
 */
export function dot(a: ArrayLike<number>, b: ArrayLike<number>): number | null {
  if (a.length !== b.length) return null;
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += a[i] * b[i];
  return sum;
}

function encodeVector(vector: readonly number[]): Buffer {
  return Buffer.from(new Float32Array(vector).buffer);
}

function decodeVector(blob: Buffer): Float32Array {
  // Copied: a Float32Array needs an offset that is a multiple of 4, which a Buffer need not have.
  const copy = new Uint8Array(blob.byteLength);
  copy.set(blob);
  return new Float32Array(copy.buffer);
}
