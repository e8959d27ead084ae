/**
 * The drainer's lock: one process drains an outbox at a time. The lock is a file made with
 * O_EXCL holding the drainer's pid, touched while it runs; a lock not touched for
 * LOCK_STALE_MS, or whose process is gone, belongs to a drainer that died and is taken over.
 */
import * as fs from 'fs';
import * as path from 'path';
import { processAlive } from '../process-alive';

export { processAlive } from '../process-alive';

/** The drainer touches the lock this often while it runs. */
export const HEARTBEAT_MS = 2000;
/** A lock not touched for this long belongs to a drainer that died: another may take over. */
export const LOCK_STALE_MS = 15_000;

const LOCK = 'sender.lock';
const { O_WRONLY, O_CREAT, O_EXCL } = fs.constants;
const O_NOFOLLOW = fs.constants.O_NOFOLLOW ?? 0;

/**
 * True when a drainer holds the folder's lock, touched it lately, and its process is alive
 * (a killed drainer is replaced by the next event, not 15 s later).
 * @example drainerAlive('/home/me/.cache/hookpolicy/webhook-spool') // false
 */
export function drainerAlive(folder: string, nowMs = Date.now()): boolean {
  const lock = path.join(folder, LOCK);
  try {
    if (nowMs - fs.statSync(lock).mtimeMs >= LOCK_STALE_MS) return false;
    const pid = Number(fs.readFileSync(lock, 'utf8'));
    return !(Number.isInteger(pid) && pid > 0) || processAlive(pid);
  } catch {
    return false;
  }
}

/**
 * Takes the folder's lock for this process; false when a live drainer holds it. A lock
 * whose drainer died (not touched for LOCK_STALE_MS, or its process gone) is taken over.
 * @example if (!acquireLock(folder)) return;
 */
export function acquireLock(folder: string, nowMs = Date.now()): boolean {
  const lock = path.join(folder, LOCK);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = fs.openSync(lock, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0o600);
      fs.writeSync(fd, String(process.pid));
      fs.closeSync(fd);
      return true;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 0) return false;
      if (!lockIsStale(lock, nowMs)) return false;
      try {
        fs.unlinkSync(lock);
      } catch {
        // Another drainer took it over first: the next open fails and this one gives way.
      }
    }
  }
  return false;
}

function lockIsStale(lock: string, nowMs: number): boolean {
  try {
    if (nowMs - fs.statSync(lock).mtimeMs >= LOCK_STALE_MS) return true;
    const pid = Number(fs.readFileSync(lock, 'utf8'));
    return Number.isInteger(pid) && pid > 0 && !processAlive(pid);
  } catch {
    return false;
  }
}

/** Marks this drainer as alive. */
export function touchLock(folder: string): void {
  try {
    const now = new Date();
    fs.utimesSync(path.join(folder, LOCK), now, now);
  } catch {
    // Gone (taken over): claims by rename keep two drainers from delivering one record twice.
  }
}

/** Gives the lock up, when it is still this process's. */
export function releaseLock(folder: string): void {
  const lock = path.join(folder, LOCK);
  try {
    if (fs.readFileSync(lock, 'utf8') === String(process.pid)) fs.unlinkSync(lock);
  } catch {
    // Already gone.
  }
}
