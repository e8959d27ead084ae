/**
 * Fire-and-forget webhook delivery: the record goes to the webhook's outbox
 * (`webhook-spool/<key>/`, engine/host/outbox, one folder per destination) and one detached
 * sender process (dist/webhook-sender.cjs) POSTs what it holds, retrying with backoff; a
 * runner starts one only when none is alive, and never waits for the POST. The sender is
 * given the destination (URL, headers, allowed variables) from the policy by the runner
 * that starts it; a spooled record holds only the record and its id.
 */
import type { spawn as spawnChild } from 'child_process';
import * as path from 'path';
import { diagnostic } from '../diagnostics';
import type { CompiledLog, Diagnostic } from '../types';
import { destinationOutbox, drainerEnv, sendThroughOutbox } from './outbox';

/** The webhook's outbox folder, in the first cache folder only this user can write. */
export const WEBHOOK_OUTBOX = 'webhook-spool';

/** Where a webhook's records go: the policy's `log.webhook`, the body template left behind (what it rendered is the record). */
export type WebhookDestination = Omit<NonNullable<CompiledLog['webhook']>, 'body'>;

/** What the sender POSTs: one record and where to. */
export interface WebhookEnvelope {
  webhook: WebhookDestination;
  record: unknown;
  /** The same on every try of this record: sent as `Idempotency-Key`, so a receiver can drop a repeat. */
  id?: string;
}

/** A spooled record: the record and its id, nothing about where it goes. */
export interface SpooledRecord {
  record: unknown;
  id?: string;
}

/**
 * True for a webhook destination as the runner passes it to the sender.
 * @example isWebhookDestination({ url: 'https://x', timeoutMs: 1000, headers: {} }) // true
 */
export function isWebhookDestination(value: unknown): value is WebhookDestination {
  if (value === null || typeof value !== 'object') return false;
  const v = value as Record<string, unknown>;
  const strings = (x: unknown) => x !== null && typeof x === 'object' && Object.values(x as object).every((s) => typeof s === 'string');
  return typeof v.url === 'string' && typeof v.timeoutMs === 'number' && strings(v.headers) && !Array.isArray(v.headers)
    && (v.allowedEnvVars === undefined || (Array.isArray(v.allowedEnvVars) && strings(v.allowedEnvVars)));
}

let made = 0;

export interface SendWebhookOptions {
  /** The sender script; defaults to webhook-sender.cjs beside the running bundle. */
  senderPath?: string;
  spawn?: typeof spawnChild;
  /** Where the cache folders are ($HOOKPOLICY_CACHE_DIR...): the spool is under the first this user alone can write. */
  env?: Readonly<Record<string, string | undefined>>;
  /** The spool folder itself (tests); null: no spool, one sender per record. */
  spool?: string | null;
}

/**
 * Queues the record and starts the sender when none is alive. Returns a `log-error`
 * warning when the record cannot be queued or the sender cannot be started.
 * @example sendWebhook({ url: 'http://127.0.0.1:9/x', timeoutMs: 1000, headers: {} }, record, { env: process.env })
 */
export function sendWebhook(webhook: WebhookDestination, record: unknown, options: SendWebhookOptions = {}): Diagnostic | null {
  const id = `${Date.now().toString(36)}-${process.pid.toString(36)}-${(made++).toString(36)}-${Math.random().toString(36).slice(2, 12)}`;
  const spool = options.spool !== undefined ? options.spool : destinationOutbox(options.env ?? {}, WEBHOOK_OUTBOX, webhook);
  if (spool !== null) {
    const sender = options.senderPath ?? path.join(__dirname, 'webhook-sender.cjs');
    const problem = sendThroughOutbox(spool, JSON.stringify({ record, id } satisfies SpooledRecord), sender, { spawn: options.spawn, env: drainerEnv(webhook) });
    return problem ? diagnostic('log-error', `the webhook record: ${problem.message}`) : null;
  }
  // No private folder for a spool: this record gets a sender of its own, over a pipe.
  return startSender(JSON.stringify({ webhook, record, id } satisfies WebhookEnvelope), options);
}

/** A sender of its own for one envelope, given over a pipe (nobody else writes it). */
function startSender(stdin: string, options: SendWebhookOptions): Diagnostic | null {
  const sender = options.senderPath ?? path.join(__dirname, 'webhook-sender.cjs');
  try {
    // child_process (and the net and stream modules it pulls in) costs ~3 ms to load:
    // only a runner that has to start a sender pays for it.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const spawn = options.spawn ?? (require('child_process') as { spawn: typeof spawnChild }).spawn;
    const child = spawn(process.execPath, [sender], {
      stdio: ['pipe', 'ignore', 'ignore'],
      detached: true,
      windowsHide: true,
    });
    child.on('error', () => undefined);
    child.stdin?.on('error', () => undefined);
    child.stdin?.end(stdin);
    child.unref();
    return null;
  } catch (e) {
    return diagnostic('log-error', `cannot start the webhook sender: ${(e as Error).message}`);
  }
}
