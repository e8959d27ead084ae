/**
 * Prepared statements kept per open database: a connection the policy server keeps
 * between events (index-pool.ts) asks the same few questions at every event, and
 * preparing each again is most of what a small question costs. A one-shot runner
 * prepares each once, as before.
 */
import type { SqliteDatabase, SqliteStatement } from './sqlite';

const prepared = new WeakMap<SqliteDatabase, Map<string, SqliteStatement>>();

/**
 * The statement for `sql` on `db`, prepared at its first use. Not for a statement that is
 * iterated (an iterator holds its statement until it ends).
 * @example statement(db, 'SELECT value FROM meta WHERE key = ?').get('journal')
 */
export function statement(db: SqliteDatabase, sql: string): SqliteStatement {
  let byText = prepared.get(db);
  if (!byText) prepared.set(db, (byText = new Map()));
  let found = byText.get(sql);
  if (!found) byText.set(sql, (found = db.prepare(sql)));
  return found;
}
