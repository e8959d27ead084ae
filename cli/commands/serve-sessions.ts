/**
 * The policy server that `policy init --mode http` registers: `--sessions` runs it,
 * `--ensure` is the SessionStart hook that starts it and registers the session, `--stop`
 * asks it to stop (engine/host/serve/).
 */
import { spawn } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { compileGuarded, compilePolicyFiles, guardsFor } from '../../engine/host/compile-entry';
import { ENGINE_VERSION } from '../../engine/host/engine-version';
import { portHolder, stopServer } from '../../engine/host/serve/client';
import { ensureServer } from '../../engine/host/serve/ensure';
import { createSessionServer } from '../../engine/host/serve/session-server';
import { portDir, serveState, serveToken } from '../../engine/host/serve/state';
import { runHook } from '../hook';

/** Exit code of `--sessions` when the port is taken (the ensuring hook then looks at who took it). */
const PORT_TAKEN = 3;

/** Runs the session server in this process until it stops by itself or on a signal. */
export async function serveSessions(port: number, idleSeconds: number, quiet: boolean): Promise<number> {
  const state = serveState(process.env);
  if (state.dir === null) return complain(state.problem);
  const log = quiet ? undefined : (line: string) => process.stderr.write(`${new Date().toISOString()} policy serve: ${line}\n`);
  let stopped = (): void => undefined;
  const done = new Promise<void>((resolve) => { stopped = resolve; });
  const server = createSessionServer({
    port,
    token: serveToken(state.dir),
    build: ENGINE_VERSION,
    sessionsDir: path.join(portDir(state.dir, port), 'sessions'),
    compiler: () => ({ compilePolicyFiles, compileGuarded, guardsFor }),
    runHook,
    idleMs: idleSeconds * 1000,
    log,
    onStop: () => stopped(),
  });
  const onSignal = () => void server.close('signal');
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    await server.listen();
  } catch (e) {
    process.stderr.write(`policy serve: cannot listen on 127.0.0.1:${port}: ${(e as Error).message}\n`);
    return PORT_TAKEN;
  }
  process.stdout.write(`policy serve: serving Claude Code sessions on http://127.0.0.1:${port}/ (pid ${process.pid})\n`);
  await done;
  process.off('SIGINT', onSignal);
  process.off('SIGTERM', onSignal);
  return 0;
}

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

/** `policy serve --stop`: stops this user's server on the port, if it is one. */
export async function stop(port: number): Promise<number> {
  const state = serveState(process.env);
  if (state.dir === null) return complain(state.problem);
  const token = serveToken(state.dir);
  const holder = await portHolder(port, token);
  if (holder.kind === 'none') {
    process.stdout.write(`policy serve: nothing listens on 127.0.0.1:${port}\n`);
    return 0;
  }
  if (holder.kind !== 'ours') return complain(`127.0.0.1:${port} is not this user's policy server, or does not say so (${holder.why}); not stopped`);
  await stopServer(port, token);
  process.stdout.write(`policy serve: stopped the server on 127.0.0.1:${port} (pid ${holder.pid}, ${holder.sessions} session(s))\n`);
  return 0;
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
    const child = spawn(process.execPath, [binPath, 'serve', '--sessions', '--port', String(port), '--idle', String(idleSeconds)], { detached: true, stdio: ['ignore', fd, fd], cwd: stateDir, env: process.env });
    child.unref();
  } finally {
    fs.closeSync(fd);
  }
}

function readStdin(): string {
  try {
    return fs.readFileSync(0, 'utf8');
  } catch {
    return '';
  }
}

function complain(message: string): number {
  process.stderr.write(`policy serve: ${message}\n`);
  return 2;
}
