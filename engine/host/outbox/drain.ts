/**
 * The drainer's loop: the one process that delivers an outbox's records. It takes the
 * folder's lock (or ends at once when a live drainer holds it), delivers the records in
 * batches, oldest first, and deletes each once its sink took it. A record the sink could
 * not take (down, timing out, answering 5xx) is put back in its place and tried again after
 * a backoff that doubles while the sink keeps failing; one the sink refused for good is
 * set aside in `rejected/`. Nothing is dropped: when the drainer ends (idle, or at the end
 * of its life while the sink is still down), what is left stays on disk for the next one.
 * It drains only a folder this user alone can write (the cache room's folder check), and
 * reads only records that are regular files of a bounded size (queue.ts).
 */
import { cacheFolderDistrust } from '../cache/cache-trust';
import { HEARTBEAT_MS, acquireLock, releaseLock, touchLock } from './lock';
import { claimRecords, hasRecords, readRecord, removeRecords, returnRecords, setAside } from './queue';

/** What became of one record: taken, to be tried again, or refused for good. */
export type Delivery = 'sent' | 'retry' | 'rejected';

/**
 * Delivers a batch of records (their texts, oldest first). `true`: all taken; `false` or a
 * throw: all to be tried again; or one Delivery per record.
 */
export type Deliver = (texts: string[]) => Promise<boolean | Delivery[]>;

export interface DrainOptions {
  /** Records handed to `deliver` at once (default 64). */
  batch?: number;
  /** How long an empty outbox is watched for new records before the drainer ends (default 2 s). */
  idleMs?: number;
  /** The drainer ends after this long even while records wait (default 10 min). */
  maxLifeMs?: number;
  /** The wait before a retry: `first`, doubled after each failed try, at most `max` (default 1 s..60 s). */
  backoffMs?: { first: number; max: number };
  /** How often an empty outbox is looked at (default 100 ms). */
  pollMs?: number;
  /**
   * Batches in flight at once (default 1): new records are claimed while earlier ones wait
   * on a slow sink.
   */
  parallel?: number;
}

/** What one drainer did, for its tests and its caller's exit. */
export interface DrainResult {
  /** False when another drainer held the lock: this one did nothing. */
  drained: boolean;
  sent: number;
  retried: number;
  rejected: number;
}

/**
 * Drains `folder` through `deliver` until it stays empty for idleMs or maxLifeMs have passed.
 * @example await drainOutbox(process.argv[2], async (texts) => postAll(texts))
 */
export async function drainOutbox(folder: string, deliver: Deliver, options: DrainOptions = {}): Promise<DrainResult> {
  const result: DrainResult = { drained: false, sent: 0, retried: 0, rejected: 0 };
  // Records in a folder another user can write could be anyone's: not read, not sent.
  if (cacheFolderDistrust(folder) !== null || !acquireLock(folder)) return result;
  result.drained = true;
  const batch = options.batch ?? 64;
  const idleMs = options.idleMs ?? 2000;
  const maxLifeMs = options.maxLifeMs ?? 600_000;
  const backoff = options.backoffMs ?? { first: 1000, max: 60_000 };
  const pollMs = options.pollMs ?? 100;
  const parallel = options.parallel ?? 1;
  const started = Date.now();
  const heartbeat = setInterval(() => touchLock(folder), HEARTBEAT_MS);
  const inFlight = new Set<Promise<void>>();
  let failures = 0;
  let retryAt = 0;
  // Batches claimed in one round that fail together count as one failure, not one each.
  let round = 0;
  let idleSince = Date.now();
  const settle = (claimedIn: number, outcome: BatchOutcome) => {
    result.sent += outcome.sent;
    result.rejected += outcome.rejected;
    result.retried += outcome.retried;
    idleSince = Date.now();
    if (outcome.retried === 0) {
      if (outcome.sent > 0) failures = 0;
      return;
    }
    // The sink is failing: nothing new is claimed until the backoff has passed.
    if (claimedIn !== round) return;
    round++;
    failures++;
    retryAt = Date.now() + Math.min(backoff.max, backoff.first * 2 ** Math.min(failures - 1, 30));
  };
  try {
    while (Date.now() - started < maxLifeMs) {
      while (inFlight.size < parallel && Date.now() >= retryAt) {
        const claimed = claimRecords(folder, batch);
        if (claimed.length === 0) break;
        const claimedIn = round;
        const delivering: Promise<void> = deliverClaimed(claimed, deliver).then((outcome) => settle(claimedIn, outcome)).finally(() => inFlight.delete(delivering));
        inFlight.add(delivering);
      }
      if (inFlight.size > 0) {
        idleSince = Date.now();
        await Promise.race([...inFlight, sleep(pollMs)]);
        continue;
      }
      if (Date.now() < retryAt) {
        await sleep(Math.min(retryAt - Date.now(), pollMs * 10));
        continue;
      }
      if (Date.now() - idleSince < idleMs) {
        await sleep(pollMs);
        continue;
      }
      // Give the lock up, then look once more: a runner that queued a record after the
      // last look found the lock still held and started no drainer, so this one must.
      releaseLock(folder);
      if (!hasRecords(folder) || !acquireLock(folder)) return result;
      idleSince = Date.now();
    }
    await Promise.all(inFlight);
    return result;
  } finally {
    clearInterval(heartbeat);
    releaseLock(folder);
  }
}

interface BatchOutcome {
  sent: number;
  retried: number;
  rejected: number;
}

/** One batch: read, delivered, then each file deleted, put back or set aside. */
async function deliverClaimed(claimed: string[], deliver: Deliver): Promise<BatchOutcome> {
  const files: string[] = [];
  const texts: string[] = [];
  const unreadable: string[] = [];
  for (const file of claimed) {
    const text = readRecord(file);
    if (text === null) unreadable.push(file);
    else {
      texts.push(text);
      files.push(file);
    }
  }
  setAside(unreadable);
  let answer: boolean | Delivery[];
  try {
    answer = files.length > 0 ? await deliver(texts) : true;
  } catch {
    answer = false;
  }
  const deliveries: Delivery[] = typeof answer === 'boolean' ? files.map(() => (answer ? 'sent' : 'retry')) : files.map((_, i) => answer[i] ?? 'retry');
  const by = (kind: Delivery) => files.filter((_, i) => deliveries[i] === kind);
  const sent = by('sent');
  const retry = by('retry');
  const rejected = by('rejected');
  removeRecords(sent);
  returnRecords(retry);
  setAside(rejected);
  return { sent: sent.length, retried: retry.length, rejected: rejected.length + unreadable.length };
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
