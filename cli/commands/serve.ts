/**
 * `policy serve`: the daemon for Claude Code `type: "http"` hooks (engine/host/server.ts).
 * Runs until SIGINT or SIGTERM. A daemon that is down fails open (Claude Code treats a
 * connection error as a non-blocking error), so this is an option, not the default.
 */
import { CommanderError, type Command } from 'commander';
import { compileGuarded, compilePolicyFiles } from '../../engine/host/compile-entry';
import { toAbsolutePosix } from '../../engine/host/project-root';
import { createPolicyServer } from '../../engine/host/server';
import { runHook } from '../hook';

export interface ServeOptions {
  port: string;
  host: string;
  config: string[];
  projectDir?: string;
  onError?: string;
  quiet?: boolean;
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
    .action((options: ServeOptions) => serve(options));
}

async function serve(options: ServeOptions): Promise<void> {
  const port = Number(options.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) usage(`--port must be a number from 0 to 65535, not ${options.port}`);
  if (options.onError !== undefined && options.onError !== 'open' && options.onError !== 'closed') usage('--on-error must be open or closed');
  const projectRoot = toAbsolutePosix(options.projectDir ?? (process.env.CLAUDE_PROJECT_DIR || '.'), process.cwd());
  const log = options.quiet ? undefined : (line: string) => process.stderr.write(`policy serve: ${line}\n`);
  if (!isLoopback(options.host)) log?.(`warning: listening on ${options.host}, not loopback: anyone who can reach it can query the policy`);
  const server = createPolicyServer({
    projectRoot,
    configs: options.config,
    env: process.env,
    onError: (options.onError as 'open' | 'closed' | undefined) ?? null,
    compiler: () => ({ compilePolicyFiles, compileGuarded }),
    runHook,
    log,
  });
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
