/**
 * Entry of dist/webhook-sender.cjs. With a spool folder as its argument it is the one
 * sender of that spool: it takes the lock (or ends at once when a live sender holds it),
 * POSTs the records (up to PARALLEL at once, new ones claimed while others wait on a slow
 * server) until the spool stays empty for IDLE_MS, and ends.
 * Without one it reads one envelope from stdin and POSTs it. Nobody waits for it.
 */
import * as fs from 'fs';
import { postRecord } from './webhook-post';
import type { WebhookEnvelope } from './webhook';
import { HEARTBEAT_MS, acquireLock, claimRecords, hasRecords, releaseLock, touchLock } from './webhook-spool';

/** POSTs in flight at once. */
const PARALLEL = 8;
/** How long an empty spool is watched for new records before the sender ends. */
const IDLE_MS = 2000;
const POLL_MS = 100;

const spool = process.argv[2];
if (spool) void drain(spool);
else readOne();

async function drain(dir: string): Promise<void> {
  if (!acquireLock(dir)) return;
  const heartbeat = setInterval(() => touchLock(dir), HEARTBEAT_MS);
  const inFlight = new Set<Promise<void>>();
  let idleSince = Date.now();
  try {
    for (;;) {
      // New records are claimed while earlier POSTs wait on a slow server.
      for (const file of claimRecords(dir, PARALLEL - inFlight.size)) {
        const sending: Promise<void> = sendOne(file).finally(() => inFlight.delete(sending));
        inFlight.add(sending);
      }
      if (inFlight.size > 0) idleSince = Date.now();
      else if (Date.now() - idleSince >= IDLE_MS) {
        // Give the lock up, then look once more: a runner that queued a record after the
        // last look found the lock still held and started no sender, so this one must send it.
        releaseLock(dir);
        if (!hasRecords(dir) || !acquireLock(dir)) return;
        idleSince = Date.now();
        continue;
      }
      await Promise.race([...inFlight, new Promise((resolve) => setTimeout(resolve, POLL_MS))]);
    }
  } finally {
    clearInterval(heartbeat);
    releaseLock(dir);
  }
}

/** POSTs one claimed record and deletes it, whatever the answer: each record is tried once. */
async function sendOne(file: string): Promise<void> {
  try {
    await postRecord(JSON.parse(fs.readFileSync(file, 'utf8')) as WebhookEnvelope);
  } catch {
    // Unreadable: dropped like a failed POST.
  } finally {
    try {
      fs.unlinkSync(file);
    } catch {
      // Already gone.
    }
  }
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
