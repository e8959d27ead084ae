/**
 * Fire-and-forget webhook delivery: the record goes to a detached child process
 * (dist/webhook-sender.cjs) over its stdin; the runner never waits for the POST.
 */
import type { spawn as spawnChild } from 'child_process';
import * as path from 'path';
import { diagnostic } from '../diagnostics';
import type { CompiledLog, Diagnostic } from '../types';

/** What the sender child reads from stdin. */
export interface WebhookEnvelope {
  webhook: NonNullable<CompiledLog['webhook']>;
  record: unknown;
}

export interface SendWebhookOptions {
  /** The sender script; defaults to webhook-sender.cjs beside the running bundle. */
  senderPath?: string;
  spawn?: typeof spawnChild;
}

/**
 * Starts the sender child and hands it the record. Returns a `log-error` warning when
 * the child cannot be started.
 * @example sendWebhook({ url: 'http://127.0.0.1:9/x', timeoutMs: 1000, headers: {} }, record)
 */
export function sendWebhook(webhook: WebhookEnvelope['webhook'], record: unknown, options: SendWebhookOptions = {}): Diagnostic | null {
  const sender = options.senderPath ?? path.join(__dirname, 'webhook-sender.cjs');
  try {
    // child_process (and the net and stream modules it pulls in) costs ~3 ms to load:
    // only a runner that has a record to send pays for it.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const spawn = options.spawn ?? (require('child_process') as { spawn: typeof spawnChild }).spawn;
    const child = spawn(process.execPath, [sender], {
      stdio: ['pipe', 'ignore', 'ignore'],
      detached: true,
      windowsHide: true,
    });
    child.on('error', () => undefined);
    child.stdin?.on('error', () => undefined);
    child.stdin?.end(JSON.stringify({ webhook, record } satisfies WebhookEnvelope));
    child.unref();
    return null;
  } catch (e) {
    return diagnostic('log-error', `cannot start the webhook sender: ${(e as Error).message}`);
  }
}
