/**
 * `policy serve`: the daemon for Claude Code `type: "http"` hooks (engine/host/server.ts).
 * With --project-dir (or nothing) it serves one project until SIGINT or SIGTERM. With
 * --sessions it is the server `policy init --mode http` registers, started by the
 * SessionStart hook `--ensure` and gone once its sessions end (serve-sessions.ts, serve-ensure.ts).
 */
import * as path from 'path';
import { CommanderError, type Command } from 'commander';
import { ENGINE_VERSION } from '../../engine/host/engine-version';
import { toAbsolutePosix } from '../../engine/host/project-root';
import { refuseInspector } from '../../engine/host/serve/no-inspector';
import { createSessionWorker } from '../../engine/host/serve/session-worker';
import { createPolicyServer } from '../../engine/host/server';
import { DEFAULT_IDLE_SECONDS, ensure } from './serve-ensure';
import { serveSessions, stop } from './serve-sessions';
import { idleSeconds, onErrorMode, portNumber } from '../serve-values';

export interface ServeOptions {
  port: string;
  host: string;
  config: string[];
  projectDir?: string;
  onError?: string;
  quiet?: boolean;
  sessions?: boolean;
  ensure?: boolean;
  stop?: boolean;
  idle: string;
}

/** The port `policy serve` and `policy init --mode http` use unless told otherwise. */
export const DEFAULT_PORT = 8707;

/** Registers `policy serve [--port N] [--host H] [--config F]... [--project-dir D] [--on-error M]`. */
export function register(program: Command): void {
  program
    .command('serve')
    .description('answer Claude Code http hooks from a daemon on loopback (fails open when it is down; see docs/performance.md)')
    .option('--port <port>', 'port to listen on (0: any free port)', String(DEFAULT_PORT))
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('-c, --config <file>', 'policy file, relative to the project root (repeatable; default: as `policy hook` finds it)', collect, [])
    .option('--project-dir <dir>', 'the project served (default: $CLAUDE_PROJECT_DIR, else the current folder)')
    .option('--on-error <mode>', 'open or closed; default: the policy\'s on_error')
    .option('--quiet', 'do not log rebuilds and warnings to stderr')
    .option('--sessions', 'serve the Claude Code sessions that register (the server policy init --mode http uses); stops when they have ended')
    .option('--ensure', 'SessionStart hook: start this user\'s session server on --port unless it runs, and register the session read from stdin')
    .option('--stop', 'stop this user\'s session server on --port')
    .option('--idle <seconds>', '--sessions (and the server --ensure starts): stop this long after the last session ended', String(DEFAULT_IDLE_SECONDS))
    .action((options: ServeOptions) => serve(options));
}

async function serve(options: ServeOptions): Promise<void> {
  const port = portNumber(options.port);
  if (port === null) usage(`--port must be a number from 0 to 65535, not ${options.port}`);
  const onError = options.onError === undefined ? null : onErrorMode(options.onError);
  if (options.onError !== undefined && onError === null) usage('--on-error must be open or closed');
  const modes = [options.sessions, options.ensure, options.stop].filter(Boolean).length;
  if (modes > 1) usage('--sessions, --ensure and --stop are three different things; give one');
  if (modes === 1 && port === 0) usage('--sessions, --ensure and --stop need the port the http entries name (--port N)');
  const idle = idleSeconds(options.idle);
  if (idle === null) usage(`--idle must be a number of seconds, not ${options.idle}`);
  if (options.sessions) return exit(await serveSessions(port, idle, options.quiet === true));
  if (options.ensure) return exit(await ensure(port, options.config, onError, path.resolve(process.argv[1] ?? 'policy'), idle));
  if (options.stop) return exit(await stop(port));
  const projectRoot = toAbsolutePosix(options.projectDir ?? (process.env.CLAUDE_PROJECT_DIR || '.'), process.cwd());
  const log = options.quiet ? undefined : (line: string) => process.stderr.write(`policy serve: ${line}\n`);
  if (!isLoopback(options.host)) log?.(`warning: listening on ${options.host}, not loopback: anyone who can reach it can query the policy`);
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (typeof v === 'string') env[k] = v;
  // The project's events are judged in a worker of this install under a hard deadline, as the session server's are.
  const answerer = createSessionWorker({
    script: path.join(__dirname, 'serve-worker.cjs'),
    data: { projectRoot, configs: options.config, onError, env },
    build: ENGINE_VERSION,
    log: log ?? (() => undefined),
  });
  const server = createPolicyServer({ projectRoot, answerer, log });
  refuseInspector((line) => process.stderr.write(`policy serve: ${line}\n`));
  let address;
  try {
    address = await server.listen(port, options.host);
  } catch (e) {
    usage(`cannot listen on ${options.host}:${port}: ${(e as Error).message}`);
  }
  process.stdout.write(`policy serve: listening on ${address.url} for ${projectRoot}\n`);
  await new Promise<void>((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      void server.close().then(resolve);
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}

function exit(code: number): void {
  if (code !== 0) throw new CommanderError(code, 'policy.exit', '');
}

function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\./.test(host);
}

function usage(message: string): never {
  process.stderr.write(`policy serve: ${message}\n`);
  throw new CommanderError(2, 'policy.exit', '');
}

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}
