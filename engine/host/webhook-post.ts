/**
 * One webhook delivery: POST a record as JSON, within a timeout, never throwing.
 */
import * as http from 'http';
import * as https from 'https';
import type { WebhookEnvelope } from './webhook';

/**
 * POSTs `envelope.record` to `envelope.webhook.url`; resolves with the HTTP status, or
 * null on error or timeout. Never rejects.
 * @example await postRecord({ webhook: { url, timeoutMs: 1000, headers: {} }, record }) // 200
 */
export function postRecord(envelope: WebhookEnvelope): Promise<number | null> {
  return new Promise((resolve) => {
    const { url, timeoutMs, headers } = envelope.webhook;
    const body = JSON.stringify(envelope.record);
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      resolve(null);
      return;
    }
    const client = target.protocol === 'https:' ? https : http;
    const timer = setTimeout(() => {
      request.destroy();
      resolve(null);
    }, timeoutMs);
    const request = client.request(target, {
      method: 'POST',
      headers: { ...headers, 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) },
    }, (response) => {
      response.resume();
      response.on('end', () => {
        clearTimeout(timer);
        resolve(response.statusCode ?? null);
      });
    });
    request.on('error', () => {
      clearTimeout(timer);
      resolve(null);
    });
    request.end(body);
  });
}
