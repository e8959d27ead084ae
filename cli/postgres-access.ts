/**
 * What `policy db` and `policy memory search` share for the team database: the URL from
 * the environment (or a usage error naming the variable), and the database code loaded
 * lazily (dist/postgres.cjs, with pg), so no other command pays for it.
 */
import { DATABASE_URL_VAR, databaseUrl, urlProblem } from '../engine/host/postgres/config';
import type * as PostgresCommands from '../engine/host/postgres/commands';
import { fail } from './memory-access';

export type PostgresApi = typeof PostgresCommands;

/**
 * The database code (pg included), loaded at its first use.
 * @example await postgresApi().migrateDatabase(url)
 */
export function postgresApi(): PostgresApi {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('../engine/host/postgres/commands') as PostgresApi;
}

/**
 * The database URL from HOOKPOLICY_DATABASE_URL; a usage error (exit 2) when it is missing
 * or not a postgres:// URL, naming the variable and never printing the URL.
 */
export function requiredDatabaseUrl(command: string): string {
  const url = databaseUrl(process.env);
  if (url === null) return fail(command, `no database: set ${DATABASE_URL_VAR} to a postgres:// URL (docs/operations.md#postgresql)`);
  const problem = urlProblem(url);
  if (problem) return fail(command, problem);
  return url;
}

/** A PostgresError (cannot connect, refused) as the command's failure, exit 2; anything else is rethrown. */
export function failOnDatabaseError(command: string, e: unknown): never {
  if ((e as Error)?.name === 'PostgresError') return fail(command, (e as Error).message);
  const code = (e as { code?: unknown })?.code;
  if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return fail(command, `the database refused: ${(e as Error).message} (SQLSTATE ${code})`);
  throw e;
}
