/**
 * Entry of dist/webhook-sender.cjs. With an outbox folder as its argument it is the one
 * sender of that outbox (engine/host/outbox): it POSTs the records, PARALLEL at a time,
 * deletes each the server took, and tries again with backoff those it could not take,
 * until the outbox stays empty for a while. Without one it reads one envelope from stdin
 * and POSTs it once. Nobody waits for it.
 */
import { deliveryOf, postRecord } from './webhook-post';
import type { WebhookEnvelope } from './webhook';
import { drainOutbox, type Delivery } from './outbox';

/** POSTs in flight at once. */
const PARALLEL = 8;

const folder = process.argv[2];
if (folder) void drainOutbox(folder, postAll, { batch: 1, parallel: PARALLEL });
else readOne();

/** One record (a batch of one: PARALLEL of them are in flight at once). */
async function postAll(texts: string[]): Promise<Delivery[]> {
  return Promise.all(texts.map(async (text): Promise<Delivery> => {
    let envelope: WebhookEnvelope;
    try {
      envelope = JSON.parse(text) as WebhookEnvelope;
    } catch {
      return 'rejected';
    }
    return deliveryOf(await postRecord(envelope));
  }));
}

function readOne(): void {
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
}
