/**
 * A throw-away PostgreSQL cluster for tests: initdb in a temp folder, the server on a free
 * 127.0.0.1 port with its unix socket in that folder too, one database, and everything
 * stopped and removed after. The server binaries are Debian's (`pg_config --bindir`, else
 * /usr/lib/postgresql/<version>/bin). PostgreSQL refuses to run as root: as root, the
 * cluster belongs to the `postgres` user and its commands run through `runuser`.
 *
 * Without the binaries a test file may skip locally; under CI (process.env.CI) it must fail
 * (postgresOrSkip).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import { freePort } from './free-port';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client } from 'pg';

export interface PostgresServer {
  /** postgres://postgres@127.0.0.1:PORT/DATABASE */
  url: string;
  port: number;
  database: string;
  /** The cluster's temp folder (data, socket, log). */
  dir: string;
  /** Stops the server (fast shutdown); the cluster stays. */
  stop(): void;
  /** Starts it again on the same port. */
  start(): void;
  /** Stops it and removes the folder. */
  remove(): void;
  /** How long initdb, the first start and the database took (ms). */
  startupMs: number;
}

/**
 * The folder of initdb, pg_ctl and postgres, or null when they are not installed.
 * @example postgresBinDir() // '/usr/lib/postgresql/15/bin'
 */
export function postgresBinDir(): string | null {
  const has = (dir: string) => ['initdb', 'pg_ctl', 'postgres'].every((b) => fs.existsSync(path.join(dir, b)));
  const configured = spawnSync('pg_config', ['--bindir'], { encoding: 'utf8' });
  if (configured.status === 0 && has(configured.stdout.trim())) return configured.stdout.trim();
  const root = '/usr/lib/postgresql';
  let versions: string[] = [];
  try {
    versions = fs.readdirSync(root).filter((v) => /^\d+$/.test(v)).sort((a, b) => Number(b) - Number(a));
  } catch {
    return null;
  }
  for (const v of versions) if (has(path.join(root, v, 'bin'))) return path.join(root, v, 'bin');
  return null;
}

/**
 * The bin folder, or null with a message when the tests should skip; throws under CI,
 * where .ci/run installs PostgreSQL and a missing server is a broken run, not a skip.
 */
export function postgresOrSkip(): string | null {
  const bin = postgresBinDir();
  if (bin) return bin;
  const message = 'PostgreSQL server binaries not found (pg_config --bindir, /usr/lib/postgresql/*/bin): install Debian\'s postgresql package';
  if (process.env.CI) throw new Error(`${message}; CI must run the PostgreSQL tests`);
  console.warn(`skipping the PostgreSQL tests: ${message}`);
  return null;
}

/**
 * Starts a fresh cluster with one database.
 * @example const pg = await startPostgres(bin); ...; pg.remove()
 */
export async function startPostgres(bin: string, database = 'hookpolicy_test'): Promise<PostgresServer> {
  const started = Date.now();
  const asRoot = process.getuid?.() === 0;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hookpolicy-pg-'));
  const data = path.join(dir, 'data');
  const log = path.join(dir, 'server.log');
  if (asRoot) {
    execFileSync('chown', ['postgres:postgres', dir]);
  }
  const run = (command: string, args: string[]) => {
    const file = path.join(bin, command);
    const [exe, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', file, ...args]] : [file, args];
    const r = spawnSync(exe, argv, { encoding: 'utf8', cwd: dir, timeout: 60_000 });
    if (r.status !== 0) {
      let tail = '';
      try {
        tail = fs.readFileSync(log, 'utf8').split('\n').slice(-15).join('\n');
      } catch {
        // No log yet.
      }
      throw new Error(`${command} ${args.join(' ')} failed (${r.status}): ${r.stderr || r.stdout}\n${tail}`);
    }
  };
  run('initdb', ['-D', data, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--locale=C', '--no-sync']);
  const port = await freePort();
  // fsync off: a test cluster need not survive a power cut; unix socket in the temp folder.
  const serverOptions = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off`;
  const start = () => run('pg_ctl', ['-D', data, '-l', log, '-o', serverOptions, '-w', '-t', '60', 'start']);
  const stop = () => run('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']);
  start();
  const admin = new Client({ connectionString: `postgres://postgres@127.0.0.1:${port}/postgres` });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${database}`);
  } finally {
    await admin.end();
  }
  let removed = false;
  return {
    url: `postgres://postgres@127.0.0.1:${port}/${database}`,
    port,
    database,
    dir,
    startupMs: Date.now() - started,
    stop,
    start,
    remove() {
      if (removed) return;
      removed = true;
      try {
        run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } catch {
        // Already stopped.
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

export { freePort };
