/**
 * `policy serve --sessions`: the policy server Claude Code's http hooks reach, started by
 * the first session's SessionStart hook (`policy serve --ensure`) and gone once no session
 * it serves is running. It serves every session registered with it, each with its own
 * project's policy (an http hook's event names only its session), and:
 * - proves it holds this user's token before a hook trusts it (GET /hookpolicy/hello:
 *   an HMAC of the caller's nonce), so a listener someone else put on the port is told
 *   apart from it;
 * - takes registrations and a stop request only with a proof made with the token;
 * - on Linux, answers only connections from this user's processes (or root's), read from
 *   /proc/net/tcp once per connection;
 * - answers 503 for a session nobody registered, which a fail-closed entry
 *   (`onFailure: "block"`) turns into a refusal;
 * - drops sessions whose Claude Code has exited and stops `idleMs` after the last one.
 */
import type * as http from 'http';
import type { Socket } from 'net';
import type { PolicyCompiler } from '../cache';
import { closeServer, hookServer, listen } from '../server';
import { isAlive, socketOwner } from './processes';
import { createProjectAnswerer, type HttpAnswer, type ProjectAnswerer, type RunHook } from './project-answerer';
import { createSessionRegistry, isRegistration, type SessionRegistration, type SessionRegistry } from './registry';
import { proofOf, sameProof } from './state';

export interface SessionServerOptions {
  port: number;
  token: string;
  /** The engine build (ENGINE_VERSION): a hook trusts only a server of its own build. */
  build: string;
  /** Where registrations are kept for a server started again; null: memory only. */
  sessionsDir: string | null;
  compiler: () => PolicyCompiler;
  runHook: RunHook;
  cacheDirs?: string[];
  log?: (line: string) => void;
  /** Stop this long after the last session is gone (default 30 s), or after start when none registers. */
  idleMs?: number;
  /** How often sessions are checked (default 2 s). */
  checkMs?: number;
  /** Whether a session's Claude Code still runs (default: its pid and start time). */
  alive?: (r: SessionRegistration) => boolean;
  /** Answer only this user's connections where /proc tells the owner (default: true). */
  checkPeers?: boolean;
  /** Called once the server has stopped by itself or on request. */
  onStop?: (why: string) => void;
}

export interface SessionServer {
  listen(): Promise<{ port: number }>;
  close(why?: string): Promise<void>;
  registry: SessionRegistry;
}

/** A stop request older than this is refused (it could be a replay). */
const STOP_WINDOW_MS = 60_000;

/**
 * @example const s = createSessionServer({ port: 8707, token, build: ENGINE_VERSION, sessionsDir, compiler, runHook });
 *   await s.listen() // { port: 8707 }
 */
export function createSessionServer(options: SessionServerOptions): SessionServer {
  const log = options.log ?? (() => undefined);
  const registry = createSessionRegistry(options.sessionsDir);
  const answerers = new Map<string, ProjectAnswerer>();
  const alive = options.alive ?? ((r: SessionRegistration) => isAlive(r.pid, r.pidStart));
  const uid = typeof process.getuid === 'function' ? process.getuid() : null;
  let server: http.Server | null = null;
  let timer: NodeJS.Timeout | null = null;
  let emptySince: number | null = Date.now();
  let stopping: Promise<void> | null = null;

  const keyOf = (r: SessionRegistration) => JSON.stringify([r.projectRoot, r.configs, r.onError]);
  const answererFor = (r: SessionRegistration): ProjectAnswerer => {
    const key = keyOf(r);
    let a = answerers.get(key);
    if (!a) {
      a = createProjectAnswerer({ projectRoot: r.projectRoot, configs: r.configs, env: r.env, onError: r.onError, compiler: options.compiler, runHook: options.runHook, cacheDirs: options.cacheDirs, log: (line) => log(`${r.projectRoot}: ${line}`) });
      answerers.set(key, a);
    }
    return a;
  };

  const tick = () => {
    for (const id of registry.prune(alive)) log(`session ${id} ended`);
    const used = new Set(registry.list().map(keyOf));
    for (const [key, a] of answerers) {
      if (used.has(key)) continue;
      a.close();
      answerers.delete(key);
    }
    if (registry.list().length > 0) emptySince = null;
    else if (emptySince === null) emptySince = Date.now();
    else if (Date.now() - emptySince >= (options.idleMs ?? 30_000)) void close('no session left');
  };

  const hello = (req: http.IncomingMessage): HttpAnswer => {
    const nonce = new URL(req.url ?? '/', 'http://x').searchParams.get('nonce') ?? '';
    if (!/^[0-9a-f]{16,128}$/.test(nonce)) return { status: 400, body: JSON.stringify({ error: 'nonce: 16 to 128 hex digits' }) };
    const facts = { pid: process.pid, build: options.build, sessions: registry.list().length };
    return { status: 200, body: JSON.stringify({ ...facts, proof: proofOf(options.token, 'server', `${nonce}\n${facts.build}\n${facts.pid}`) }) };
  };

  const register = (body: string): HttpAnswer => {
    const message = parse(body) as { registration?: unknown; proof?: unknown } | null;
    const r = message?.registration;
    if (!isRegistration(r)) return { status: 400, body: JSON.stringify({ error: 'not a registration' }) };
    if (!sameProof(message?.proof, proofOf(options.token, 'register', JSON.stringify(r)))) return { status: 403, body: JSON.stringify({ error: 'bad proof' }) };
    if (stopping) return { status: 503, body: JSON.stringify({ error: 'the server is stopping' }) };
    const added = registry.add(r);
    if (!added.ok) return { status: 409, body: JSON.stringify({ error: added.reason }) };
    emptySince = null;
    log(`session ${r.session} registered for ${r.projectRoot} (Claude Code pid ${r.pid})`);
    return { status: 200, body: JSON.stringify({ ok: true }) };
  };

  const stop = (body: string): HttpAnswer => {
    const message = parse(body) as { at?: unknown; proof?: unknown } | null;
    const at = Number(message?.at);
    if (!Number.isFinite(at) || Math.abs(Date.now() - at) > STOP_WINDOW_MS || !sameProof(message?.proof, proofOf(options.token, 'stop', String(at)))) {
      return { status: 403, body: JSON.stringify({ error: 'bad proof' }) };
    }
    setImmediate(() => void close('asked to stop'));
    return { status: 200, body: JSON.stringify({ ok: true }) };
  };

  const event = async (body: string): Promise<HttpAnswer> => {
    const parsed = parse(body) as { session_id?: unknown; cwd?: unknown } | null;
    const r = (typeof parsed?.session_id === 'string' ? registry.get(parsed.session_id) : undefined) ?? byFolder(registry, parsed?.cwd);
    if (!r) return { status: 503, body: JSON.stringify({ error: 'no session of this server; a SessionStart hook registers each session (policy serve --ensure)' }) };
    return answererFor(r).answer(body, r.env);
  };

  const admit = async (socket: Socket): Promise<boolean> => {
    if (options.checkPeers === false || uid === null || process.platform !== 'linux') return true;
    const owner = socketOwner({ address: socket.remoteAddress ?? '', port: socket.remotePort ?? 0 }, { address: socket.localAddress ?? '', port: socket.localPort ?? 0 });
    if (owner === uid || owner === 0) return true;
    log(`refused a connection from ${owner === null ? 'an unknown user' : `uid ${owner}`}`);
    return false;
  };

  const close = (why = 'closed'): Promise<void> => {
    stopping ??= (async () => {
      if (timer) clearInterval(timer);
      for (const a of answerers.values()) a.close();
      answerers.clear();
      if (server) await closeServer(server);
      log(`stopped: ${why}`);
      options.onStop?.(why);
    })();
    return stopping;
  };

  return {
    registry,
    async listen() {
      server = hookServer({
        log,
        admit,
        get: (req) => {
          const path = (req.url ?? '/').split('?')[0];
          if (path === '/hookpolicy/hello') return hello(req);
          if (path === '/health' || path === '/') return { status: 200, body: JSON.stringify({ ok: true, mode: 'sessions', pid: process.pid, build: options.build, sessions: registry.list().length }) };
          return null;
        },
        post: async (req, body) => {
          const path = (req.url ?? '/').split('?')[0];
          if (path === '/hookpolicy/session') return register(body);
          if (path === '/hookpolicy/stop') return stop(body);
          return event(body);
        },
      });
      const address = await listen(server, options.port, '127.0.0.1');
      timer = setInterval(tick, options.checkMs ?? 2000);
      return { port: address.port };
    },
    close,
  };
}

/** The registered session whose project holds `cwd` (the longest root), for an event whose session is not registered. */
function byFolder(registry: SessionRegistry, cwd: unknown): SessionRegistration | undefined {
  if (typeof cwd !== 'string') return undefined;
  let best: SessionRegistration | undefined;
  for (const r of registry.list()) {
    const root = r.projectRoot.endsWith('/') ? r.projectRoot : `${r.projectRoot}/`;
    if ((cwd === r.projectRoot || cwd.startsWith(root)) && (!best || r.projectRoot.length > best.projectRoot.length)) best = r;
  }
  return best;
}

function parse(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    return null;
  }
}
