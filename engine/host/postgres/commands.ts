/**
 * What `policy db` and `policy memory search` ask of the team database: one connection per
 * command, closed after. A chunk of its own (dist/postgres.cjs, with pg): the CLI loads it
 * only when a command needs the database.
 */
import * as fs from 'fs';
import * as path from 'path';
import { REJECTED_FOLDER, outboxFolder } from '../outbox';
import { OUTBOX_NAME, SHIPPER_STATE_FILE } from './config';
import { connectPostgres } from './connect';
import type { ShipperState } from './deliver';
import { migrate, migrationStatus, type MigrationStatus } from './migrate';
import { searchTeamMemory, type TeamSearchOptions, type TeamSearchResult } from './search';

export { PostgresError } from './connect';
export type { MigrationStatus } from './migrate';
export type { TeamSearchResult } from './search';

/**
 * Applies the missing migrations; returns the ids applied and the status after.
 * @example await migrateDatabase(url) // { applied: [1], status: { applied: [...], pending: [], unknown: [] } }
 */
export async function migrateDatabase(url: string): Promise<{ applied: number[]; status: MigrationStatus }> {
  const client = await connectPostgres(url);
  try {
    const applied = await migrate(client);
    return { applied, status: await migrationStatus(client) };
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** The schema's migrations, applied and pending. */
export async function databaseStatus(url: string): Promise<MigrationStatus> {
  const client = await connectPostgres(url);
  try {
    return await migrationStatus(client);
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** This machine's outbox: records waiting, records set aside, and what the shipper last saw. */
export interface OutboxStatus {
  folder: string | null;
  waiting: number;
  rejected: number;
  shipper: ShipperState | null;
}

/**
 * The outbox of this machine's runners (the cache folder they would use).
 * @example outboxStatus(process.env) // { folder: '/home/me/.cache/hookpolicy/postgres-outbox', waiting: 0, rejected: 0, shipper: { ok: true, ... } }
 */
export function outboxStatus(env: Readonly<Record<string, string | undefined>>): OutboxStatus {
  const folder = outboxFolder(env, OUTBOX_NAME);
  if (folder === null) return { folder, waiting: 0, rejected: 0, shipper: null };
  const count = (dir: string) => {
    try {
      return fs.readdirSync(dir).filter((n) => /\.rec(\.\d+\.sending)?$/.test(n)).length;
    } catch {
      return 0;
    }
  };
  let shipper: ShipperState | null = null;
  try {
    shipper = JSON.parse(fs.readFileSync(path.join(folder, SHIPPER_STATE_FILE), 'utf8')) as ShipperState;
  } catch {
    // No shipper has run here yet.
  }
  return { folder, waiting: count(folder), rejected: count(path.join(folder, REJECTED_FOLDER)), shipper };
}

/**
 * Full-text search of the team's memory records.
 * @example await searchDatabase(url, 'jwt', { project: 'shop', limit: 10 })
 */
export async function searchDatabase(url: string, query: string, options: TeamSearchOptions): Promise<TeamSearchResult[]> {
  const client = await connectPostgres(url);
  try {
    return await searchTeamMemory(client, query, options);
  } finally {
    await client.end().catch(() => undefined);
  }
}
