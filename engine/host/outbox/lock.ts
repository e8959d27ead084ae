/**
 * The drainer's lock: one process drains an outbox at a time. The lock is a file made with
 * O_EXCL holding the drainer's pid, touched while it runs; a lock not touched for
 * LOCK_STALE_MS, or whose process is gone, belongs to a drainer that died and is taken over.
 * It is read as a regular file only (never through a symlink, never waiting on a FIFO
 * planted in its place: the runner looks at it at every recorded event).
 */
import * as fs from 'fs';
import * as path from 'path';
import { processAlive } from '../process-alive';
import { readPlainWithStats } from '../regular-file';

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
  const lock = readLock(path.join(folder, LOCK));
  if (lock === null || nowMs - lock.mtimeMs >= LOCK_STALE_MS) return false;
  return !(Number.isInteger(lock.pid) && lock.pid > 0) || processAlive(lock.pid);
}

/** The lock's pid and when it was last touched; null when there is none, or it is not a small regular file. */
function readLock(lock: string): { pid: number; mtimeMs: number } | null {
  try {
    const { bytes, stats } = readPlainWithStats(lock, 64);
    return { pid: Number(bytes.toString('utf8')), mtimeMs: Number(stats.mtimeMs) };
  } catch {
    return null;
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
  const found = readLock(lock);
  // Not a plain file (a symlink, a FIFO, a folder planted there): never this outbox's drainer's.
  if (found === null) return isPlanted(lock);
  if (nowMs - found.mtimeMs >= LOCK_STALE_MS) return true;
  return Number.isInteger(found.pid) && found.pid > 0 && !processAlive(found.pid);
}

/** Something at the lock's path that is not a regular file (removed as a stale lock is: unlink never follows). */
function isPlanted(lock: string): boolean {
  try {
    const st = fs.lstatSync(lock);
    return !st.isFile() && !st.isDirectory();
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
    if (readLock(lock)?.pid === process.pid) fs.unlinkSync(lock);
  } catch {
    // Already gone.
  }
}
