/**
 * `policy serve --ensure`, the SessionStart and UserPromptSubmit hook of the http install:
 * starts this user's policy server unless it runs, and registers the session. It runs at
 * every prompt, so it is also a bundle of its own (dist/ensure.cjs, cli/ensure-main.ts)
 * that bin/policy.cjs loads instead of the whole CLI.
 */
import { spawn } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { ENGINE_VERSION } from '../../engine/host/engine-version';
import { ensureServer } from '../../engine/host/serve/ensure';
import { portDir } from '../../engine/host/serve/state';

/** How long the server `--ensure` starts stays up after its last session ended (`--idle`). */
export const DEFAULT_IDLE_SECONDS = 30;

/**
 * The SessionStart and UserPromptSubmit hook: on success nothing is printed. When
 * something that is not this user's server listens on the port, it ends the session
 * (SIGTERM to Claude Code) whatever `on_error` says: that listener would answer in the
 * policy's place, and `on_error: open` is about a policy that cannot decide, not about an
 * impostor. When no server can be started, a fail-closed policy refuses the event; a
 * fail-open one says so on screen. Either way the http entries (`onFailure: "block"`)
 * refuse the calls they guard until a server answers.
 */
export async function ensure(port: number, configs: string[], onError: 'open' | 'closed' | null, binPath: string, idleSeconds: number): Promise<number> {
  const stdin = readStdin();
  const outcome = await ensureServer({
    port,
    stdin,
    env: process.env,
    cwd: process.cwd(),
    configs,
    onError,
    build: ENGINE_VERSION,
    install: installOf(binPath),
    node: process.execPath,
    start: (stateDir) => startServer(stateDir, port, binPath, idleSeconds),
  });
  if (outcome.ok) return 0;
  const where = `the policy server on 127.0.0.1:${port} cannot be used: ${outcome.reason}`;
  if (outcome.foreign && outcome.claudePid !== null) {
    process.stderr.write(`hookpolicy: ${where}. This session is stopped: that listener would answer in the policy's place.\n`);
    try {
      process.kill(outcome.claudePid, 'SIGTERM');
    } catch {
      // Already gone.
    }
    return 2;
  }
  const refused = 'every call its http hooks guard is refused until the server runs (send another prompt, resume the session, or start a new one)';
  if (onError !== 'closed') {
    process.stdout.write(`${JSON.stringify({ systemMessage: `hookpolicy: ${where}. ${refused[0].toUpperCase()}${refused.slice(1)}.` })}\n`);
    return 0;
  }
  process.stderr.write(`hookpolicy: ${where}. The policy fails closed: ${refused}.\n`);
  return 2;
}

/** Starts `policy serve --sessions` detached from the hook, its output appended to port-<N>/server.log. */
function startServer(stateDir: string, port: number, binPath: string, idleSeconds: number): void {
  const dir = portDir(stateDir, port);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const logFile = path.join(dir, 'server.log');
  try {
    if (fs.statSync(logFile).size > 1024 * 1024) fs.truncateSync(logFile, 0);
  } catch {
    // No log yet.
  }
  const fd = fs.openSync(logFile, fs.constants.O_WRONLY | fs.constants.O_APPEND | fs.constants.O_CREAT | (fs.constants.O_NOFOLLOW ?? 0), 0o600);
  try {
    // Without NODE_OPTIONS: what it names (--require, --import) would be loaded into the server, which the hooks then refuse to trust.
    const { NODE_OPTIONS: _options, ...env } = process.env;
    const child = spawn(process.execPath, [binPath, 'serve', '--sessions', '--port', String(port), '--idle', String(idleSeconds)], { detached: true, stdio: ['ignore', fd, fd], cwd: stateDir, env });
    child.unref();
  } finally {
    fs.closeSync(fd);
  }
}

/** The hookpolicy package folder of the bin that runs (bin/policy.cjs's parent), as a real path. */
function installOf(binPath: string): string {
  const folder = path.dirname(path.dirname(binPath));
  try {
    return fs.realpathSync(folder);
  } catch {
    return path.resolve(folder);
  }
}

function readStdin(): string {
  try {
    return fs.readFileSync(0, 'utf8');
  } catch {
    return '';
  }
}
