/**
 * Schema migrations: a table of the ones applied, and the missing ones applied in order,
 * all in one transaction under an advisory lock, so two shippers (or a shipper and
 * `policy db migrate`) starting at once never apply one twice: the second waits, then
 * finds nothing left to do. A failing migration rolls everything back.
 */
import type { Client } from 'pg';
import { CREATE_MIGRATIONS_TABLE, MIGRATIONS, MIGRATIONS_TABLE, type Migration } from './schema';

/** The advisory lock's key: 'hkpl' as a number, hookpolicy's own. */
export const MIGRATION_LOCK = 0x686b706c;

export interface MigrationStatus {
  applied: Array<{ id: number; name: string; applied_at: string }>;
  pending: Array<{ id: number; name: string }>;
  /** Applied by a newer hookpolicy: this one does not know them. */
  unknown: number[];
}

/**
 * Applies the migrations the database lacks; returns their ids (empty when up to date).
 * @example await migrate(client) // [1] the first time, [] after
 */
export async function migrate(client: Client, migrations: readonly Migration[] = MIGRATIONS): Promise<number[]> {
  await client.query('BEGIN');
  try {
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await client.query(CREATE_MIGRATIONS_TABLE);
    const done = new Set((await client.query<{ id: number }>(`SELECT id FROM ${MIGRATIONS_TABLE}`)).rows.map((r) => r.id));
    const applied: number[] = [];
    for (const m of [...migrations].sort((a, b) => a.id - b.id)) {
      if (done.has(m.id)) continue;
      await client.query(m.sql);
      await client.query(`INSERT INTO ${MIGRATIONS_TABLE} (id, name) VALUES ($1, $2)`, [m.id, m.name]);
      applied.push(m.id);
    }
    await client.query('COMMIT');
    return applied;
  } catch (e) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw e;
  }
}

/**
 * The schema brought up to date only when a migration is missing: a role that may insert
 * rows but not create tables (the hooks' own, docs/operations.md#postgresql) passes when
 * the owner has migrated. Returns the ids applied.
 * @example await ensureSchema(client) // []
 */
export async function ensureSchema(client: Client): Promise<number[]> {
  const status = await migrationStatus(client);
  return status.pending.length === 0 ? [] : migrate(client);
}

/**
 * Which migrations the database has and which it lacks (nothing is changed).
 * @example (await migrationStatus(client)).pending // [{ id: 1, name: 'decisions and memory records' }]
 */
export async function migrationStatus(client: Client, migrations: readonly Migration[] = MIGRATIONS): Promise<MigrationStatus> {
  const exists = (await client.query<{ t: string | null }>('SELECT to_regclass($1)::text AS t', [MIGRATIONS_TABLE])).rows[0]?.t;
  const rows = exists
    ? (await client.query<{ id: number; name: string; applied_at: Date }>(`SELECT id, name, applied_at FROM ${MIGRATIONS_TABLE} ORDER BY id`)).rows
    : [];
  const known = new Set(migrations.map((m) => m.id));
  const done = new Set(rows.map((r) => r.id));
  return {
    applied: rows.filter((r) => known.has(r.id)).map((r) => ({ id: r.id, name: r.name, applied_at: r.applied_at.toISOString() })),
    pending: migrations.filter((m) => !done.has(m.id)).map((m) => ({ id: m.id, name: m.name })),
    unknown: rows.filter((r) => !known.has(r.id)).map((r) => r.id),
  };
}
