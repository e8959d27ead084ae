/**
 * A JSON POST that a synchronous caller can wait for: a search (MemoryFacts.search is
 * synchronous, as the rules' lets are) needs its query's embedding before it can rank. A
 * worker thread makes the request and the calling thread blocks on Atomics.wait, for at
 * most `timeoutMs` in all (the thread's start-up included); then the answer, or why there
 * is none. The thread's output never reaches the runner's stdout.
 */
import type { HttpResult } from '../summarizer/http-post';

/** The worker thread, as source: self-contained, so it runs the same bundled or not. */
const WORKER_SOURCE = `
const { workerData } = require('worker_threads');
const { url, headers, body, timeoutMs, maxBytes, shared, port } = workerData;
const flag = new Int32Array(shared);
let done = false;
function finish(message) {
  if (done) return;
  done = true;
  try { port.postMessage(message); } catch (e) {}
  Atomics.store(flag, 0, 1);
  Atomics.notify(flag, 0);
}
try {
  const target = new URL(url);
  const client = require(target.protocol === 'https:' ? 'https' : 'http');
  const data = Buffer.from(body, 'utf8');
  const request = client.request(target, {
    method: 'POST',
    headers: Object.assign({}, headers, { 'content-type': 'application/json', 'content-length': data.length }),
  }, (response) => {
    const chunks = [];
    let size = 0;
    response.on('data', (c) => {
      size += c.length;
      if (size > maxBytes) { request.destroy(); finish({ error: 'the answer is too large' }); } else chunks.push(c);
    });
    response.on('end', () => finish({ status: response.statusCode || 0, body: Buffer.concat(chunks).toString('utf8') }));
    response.on('error', (e) => finish({ error: e.message }));
  });
  request.setTimeout(timeoutMs, () => { request.destroy(); finish({ error: 'no answer within ' + timeoutMs + ' ms' }); });
  request.on('error', (e) => finish({ error: e.message }));
  request.end(data);
} catch (e) {
  finish({ error: String((e && e.message) || e) });
}
`;

const MAX_ANSWER_BYTES = 4 * 1024 * 1024;

/**
 * POSTs `body` to `url` and blocks until the answer, or `timeoutMs` at most.
 * @example postJsonSync('http://127.0.0.1:11434/v1/embeddings', {}, '{"model":"m","input":["JWT"]}', 1000) // { ok: true, status: 200, body: '...' }
 */
export function postJsonSync(url: string, headers: Record<string, string>, body: string, timeoutMs: number): HttpResult {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { Worker, MessageChannel, receiveMessageOnPort } = require('worker_threads') as typeof import('worker_threads');
  const shared = new SharedArrayBuffer(4);
  const flag = new Int32Array(shared);
  const { port1, port2 } = new MessageChannel();
  let worker: import('worker_threads').Worker;
  try {
    worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { url, headers, body, timeoutMs, maxBytes: MAX_ANSWER_BYTES, shared, port: port2 },
      transferList: [port2],
      stdout: true,
      stderr: true,
    });
  } catch (e) {
    port1.close();
    return { ok: false, error: `cannot start the request: ${(e as Error).message}` };
  }
  worker.on('error', () => undefined);
  try {
    Atomics.wait(flag, 0, 0, timeoutMs);
    const received = receiveMessageOnPort(port1)?.message as { status?: number; body?: string; error?: string } | undefined;
    if (!received) return { ok: false, error: `no answer within ${timeoutMs} ms` };
    if (typeof received.error === 'string') return { ok: false, error: received.error };
    return { ok: true, status: received.status ?? 0, body: received.body ?? '' };
  } finally {
    port1.close();
    worker.unref();
    void worker.terminate();
  }
}
