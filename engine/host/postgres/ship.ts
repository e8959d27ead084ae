/**
 * The runner's side of PostgreSQL: each decision record and each memory record becomes one
 * small JSON item in the `postgres-outbox` folder, and the shipper (dist/pg-shipper.cjs)
 * is started when none is alive. The runner never opens a connection and never loads pg:
 * this is a file write per record and a stat. Each item carries a random id, the rows'
 * unique key, so a batch the shipper retries is never inserted twice.
 */
import * as path from 'path';
import { diagnostic } from '../../diagnostics';
import type { Diagnostic } from '../../types';
import type { DecisionRecord } from '../decision-log';
import type { JournalRecord } from '../memory/journal';
import { enqueue, outboxFolder, startDrainer, type StartDrainerOptions } from '../outbox';
import { DATABASE_URL_VAR, OUTBOX_NAME, databaseUrl, rowOrigin, urlProblem, type RowOrigin } from './config';

/** One row to ship: what it is, its unique id, where it came from, and the record itself. */
export type ShipItem =
  | { v: 1; type: 'decision'; id: string; origin: RowOrigin; record: DecisionRecord }
  | { v: 1; type: 'memory'; id: string; origin: RowOrigin; record: JournalRecord };

/** A record to ship, before it gets its id and origin. */
export type ShipRecord = { type: 'decision'; record: DecisionRecord } | { type: 'memory'; record: JournalRecord };

export interface ShipOptions {
  /** The shipper's script (default: pg-shipper.cjs beside the running bundle). */
  script?: string;
  spawn?: StartDrainerOptions['spawn'];
  /** The outbox folder itself (tests); default: `postgres-outbox` in the first trusted cache folder. */
  folder?: string;
}

type Env = Readonly<Record<string, string | undefined>>;

/**
 * Queues the records for the team's database when HOOKPOLICY_DATABASE_URL is set, and
 * starts the shipper. Returns a `postgres-error` warning instead of throwing; nothing
 * when no database is configured.
 * @example shipToPostgres(process.env, '/p', [{ type: 'decision', record }]) // null
 */
export function shipToPostgres(env: Env, projectRoot: string, records: readonly ShipRecord[], options: ShipOptions = {}): Diagnostic | null {
  if (records.length === 0) return null;
  const url = databaseUrl(env);
  if (url === null) return null;
  const problem = urlProblem(url);
  if (problem) return diagnostic('postgres-error', `${problem}; ${records.length} record(s) not shipped`);
  const folder = options.folder ?? outboxFolder(env, OUTBOX_NAME);
  if (folder === null) {
    return diagnostic('postgres-error', `no cache folder only this user can write for the PostgreSQL outbox (set HOOKPOLICY_CACHE_DIR); ${records.length} record(s) not shipped`);
  }
  const origin = rowOrigin(env, projectRoot);
  try {
    for (const r of records) enqueue(folder, JSON.stringify({ v: 1, ...r, id: crypto().randomUUID(), origin }));
  } catch (e) {
    return diagnostic('postgres-error', `cannot queue records for PostgreSQL in ${folder}: ${(e as Error).message}`, { file: folder });
  }
  // The URL reaches the shipper in its environment (inherited), never on its command line.
  const started = startDrainer(folder, options.script ?? path.join(__dirname, 'pg-shipper.cjs'), { spawn: options.spawn, env: { ...env, [DATABASE_URL_VAR]: url } as NodeJS.ProcessEnv });
  return started ? diagnostic('postgres-error', `cannot start the PostgreSQL shipper: ${started.message}`) : null;
}

/** node:crypto, loaded by the first event that needs it (~2 ms a runner that logs nothing never pays). */
function crypto(): typeof import('crypto') {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('crypto') as typeof import('crypto');
}
