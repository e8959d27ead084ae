/**
 * A throwaway HTTP server on 127.0.0.1 (ephemeral port) for webhook tests: records every
 * request and answers as the test says (at once, late, with an error, or never).
 */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SinkRequest {
  body: string;
  headers: http.IncomingHttpHeaders;
  arrivedAt: number;
}

export interface HttpSink {
  url: string;
  requests: SinkRequest[];
  /** Date.now() of every response actually sent. */
  responsesSentAt: number[];
  /** Resolves once `count` requests have arrived, or after `ms` with what arrived. */
  waitFor(count: number, ms: number): Promise<SinkRequest[]>;
  close(): Promise<void>;
}

export interface SinkOptions {
  /** The status to answer, or one per request (its index among those that arrived, from 0). */
  status?: number | ((index: number) => number);
  /** Listen on this port (a server that comes back where one was down); default: any free one. */
  port?: number;
  /** Hold each response this long before sending it. */
  delayMs?: number;
}

/**
 * Starts a sink; close it in afterEach.
 * @example const sink = await startSink({ status: 500 }); ... await sink.close();
 */
export async function startSink(options: SinkOptions = {}): Promise<HttpSink> {
  const requests: SinkRequest[] = [];
  const responsesSentAt: number[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const waiters: Array<() => void> = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const index = requests.length;
      requests.push({ body: Buffer.concat(chunks).toString('utf8'), headers: req.headers, arrivedAt: Date.now() });
      for (const w of waiters.splice(0)) w();
      const answer = () => {
        if (res.destroyed) return;
        res.statusCode = typeof options.status === 'function' ? options.status(index) : options.status ?? 200;
        res.end('sink', () => responsesSentAt.push(Date.now()));
      };
      if (!options.delayMs) answer();
      else {
        const t = setTimeout(() => { timers.delete(t); answer(); }, options.delayMs);
        timers.add(t);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/decisions`,
    requests,
    responsesSentAt,
    waitFor(count, ms) {
      return new Promise((resolve) => {
        const deadline = setTimeout(() => resolve(requests), ms);
        const check = () => {
          if (requests.length >= count) {
            clearTimeout(deadline);
            resolve(requests);
          } else waiters.push(check);
        };
        check();
      });
    },
    async close() {
      for (const t of timers) clearTimeout(t);
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/**
 * A URL on 127.0.0.1 where nothing listens (a port that was just free): connection refused.
 * @example await refusedUrl() // 'http://127.0.0.1:40123/decisions'
 */
export async function refusedUrl(): Promise<string> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return `http://127.0.0.1:${port}/decisions`;
}
