/**
 * Entry of dist/webhook-sender.cjs. With an outbox folder as its argument it is the one
 * sender of that outbox (engine/host/outbox): it POSTs the records, PARALLEL at a time,
 * deletes each the server took, and tries again with backoff those it could not take,
 * until the outbox stays empty for a while. Where it POSTs (URL, headers, the variables
 * they may read) is the destination the runner gave it in its environment, the policy's,
 * for the folder named by it: never what a spooled record says. Without a folder it reads
 * one envelope from stdin (the runner's pipe) and POSTs it once. Nobody waits for it.
 */
import { deliveryOf, postRecord } from './webhook-post';
import { isWebhookDestination, type SpooledRecord, type WebhookDestination, type WebhookEnvelope } from './webhook';
import { drainOutbox, outboxDestination, type Delivery } from './outbox';

/** POSTs in flight at once. */
const PARALLEL = 8;

const folder = process.argv[2];
if (folder) {
  const destination = outboxDestination(process.env, folder, isWebhookDestination);
  // No destination for this folder: nothing is read, nothing is sent.
  if (destination) void drainOutbox(folder, (texts) => postAll(texts, destination), { batch: 1, parallel: PARALLEL });
} else readOne();

/** One record (a batch of one: PARALLEL of them are in flight at once), to the destination. */
async function postAll(texts: string[], webhook: WebhookDestination): Promise<Delivery[]> {
  return Promise.all(texts.map(async (text): Promise<Delivery> => {
    let spooled: SpooledRecord;
    try {
      spooled = JSON.parse(text) as SpooledRecord;
    } catch {
      return 'rejected';
    }
    if (spooled === null || typeof spooled !== 'object' || !('record' in spooled)) return 'rejected';
    const id = typeof spooled.id === 'string' ? spooled.id : undefined;
    return deliveryOf(await postRecord({ webhook, record: spooled.record, ...(id ? { id } : {}) }));
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
