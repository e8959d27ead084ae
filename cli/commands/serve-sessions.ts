/**
 * The policy server that `policy init --mode http` registers: `--sessions` runs it,
 * `--stop` asks it to stop (engine/host/serve/). `--ensure`, the hook that starts it, is
 * serve-ensure.ts.
 */
import * as path from 'path';
import { ENGINE_VERSION } from '../../engine/host/engine-version';
import { portHolder, stopServer } from '../../engine/host/serve/client';
import { createSessionServer } from '../../engine/host/serve/session-server';
import { refuseInspector } from '../../engine/host/serve/no-inspector';
import { createSessionWorker } from '../../engine/host/serve/session-worker';
import { portDir, serveState, serveToken } from '../../engine/host/serve/state';

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
    // Each session's events are judged in a worker loaded from the install that registered it.
    answerer: (r, log) => createSessionWorker({
      script: path.join(r.install, 'dist', 'serve-worker.cjs'),
      data: { projectRoot: r.projectRoot, configs: r.configs, onError: r.onError, env: r.env },
      build: ENGINE_VERSION,
      log,
    }),
    idleMs: idleSeconds * 1000,
    log,
    onStop: () => stopped(),
  });
  const onSignal = () => void server.close('signal');
  refuseInspector((line) => process.stderr.write(`${new Date().toISOString()} policy serve: ${line}\n`));
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

function complain(message: string): number {
  process.stderr.write(`policy serve: ${message}\n`);
  return 2;
}
