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
 *   /proc/net/tcp once per connection, and takes an event only from the Claude Code
 *   process of the session it names (the process holding the connection's socket,
 *   peers.ts): what any other process posts (the confined agent's `curl`) is refused and
 *   never recorded;
 * - keeps connections it cannot tie to a session's Claude Code few and short-lived, so a
 *   flood of half-sent requests cannot take the sockets Claude Code needs;
 * - judges each session's events in a worker of its own, loaded from the session's own
 *   install, under a hard deadline (session-worker.ts): its own thread never evaluates,
 *   waits on a lock or reads a store;
 * - answers 503 for a session nobody registered, which a fail-closed entry
 *   (`onFailure: "block"`) turns into a refusal;
 * - drops sessions whose Claude Code has exited and stops `idleMs` after the last one.
 */
import type * as http from 'http';
import type { Socket } from 'net';
import { closeServer, hookServer, listen } from '../server';
import { createPeerCheck, type PeerCheck } from './peers';
import { isAlive } from './processes';
import type { HttpAnswer, ProjectAnswerer } from './project-answerer';
import { createSessionRegistry, isRegistration, type SessionRegistration, type SessionRegistry } from './registry';
import { proofOf, sameProof } from './state';

export interface SessionServerOptions {
  port: number;
  token: string;
  /** The engine build (ENGINE_VERSION): a hook trusts only a server of its own build. */
  build: string;
  /** Where registrations are kept for a server started again; null: memory only. */
  sessionsDir: string | null;
  /** What answers a session's events (the server: a worker from the session's install, session-worker.ts). */
  answerer: (registration: SessionRegistration, log: (line: string) => void) => ProjectAnswerer;
  log?: (line: string) => void;
  /** Stop this long after the last session is gone (default 30 s), or after start when none registers. */
  idleMs?: number;
  /** How often sessions are checked (default 2 s). */
  checkMs?: number;
  /** Whether a session's Claude Code still runs (default: its pid and start time). */
  alive?: (r: SessionRegistration) => boolean;
  /**
   * Who is at the other end of a connection (default: /proc on Linux); null: nobody can
   * tell, every connection of the port is taken (the platforms without /proc, and tests).
   */
  peers?: PeerCheck | null;
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

/** Connections not (yet) tied to a session's Claude Code: at most this many at once, the oldest dropped. */
const MAX_UNTIED = 64;

/** How long such a connection may stay silent. */
const UNTIED_IDLE_MS = 10_000;

/** What the server knows of a connection: its client socket's inode and, once found, the Claude Code holding it. */
interface Peer {
  inode: string;
  holder: number | null;
}

/**
 * @example const s = createSessionServer({ port: 8707, token, build: ENGINE_VERSION, sessionsDir, answerer });
 *   await s.listen() // { port: 8707 }
 */
export function createSessionServer(options: SessionServerOptions): SessionServer {
  const log = options.log ?? (() => undefined);
  const registry = createSessionRegistry(options.sessionsDir);
  const answerers = new Map<string, ProjectAnswerer>();
  const alive = options.alive ?? ((r: SessionRegistration) => isAlive(r.pid, r.pidStart));
  const uid = typeof process.getuid === 'function' ? process.getuid() : null;
  const peers = options.peers === undefined ? (process.platform === 'linux' && uid !== null ? createPeerCheck() : null) : options.peers;
  const peerOf = new WeakMap<Socket, Peer>();
  const untied = new Set<Socket>();
  let server: http.Server | null = null;
  let timer: NodeJS.Timeout | null = null;
  let emptySince: number | null = Date.now();
  let stopping: Promise<void> | null = null;

  // One answerer (a worker) per session: a session whose event runs long delays no other.
  const answererFor = (r: SessionRegistration): ProjectAnswerer => {
    let a = answerers.get(r.session);
    if (!a) {
      a = options.answerer(r, (line) => log(`${r.projectRoot} (session ${r.session}): ${line}`));
      answerers.set(r.session, a);
    }
    return a;
  };

  const tick = () => {
    for (const id of registry.prune(alive)) {
      log(`session ${id} ended`);
      answerers.get(id)?.close();
      answerers.delete(id);
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
    const held = registry.get(r.session);
    const added = registry.add(r, alive);
    if (!added.ok) return { status: 409, body: JSON.stringify({ error: added.reason }) };
    // Registered again by another Claude Code (a session resumed in a new process): a new worker.
    if (held && held.pid !== r.pid) {
      answerers.get(r.session)?.close();
      answerers.delete(r.session);
    }
    emptySince = null;
    if (!held) log(`session ${r.session} registered for ${r.projectRoot} (Claude Code pid ${r.pid}, install ${r.install})`);
    if (added.envKept) log(`session ${r.session} registered again with another environment: it keeps the one it started with`);
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

  /**
   * The Claude Code (a registered pid) that holds the connection's client socket, or null;
   * `fresh`: read the processes' sockets again rather than miss one just opened.
   */
  const holderOf = (socket: Socket, fresh: boolean): number | null => {
    const peer = peerOf.get(socket);
    if (!peer || !peers) return null;
    if (peer.holder === null) {
      peer.holder = peers.holder(peer.inode, registry.list().map((r) => r.pid), fresh);
      if (peer.holder !== null) tie(socket);
    }
    return peer.holder;
  };

  const event = async (req: http.IncomingMessage, body: string): Promise<HttpAnswer> => {
    const parsed = parse(body) as { session_id?: unknown } | null;
    const named = typeof parsed?.session_id === 'string' ? registry.get(parsed.session_id) : undefined;
    if (peers === null) {
      if (!named) return unknownSession();
      return answererFor(named).answer(body, named.env);
    }
    const holder = holderOf(req.socket, true);
    if (holder === null) return refuse(req, 'events are taken only from the Claude Code process of a registered session');
    // A session this Claude Code did not register (none is expected): the first it registered answers.
    const r = named ?? registry.list().filter((x) => x.pid === holder)[0];
    if (!r) return unknownSession();
    if (r.pid !== holder) return refuse(req, `session ${r.session} belongs to another Claude Code process`);
    return answererFor(r).answer(body, r.env);
  };

  /** A connection tied to a session's Claude Code: no limit of its own. */
  const tie = (socket: Socket) => {
    if (!untied.delete(socket)) return;
    socket.setTimeout(0);
  };

  const admit = async (socket: Socket): Promise<boolean> => {
    if (peers === null) return true;
    const peer = peers.identify(socket);
    if (peer === null || (peer.uid !== uid && peer.uid !== 0)) {
      log(`refused a connection from ${peer === null ? 'an unknown user' : `uid ${peer.uid}`}`);
      return false;
    }
    peerOf.set(socket, { inode: peer.inode, holder: null });
    if (holderOf(socket, false) !== null) return true;
    // Not (yet) a session's Claude Code: `--ensure`, `--stop`, or anything else of this user.
    untied.add(socket);
    socket.setTimeout(UNTIED_IDLE_MS, () => socket.destroy());
    socket.once('close', () => untied.delete(socket));
    if (untied.size > MAX_UNTIED) {
      const oldest = untied.values().next().value as Socket;
      untied.delete(oldest);
      oldest.destroy();
    }
    return true;
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
          return event(req, body);
        },
      });
      // A request must arrive whole soon after it starts: half-sent requests hold no socket for long.
      server.headersTimeout = 10_000;
      server.requestTimeout = 60_000;
      const address = await listen(server, options.port, '127.0.0.1');
      timer = setInterval(tick, options.checkMs ?? 2000);
      return { port: address.port };
    },
    close,
  };
}

/** A 403 for an event from the wrong process; its connection is closed once answered, so each try costs a new one. */
function refuse(req: http.IncomingMessage, error: string): HttpAnswer {
  setImmediate(() => req.socket.end());
  return { status: 403, body: JSON.stringify({ error }) };
}

function unknownSession(): HttpAnswer {
  return { status: 503, body: JSON.stringify({ error: 'no session of this server; a SessionStart hook registers each session (policy serve --ensure)' }) };
}

function parse(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    return null;
  }
}
