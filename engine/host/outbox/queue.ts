/**
 * The webhook spool: a folder of records waiting to be POSTed, in a cache folder only this
 * user can write, and the lock that keeps it to one sender at a time. A runner adds its
 * record (one file, written then renamed in) and starts a sender only when none holds the
 * lock; the sender claims each record by renaming it, POSTs it, and deletes it. One sender
 * process serves every runner, however many events there are, and a record is deleted only
 * once it was sent or tried.
 */
import * as fs from 'fs';
import * as path from 'path';
import { cacheDirectories, cacheFolderDistrust } from './cache';

/** The sender touches the lock this often while it runs. */
export const HEARTBEAT_MS = 2000;
/** A lock not touched for this long belongs to a sender that died: another may take over. */
export const LOCK_STALE_MS = 15_000;

const LOCK = 'sender.lock';
let queued = 0;
const RECORD = '.rec';
const { O_WRONLY, O_CREAT, O_EXCL } = fs.constants;
const O_NOFOLLOW = fs.constants.O_NOFOLLOW ?? 0;

/**
 * The spool folder under the first cache folder this user alone can write (made with mode
 * 0700 when missing); null when there is none. A folder is judged as the policy cache
 * judges its own (cacheFolderDistrust): records waiting here become POSTs, and a folder
 * another user can write would let them change or add one.
 * @example spoolDirectory(process.env) // '/home/me/.cache/hookpolicy/webhook-spool'
 */
export function spoolDirectory(env: Readonly<Record<string, string | undefined>>): string | null {
  for (const dir of cacheDirectories(env)) {
    if (cacheFolderDistrust(dir) !== null) continue;
    const spool = path.join(dir, 'webhook-spool');
    try {
      fs.mkdirSync(spool, { recursive: true, mode: 0o700 });
    } catch {
      continue;
    }
    if (cacheFolderDistrust(dir) === null && cacheFolderDistrust(spool) === null) return spool;
  }
  return null;
}

/**
 * Adds one record (any JSON text) to the spool: written to a temporary name, then renamed,
 * so a sender never reads half of it.
 * @example enqueueRecord(spool, JSON.stringify(envelope))
 */
export function enqueueRecord(spool: string, text: string): void {
  // Sorted by name is oldest first: the time, then this process's own count within one ms.
  const name = `${Date.now().toString(36).padStart(9, '0')}-${process.pid.toString(36)}-${(queued++).toString(36).padStart(4, '0')}-${Math.random().toString(36).slice(2, 10)}`;
  const temporary = path.join(spool, `${name}.tmp`);
  const fd = fs.openSync(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0o600);
  try {
    fs.writeSync(fd, text);
  } finally {
    fs.closeSync(fd);
  }
  fs.renameSync(temporary, path.join(spool, `${name}${RECORD}`));
}

/** True when a sender holds the spool's lock and touched it lately. */
export function senderAlive(spool: string, nowMs = Date.now()): boolean {
  try {
    return nowMs - fs.statSync(path.join(spool, LOCK)).mtimeMs < LOCK_STALE_MS;
  } catch {
    return false;
  }
}

/**
 * Takes the spool's lock for this process; false when a live sender holds it. A lock whose
 * sender died (not touched for LOCK_STALE_MS, or its process gone) is taken over.
 */
export function acquireLock(spool: string, nowMs = Date.now()): boolean {
  const lock = path.join(spool, LOCK);
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
        // Another sender took it over first: the next open fails and this one gives way.
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

/** Marks this sender as alive. */
export function touchLock(spool: string): void {
  try {
    const now = new Date();
    fs.utimesSync(path.join(spool, LOCK), now, now);
  } catch {
    // Gone (taken over): the claims by rename keep two senders from sending one record twice.
  }
}

/** Gives the lock up, when it is still this process's. */
export function releaseLock(spool: string): void {
  const lock = path.join(spool, LOCK);
  try {
    if (fs.readFileSync(lock, 'utf8') === String(process.pid)) fs.unlinkSync(lock);
  } catch {
    // Already gone.
  }
}

/**
 * Claims up to `max` records, oldest first, by renaming each to a name of this process:
 * a record another sender claimed first is skipped. Records a dead sender had claimed are
 * claimed again. Returns the claimed files.
 */
export function claimRecords(spool: string, max: number): string[] {
  let names: string[];
  try {
    names = fs.readdirSync(spool).sort();
  } catch {
    return [];
  }
  const claimed: string[] = [];
  for (const name of names) {
    if (claimed.length >= max) break;
    if (!name.endsWith(RECORD) && !orphanedClaim(name)) continue;
    const target = path.join(spool, `${name.slice(0, name.indexOf(RECORD))}${RECORD}.${process.pid}.sending`);
    try {
      fs.renameSync(path.join(spool, name), target);
      claimed.push(target);
    } catch {
      // Claimed by another sender in between.
    }
  }
  return claimed;
}

/** `NAME.rec.PID.sending` whose PID is gone: a sender died while sending it. */
function orphanedClaim(name: string): boolean {
  const m = /\.rec\.(\d+)\.sending$/.exec(name);
  return m !== null && Number(m[1]) !== process.pid && !processAlive(Number(m[1]));
}

/** True when records wait in the spool (claimed ones of a live sender aside). */
export function hasRecords(spool: string): boolean {
  try {
    return fs.readdirSync(spool).some((n) => n.endsWith(RECORD) || orphanedClaim(n));
  } catch {
    return false;
  }
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}
