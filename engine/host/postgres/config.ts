/**
 * Where the team's PostgreSQL database is: a URL in the hook's environment, never in the
 * policy (a file the agent can read, and a secret if it holds a password), and what each
 * shipped row says about where it came from (project, host, user). Runner side: nothing
 * here loads pg.
 */
import * as path from 'path';

/** The variable that holds the database URL (postgres://user:password@host:5432/db). */
export const DATABASE_URL_VAR = 'HOOKPOLICY_DATABASE_URL';
/** The variable that names the project in the shared database (default: the project folder's name). */
export const PROJECT_VAR = 'HOOKPOLICY_PROJECT';
/** The outbox folder's name, under the first trusted cache folder. */
export const OUTBOX_NAME = 'postgres-outbox';
/** The file in the outbox folder where the shipper leaves what it last saw (ok, or the error). */
export const SHIPPER_STATE_FILE = 'shipper-state.json';

type Env = Readonly<Record<string, string | undefined>>;

/**
 * The database URL from the environment, or null when none is set (PostgreSQL is off).
 * @example databaseUrl({ HOOKPOLICY_DATABASE_URL: 'postgres://db/team' }) // 'postgres://db/team'
 */
export function databaseUrl(env: Env): string | null {
  const url = (env[DATABASE_URL_VAR] ?? '').trim();
  return url === '' ? null : url;
}

/**
 * What is wrong with a database URL, or null when it is a postgres:// or postgresql:// URL
 * with a database name. The message never repeats the URL (it may hold a password).
 * @example urlProblem('mysql://db/x') // 'HOOKPOLICY_DATABASE_URL is not a postgres:// or postgresql:// URL (it starts with "mysql:")'
 */
export function urlProblem(url: string): string | null {
  const parsed = parseUrl(url);
  if (!parsed) return `${DATABASE_URL_VAR} is not a URL (expected postgres://user:password@host:5432/database)`;
  if (parsed.protocol !== 'postgres:' && parsed.protocol !== 'postgresql:') {
    return `${DATABASE_URL_VAR} is not a postgres:// or postgresql:// URL (it starts with "${parsed.protocol}")`;
  }
  if (parsed.pathname.replace(/^\//, '') === '') return `${DATABASE_URL_VAR} names no database (expected postgres://user:password@host:5432/database)`;
  return null;
}

/**
 * The URL with its password replaced by `***`, for messages.
 * @example redactedUrl('postgres://u:secret@h/db') // 'postgres://u:***@h/db'
 */
export function redactedUrl(url: string): string {
  const parsed = parseUrl(url);
  if (!parsed) return '(not a URL)';
  if (parsed.password !== '') parsed.password = '***';
  for (const key of [...parsed.searchParams.keys()]) if (/pass/i.test(key)) parsed.searchParams.set(key, '***');
  const text = parsed.toString();
  return parsed.host === 'localhost' && !/@localhost[:/]/.test(url) && /@\//.test(url) ? text.replace('@localhost/', '@/') : text;
}

/** The URL parsed; `postgres://user@/db?host=/run/postgresql` (a unix socket, no host) too, which WHATWG URLs refuse. */
function parseUrl(url: string): URL | null {
  try {
    return new URL(url);
  } catch {
    if (!/^postgres(ql)?:\/\/[^/?#]*@\//.test(url)) return null;
    try {
      return new URL(url.replace('@/', '@localhost/'));
    } catch {
      return null;
    }
  }
}

/** Where a shipped row came from. */
export interface RowOrigin {
  /** HOOKPOLICY_PROJECT, else the project folder's name. */
  project: string;
  /** The project folder on that machine. */
  project_dir: string;
  host: string;
  user: string;
}

/**
 * The origin of rows shipped from this project on this machine.
 * @example rowOrigin({}, '/home/ann/shop') // { project: 'shop', project_dir: '/home/ann/shop', host: 'ann-laptop', user: 'ann' }
 */
export function rowOrigin(env: Env, projectRoot: string): RowOrigin {
  return { project: projectName(env, projectRoot), project_dir: projectRoot, host: os().hostname(), user: userName(env) };
}

/**
 * The project's name in the shared database.
 * @example projectName({}, '/home/ann/shop/') // 'shop'
 */
export function projectName(env: Env, projectRoot: string): string {
  const named = (env[PROJECT_VAR] ?? '').trim();
  return named !== '' ? named : path.basename(projectRoot.replace(/[\\/]+$/, '')) || projectRoot;
}

function userName(env: Env): string {
  try {
    return os().userInfo().username;
  } catch {
    // No passwd entry for this uid (a container): the environment's word for it.
    return env.USER ?? env.LOGNAME ?? String(process.getuid?.() ?? 'unknown');
  }
}

/** node:os, loaded when first needed: a runner that never takes a lock or ships never loads it. */
function os(): typeof import('os') {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('os') as typeof import('os');
}
