/**
 * A fake model endpoint on 127.0.0.1 (ephemeral port), in both shapes the memory process
 * speaks: Anthropic's `POST /v1/messages` and OpenAI's `POST /v1/chat/completions` and
 * `POST /v1/embeddings`. It records every request (path, headers, parsed body) and
 * answers as the test says: a summary text, an error status, late, or not at all.
 *
 * Its embeddings are a bag of words over a few fixed concepts (`login`, `token`, `jwt`
 * and `auth` are one concept, ...), so a query can be near a record that shares no word
 * with it: what embeddings find and full text cannot.
 */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeRequest {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: Record<string, unknown>;
}

export interface FakeModelOptions {
  /** The summary text the chat endpoints answer (default 'Prose summary.'). */
  summary?: string;
  /** A status other than 200 for the chat endpoints, with an API-shaped error body. */
  chatStatus?: number;
  /** A status other than 200 for the embeddings endpoint. */
  embeddingsStatus?: number;
  /** Hold chat answers this long. */
  chatDelayMs?: number;
  /** Hold embeddings answers this long. */
  embeddingsDelayMs?: number;
}

export interface FakeModelServer {
  url: string;
  requests: FakeRequest[];
  options: FakeModelOptions;
  /** Requests to one path. */
  to(path: string): FakeRequest[];
  close(): Promise<void>;
}

/** Words of one concept share a dimension. */
const CONCEPTS: string[][] = [
  ['login', 'token', 'jwt', 'auth', 'authentication', 'session', 'middleware'],
  ['database', 'schema', 'migration', 'sql', 'table'],
  ['test', 'tests', 'jest', 'failing', 'failed'],
  ['deploy', 'release', 'docker', 'build'],
];
export const FAKE_DIMENSIONS = CONCEPTS.length + 1;

/**
 * The fake embedding of a text: one count per concept, and one for words of none.
 * @example fakeEmbedding('JWT login') // [2, 0, 0, 0, 0]
 */
export function fakeEmbedding(text: string): number[] {
  const v = new Array(FAKE_DIMENSIONS).fill(0);
  for (const word of text.toLowerCase().split(/[^a-z0-9]+/).filter((w) => w !== '')) {
    const concept = CONCEPTS.findIndex((c) => c.includes(word));
    v[concept < 0 ? CONCEPTS.length : concept] += concept < 0 ? 0.2 : 1;
  }
  return v;
}

/**
 * Starts the server; close it in afterEach/afterAll.
 * @example const model = await startFakeModel({ summary: 'Built the JWT middleware.' });
 */
export async function startFakeModel(options: FakeModelOptions = {}): Promise<FakeModelServer> {
  const requests: FakeRequest[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const state: FakeModelServer['options'] = { ...options };
  const later = (ms: number | undefined, fn: () => void) => {
    if (!ms) return fn();
    const t = setTimeout(() => {
      timers.delete(t);
      fn();
    }, ms);
    timers.add(t);
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = (req.url ?? '/').split('?')[0];
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
      } catch {
        // Recorded as {}.
      }
      requests.push({ path, headers: req.headers, body });
      const json = (status: number, value: unknown) => {
        if (res.destroyed) return;
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(value));
      };
      const summary = state.summary ?? 'Prose summary.';
      if (req.method === 'POST' && path === '/v1/messages') {
        return later(state.chatDelayMs, () => (state.chatStatus && state.chatStatus !== 200
          ? json(state.chatStatus, { type: 'error', error: { type: 'api_error', message: `fake failure ${state.chatStatus}` } })
          : json(200, { id: 'msg_fake', type: 'message', role: 'assistant', model: body.model, content: [{ type: 'text', text: summary }], stop_reason: 'end_turn', usage: { input_tokens: 1, output_tokens: 1 } })));
      }
      if (req.method === 'POST' && path === '/v1/chat/completions') {
        return later(state.chatDelayMs, () => (state.chatStatus && state.chatStatus !== 200
          ? json(state.chatStatus, { error: { message: `fake failure ${state.chatStatus}`, type: 'server_error' } })
          : json(200, { id: 'chatcmpl-fake', object: 'chat.completion', model: body.model, choices: [{ index: 0, message: { role: 'assistant', content: summary }, finish_reason: 'stop' }] })));
      }
      if (req.method === 'POST' && path === '/v1/embeddings') {
        const input = Array.isArray(body.input) ? (body.input as unknown[]).map(String) : [String(body.input ?? '')];
        return later(state.embeddingsDelayMs, () => (state.embeddingsStatus && state.embeddingsStatus !== 200
          ? json(state.embeddingsStatus, { error: { message: `fake failure ${state.embeddingsStatus}` } })
          : json(200, { object: 'list', model: body.model, data: input.map((t, index) => ({ object: 'embedding', index, embedding: fakeEmbedding(t) })) })));
      }
      json(404, { error: { message: `no route ${req.method} ${path}` } });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    options: state,
    to: (p) => requests.filter((r) => r.path === p),
    close: () => new Promise((resolve) => {
      for (const t of timers) clearTimeout(t);
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
