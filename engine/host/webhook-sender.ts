/**
 * Entry of dist/webhook-sender.cjs: reads one WebhookEnvelope from stdin, POSTs the
 * record, and ends when answered, failed or timed out. Nobody waits for it.
 */
import { postRecord } from './webhook-post';
import type { WebhookEnvelope } from './webhook';

const chunks: Buffer[] = [];
process.stdin.on('data', (c: Buffer) => chunks.push(c));
process.stdin.on('end', () => {
  let envelope: WebhookEnvelope;
  try {
    envelope = JSON.parse(Buffer.concat(chunks).toString('utf8')) as WebhookEnvelope;
  } catch {
    return;
  }
  void postRecord(envelope);
});
