/**
 * One webhook delivery: POST a record as JSON, within a timeout, never throwing.
 */
import * as http from 'http';
import * as https from 'https';
import type { WebhookEnvelope } from './webhook';
import type { Delivery } from './outbox';
import { sendHeaders } from './webhook-headers';

/** The longest a POST may take, whatever `timeout_ms` says: a sender never waits longer. */
export const MAX_WEBHOOK_TIMEOUT_MS = 10_000;

/**
 * The timeout a POST gets: `timeout_ms`, capped at MAX_WEBHOOK_TIMEOUT_MS (1000 when it is
 * not a positive number).
 * @example webhookTimeout(600_000) // 10000
 */
export function webhookTimeout(timeoutMs: unknown): number {
  return typeof timeoutMs === 'number' && timeoutMs > 0 ? Math.min(timeoutMs, MAX_WEBHOOK_TIMEOUT_MS) : 1000;
}

/**
 * POSTs `envelope.record` to `envelope.webhook.url`; resolves with the HTTP status, or
 * null on error or timeout (`timeout_ms`, capped: see webhookTimeout). Never rejects.
 * Header values get the allowed variables they name from `env` (the sender's environment)
 * here, at send time; when one is unset nothing is POSTed and it resolves null (tried again,
 * perhaps by a sender that has it).
 * @example await postRecord({ webhook: { url, timeoutMs: 1000, headers: {} }, record }) // 200
 */
export function postRecord(envelope: WebhookEnvelope, env: Readonly<Record<string, string | undefined>> = process.env): Promise<number | null> {
  return new Promise((resolve) => {
    const { url } = envelope.webhook;
    const headers = sendHeaders(envelope.webhook, env);
    if (headers === null) {
      resolve(null);
      return;
    }
    const timeoutMs = webhookTimeout(envelope.webhook.timeoutMs);
    const body = JSON.stringify(envelope.record);
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      resolve(null);
      return;
    }
    const client = target.protocol === 'https:' ? https : http;
    let timer: NodeJS.Timeout | undefined;
    let request: http.ClientRequest;
    try {
      request = client.request(target, {
        method: 'POST',
        headers: { ...headers, 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body), ...(envelope.id ? { 'Idempotency-Key': envelope.id } : {}) },
      }, (response) => {
        response.resume();
        response.on('end', () => {
          clearTimeout(timer);
          resolve(response.statusCode ?? null);
        });
      });
    } catch {
      // A header Node refuses (a line break in a value): nothing is sent, and nothing is left armed.
      resolve(null);
      return;
    }
    timer = setTimeout(() => {
      request.destroy();
      resolve(null);
    }, timeoutMs);
    request.on('error', () => {
      clearTimeout(timer);
      resolve(null);
    });
    request.end(body);
  });
}

/**
 * What an answer means for the record: 2xx taken; no answer, a timeout, 408, 429 or 5xx
 * tried again; any other status refused for good (set aside, not retried forever).
 * @example deliveryOf(503) // 'retry'
 */
export function deliveryOf(status: number | null): Delivery {
  if (status === null || status === 408 || status === 429 || status >= 500) return 'retry';
  return status >= 200 && status < 300 ? 'sent' : 'rejected';
}
