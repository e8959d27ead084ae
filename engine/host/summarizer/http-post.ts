/**
 * One JSON POST to a model endpoint, within a timeout, never throwing: what the memory
 * process uses to ask for a summary or embeddings. The answer's body is kept (up to
 * MAX_ANSWER_BYTES); nothing of the request (its key above all) goes into an error text.
 */
import * as http from 'http';
import * as https from 'https';

/** The largest answer read: 32 embeddings of 3,072 numbers as JSON stay well below it. */
export const MAX_ANSWER_BYTES = 16 * 1024 * 1024;

export type HttpResult = { ok: true; status: number; body: string } | { ok: false; error: string };

/**
 * POSTs `body` (JSON text) to `url`; resolves with the status and body, or with why there
 * is none (refused, timed out after `timeoutMs`, too large). Never rejects.
 * @example await postJson('http://127.0.0.1:8080/v1/messages', { 'x-api-key': key }, '{"model":"m"}', 30000) // { ok: true, status: 200, body: '{...}' }
 */
export function postJson(url: string, headers: Record<string, string>, body: string, timeoutMs: number): Promise<HttpResult> {
  return new Promise((resolve) => {
    let settled = false;
    const finish = (result: HttpResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      resolve({ ok: false, error: `${url} is not a URL` });
      return;
    }
    const data = Buffer.from(body, 'utf8');
    const client = target.protocol === 'https:' ? https : http;
    const request = client.request(target, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json', 'content-length': data.length },
    }, (response) => {
      const chunks: Buffer[] = [];
      let size = 0;
      response.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > MAX_ANSWER_BYTES) {
          request.destroy();
          finish({ ok: false, error: `the answer is larger than ${MAX_ANSWER_BYTES} bytes` });
        } else chunks.push(chunk);
      });
      response.on('end', () => finish({ ok: true, status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      response.on('error', (e) => finish({ ok: false, error: e.message }));
    });
    const timer = setTimeout(() => {
      request.destroy();
      finish({ ok: false, error: `no answer within ${timeoutMs} ms` });
    }, timeoutMs);
    request.on('error', (e) => finish({ ok: false, error: e.message }));
    request.end(data);
  });
}

/**
 * The endpoint's URL: `url` as given when its path already ends with `endpoint`, else with
 * `endpoint` added after its `/v1` (and `/v1` too when the path has none).
 * @example endpointUrl('https://api.anthropic.com', '/messages') // 'https://api.anthropic.com/v1/messages'
 * @example endpointUrl('http://127.0.0.1:11434/v1', '/embeddings') // 'http://127.0.0.1:11434/v1/embeddings'
 */
export function endpointUrl(url: string, endpoint: '/messages' | '/chat/completions' | '/embeddings'): string {
  const u = new URL(url);
  const pathname = u.pathname.replace(/\/+$/, '');
  if (!pathname.endsWith(endpoint)) u.pathname = `${pathname.endsWith('/v1') ? pathname : `${pathname}/v1`}${endpoint}`;
  return u.toString();
}

/**
 * An endpoint's error answer, short: the status and the API's own message when it gives one.
 * @example answerError(401, '{"error":{"message":"invalid x-api-key"}}') // 'the endpoint answered 401: invalid x-api-key'
 */
export function answerError(status: number, body: string): string {
  let message = '';
  try {
    const parsed = JSON.parse(body) as { error?: { message?: unknown } | string; message?: unknown };
    const m = typeof parsed.error === 'string' ? parsed.error : parsed.error?.message ?? parsed.message;
    if (typeof m === 'string') message = m;
  } catch {
    message = body;
  }
  message = message.replace(/\s+/g, ' ').trim();
  if (message.length > 200) message = `${message.slice(0, 199)}…`;
  return `the endpoint answered ${status}${message ? `: ${message}` : ''}`;
}
