/**
 * The `policy serve` daemon: answers Claude Code `type: "http"` hooks on loopback. The
 * POST body is the event (the same JSON a command hook reads on stdin); the answer is
 * what `policy hook` would print, as a 2xx body (empty for no output). Each request goes
 * through the same runHook as the command runner, with the compiled policy held in
 * memory (serve/project-answerer.ts), in a worker thread under a hard deadline
 * (serve/session-worker.ts).
 *
 * Two modes: one project, fixed when the daemon starts (`policy serve --project-dir`), or
 * the sessions Claude Code registers at SessionStart (`policy serve --sessions`, started
 * by `policy serve --ensure`: serve/session-server.ts).
 */
import * as http from 'http';
import type { AddressInfo } from 'net';
import type { HttpAnswer, ProjectAnswerer } from './serve/project-answerer';

export { httpAnswer, type HttpAnswer, type RunHook, type RunnerInput } from './serve/project-answerer';

/** The project the server answers for, what answers its events, and the HTTP side's options. */
export interface PolicyServerOptions {
  /** Absolute POSIX project root (shown by GET /health). */
  projectRoot: string;
  /** What answers each event: the project's worker (serve/session-worker.ts). */
  answerer: ProjectAnswerer;
  log?: (line: string) => void;
  /** Largest accepted body (default 16 MiB). */
  maxBodyBytes?: number;
}

export interface PolicyServer {
  /** Starts listening; port 0 picks a free port. */
  listen(port: number, host: string): Promise<{ host: string; port: number; url: string }>;
  close(): Promise<void>;
}

/** What a request handler of hookServer answers: a status and a JSON (or empty) body. */
export type Handler = (req: http.IncomingMessage, body: string) => Promise<HttpAnswer>;

/** Largest accepted body by default. */
export const MAX_BODY_BYTES = 16 * 1024 * 1024;

/**
 * @example const server = createPolicyServer({ projectRoot: '/p', answerer: createSessionWorker({ script, data, build }) });
 *   await server.listen(0, '127.0.0.1') // { host: '127.0.0.1', port: 40123, url: 'http://127.0.0.1:40123/' }
 */
export function createPolicyServer(options: PolicyServerOptions): PolicyServer {
  const { answerer } = options;
  const health = JSON.stringify({ ok: true, project: options.projectRoot });
  const server = hookServer({
    maxBodyBytes: options.maxBodyBytes,
    log: options.log,
    get: (req) => (req.url === '/health' || req.url === '/' ? { status: 200, body: health } : null),
    post: (_req, body) => answerer.answer(body),
  });
  return {
    listen: (port, host) => listen(server, port, host),
    close() {
      answerer.close();
      return closeServer(server);
    },
  };
}

export interface HookServerOptions {
  maxBodyBytes?: number;
  log?: (line: string) => void;
  /** Answers a GET, or null for a 404. */
  get: (req: http.IncomingMessage) => HttpAnswer | null;
  post: Handler;
  /** Runs before any request of a new connection is handled; false closes it unanswered. */
  admit?: (socket: import('net').Socket) => Promise<boolean>;
}

/**
 * The HTTP plumbing both modes share: GET and POST routes, a body limit (413), 405 for
 * other methods, 500 (logged) for a handler that throws, and an optional admission check
 * run once per connection.
 */
export function hookServer(options: HookServerOptions): http.Server {
  const log = options.log ?? (() => undefined);
  const admitted = new WeakMap<object, Promise<boolean>>();
  const server = http.createServer((req, res) => {
    const gate = options.admit ? admitted.get(req.socket) ?? Promise.resolve(true) : Promise.resolve(true);
    void gate.then((ok) => {
      if (!ok) {
        send(res, 403, JSON.stringify({ error: 'this connection comes from another user' }));
        return;
      }
      if (req.method === 'GET') {
        const answer = options.get(req);
        send(res, answer?.status ?? 404, answer?.body ?? JSON.stringify({ error: 'no such path' }));
        return;
      }
      if (req.method !== 'POST') {
        send(res, 405, JSON.stringify({ error: 'POST the hook event as JSON' }));
        return;
      }
      readBody(req, options.maxBodyBytes ?? MAX_BODY_BYTES).then(
        (body) => options.post(req, body).then((a) => send(res, a.status, a.body)),
        () => send(res, 413, JSON.stringify({ error: 'body too large' })),
      ).catch((e: unknown) => {
        log(`internal error: ${(e as Error)?.message ?? String(e)}`);
        send(res, 500, '');
      });
    });
  });
  if (options.admit) {
    const admit = options.admit;
    server.on('connection', (socket) => admitted.set(socket, admit(socket).catch(() => false)));
  }
  server.keepAliveTimeout = 60_000;
  return server;
}

/** Listens on host:port; port 0 picks a free one. */
export function listen(server: http.Server, port: number, host: string): Promise<{ host: string; port: number; url: string }> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      const address = server.address() as AddressInfo;
      const shown = address.family === 'IPv6' ? `[${address.address}]` : address.address;
      resolve({ host: address.address, port: address.port, url: `http://${shown}:${address.port}/` });
    });
  });
}

/** Stops listening and drops every open connection. */
export function closeServer(server: http.Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

function send(res: http.ServerResponse, status: number, body: string): void {
  if (res.headersSent) return;
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

function readBody(req: http.IncomingMessage, limit: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        reject(new Error('too large'));
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}
