/**
 * A connection to the team database, with messages a person can act on: what failed,
 * where (the URL with its password hidden), and never the password itself.
 */
import { Client } from 'pg';
import { redactedUrl, urlProblem } from './config';

export interface ConnectOptions {
  /** Give up connecting after this long (default 5 s). */
  connectTimeoutMs?: number;
  /** A query waits at most this long (default 30 s). */
  queryTimeoutMs?: number;
}

/** The database cannot be reached or refused us; `message` is safe to print. */
export class PostgresError extends Error {
  constructor(message: string, readonly sqlState?: string) {
    super(message);
    this.name = 'PostgresError';
  }
}

/**
 * Connects to `url`. Throws PostgresError (bad URL, refused, unknown database, wrong password).
 * @example const client = await connectPostgres(process.env.HOOKPOLICY_DATABASE_URL!)
 */
export async function connectPostgres(url: string, options: ConnectOptions = {}): Promise<Client> {
  const problem = urlProblem(url);
  if (problem) throw new PostgresError(problem);
  const client = new Client({
    connectionString: url,
    application_name: 'hookpolicy',
    connectionTimeoutMillis: options.connectTimeoutMs ?? 5000,
    query_timeout: options.queryTimeoutMs ?? 30_000,
  });
  // A server that goes away while the client is idle emits 'error'; unheard, it would end the process.
  client.on('error', () => undefined);
  try {
    await client.connect();
  } catch (e) {
    await client.end().catch(() => undefined);
    throw new PostgresError(`cannot connect to PostgreSQL at ${redactedUrl(url)}: ${describeError(e)}`, sqlStateOf(e));
  }
  return client;
}

/**
 * An error from pg as one line: its message, and its SQLSTATE or system code.
 * @example describeError(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' })) // 'connect ECONNREFUSED 127.0.0.1:1'
 */
export function describeError(e: unknown): string {
  const err = e as { message?: unknown; code?: unknown; errors?: unknown };
  let message = typeof err?.message === 'string' && err.message !== '' ? err.message : String(e);
  // Node reports a host with several addresses (localhost: ::1 and 127.0.0.1) as an AggregateError without a message.
  if (message === '' || message === 'AggregateError') message = Array.isArray(err.errors) ? err.errors.map((x) => (x as Error).message).join('; ') : String(err.code ?? e);
  const code = typeof err?.code === 'string' && !message.includes(err.code) ? ` (${err.code})` : '';
  return `${message}${code}`;
}

/** The SQLSTATE of a server error (five characters), if it is one. */
export function sqlStateOf(e: unknown): string | undefined {
  const code = (e as { code?: unknown })?.code;
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) ? code : undefined;
}
