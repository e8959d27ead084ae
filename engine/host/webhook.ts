/**
 * Fire-and-forget webhook delivery: the record goes to the webhook's outbox
 * (`webhook-spool/`, engine/host/outbox) and one detached sender process
 * (dist/webhook-sender.cjs) POSTs what it holds, retrying with backoff; a runner starts
 * one only when none is alive, and never waits for the POST.
 */
import type { spawn as spawnChild } from 'child_process';
import * as path from 'path';
import { diagnostic } from '../diagnostics';
import type { CompiledLog, Diagnostic } from '../types';
import { drainerAlive, enqueue, outboxFolder } from './outbox';

/** The webhook's outbox folder, in the first cache folder only this user can write. */
export const WEBHOOK_OUTBOX = 'webhook-spool';

/** What the sender POSTs: one record and where to. */
export interface WebhookEnvelope {
  /** Where to: the body template stays behind (what it rendered is the record). */
  webhook: Omit<NonNullable<CompiledLog['webhook']>, 'body'>;
  record: unknown;
  /** The same on every try of this record: sent as `Idempotency-Key`, so a receiver can drop a repeat. */
  id?: string;
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
export function sendWebhook(webhook: WebhookEnvelope['webhook'], record: unknown, options: SendWebhookOptions = {}): Diagnostic | null {
  const id = `${Date.now().toString(36)}-${process.pid.toString(36)}-${(made++).toString(36)}-${Math.random().toString(36).slice(2, 12)}`;
  const text = JSON.stringify({ webhook, record, id } satisfies WebhookEnvelope);
  const spool = options.spool !== undefined ? options.spool : outboxFolder(options.env ?? {}, WEBHOOK_OUTBOX);
  if (spool !== null) {
    try {
      enqueue(spool, text);
    } catch (e) {
      return diagnostic('log-error', `cannot queue the webhook record in ${spool}: ${(e as Error).message}`);
    }
    return drainerAlive(spool) ? null : startSender([spool], null, options);
  }
  // No private folder for a spool: this record gets a sender of its own, over a pipe.
  return startSender([], text, options);
}

function startSender(args: string[], stdin: string | null, options: SendWebhookOptions): Diagnostic | null {
  const sender = options.senderPath ?? path.join(__dirname, 'webhook-sender.cjs');
  try {
    // child_process (and the net and stream modules it pulls in) costs ~3 ms to load:
    // only a runner that has to start a sender pays for it.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const spawn = options.spawn ?? (require('child_process') as { spawn: typeof spawnChild }).spawn;
    const child = spawn(process.execPath, [sender, ...args], {
      stdio: [stdin === null ? 'ignore' : 'pipe', 'ignore', 'ignore'],
      detached: true,
      windowsHide: true,
    });
    child.on('error', () => undefined);
    if (stdin !== null) {
      child.stdin?.on('error', () => undefined);
      child.stdin?.end(stdin);
    }
    child.unref();
    return null;
  } catch (e) {
    return diagnostic('log-error', `cannot start the webhook sender: ${(e as Error).message}`);
  }
}
