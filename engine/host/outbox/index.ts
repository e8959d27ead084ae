/**
 * The outbox room: durable hand-off from the runner to a detached process that delivers
 * (the webhook sender, the OpenTelemetry exporter, the PostgreSQL shipper). The runner
 * queues a record and starts the drainer when none is alive (start.ts); the drainer
 * delivers with retries and backoff (drain.ts). Records live in a cache folder only this
 * user can write (folder.ts), one file each (queue.ts), drained by one process at a time
 * (lock.ts); where they go is the policy's, given to the drainer, never a record's
 * (destination.ts).
 */
export { outboxFolder } from './folder';
export { DESTINATION_VAR, destinationKey, destinationOutbox, drainerEnv, outboxDestination } from './destination';
export { MAX_RECORD_BYTES, REJECTED_FOLDER, claimRecords, enqueue, hasRecords, readRecord, removeRecords, returnRecords, setAside } from './queue';
export { HEARTBEAT_MS, LOCK_STALE_MS, acquireLock, drainerAlive, processAlive, releaseLock, touchLock } from './lock';
export { drainOutbox, type Deliver, type Delivery, type DrainOptions, type DrainResult } from './drain';
export { sendThroughOutbox, startDrainer, type StartDrainerOptions } from './start';
