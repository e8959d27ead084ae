/**
 * The lock that serializes appends to one decision log: reading the last line and
 * appending the next must be one step, or two runners chain to the same line. It is a
 * file beside the log (`decisions.jsonl.lock`), made with O_EXCL (never through a symlink)
 * and holding `pid host`. A runner waits for it a bounded time and never blocks: a lock
 * whose process is gone (same host) or older than LOCK_STALE_MS is taken over; when the
 * wait runs out the caller appends without it (the record is never dropped) and warns.
 */
import * as fs from 'fs';
import * as os from 'os';

/** How long a runner waits for the lock in all; the critical section takes well under 1 ms. */
export const LOCK_WAIT_MS = 1500;
/** A lock older than this belongs to a runner that died or hangs: it is taken over. */
export const LOCK_STALE_MS = 1000;

const { O_WRONLY, O_CREAT, O_EXCL, O_RDONLY } = fs.constants;
const O_NOFOLLOW = fs.constants.O_NOFOLLOW ?? 0;
const O_NONBLOCK = fs.constants.O_NONBLOCK ?? 0;

export interface LogLockOptions {
  waitMs?: number;
  staleMs?: number;
  /** The clock (epoch ms), for tests. */
  now?: () => number;
}

/** A held lock, or why it is not held (`release` is then a no-op). */
export interface LogLock {
  held: boolean;
  /** Why the caller goes on without the lock: a lock nobody released in time, or an error. */
  why?: string;
  release(): void;
}

const pause = new Int32Array(new SharedArrayBuffer(4));

/**
 * Takes the lock at `lockPath`, waiting at most `waitMs`. Never throws.
 * @example const lock = acquireLogLock('/p/.claude/decisions.jsonl.lock'); try { append() } finally { lock.release() }
 */
export function acquireLogLock(lockPath: string, options: LogLockOptions = {}): LogLock {
  const now = options.now ?? Date.now;
  const waitMs = options.waitMs ?? LOCK_WAIT_MS;
  const staleMs = options.staleMs ?? LOCK_STALE_MS;
  const deadline = now() + waitMs;
  let delay = 1;
  for (;;) {
    try {
      return create(lockPath);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') return notHeld(`cannot make the lock ${lockPath}: ${(e as Error).message}`);
    }
    if (takeOverStale(lockPath, now(), staleMs)) continue;
    const left = deadline - now();
    if (left <= 0) return notHeld(`${lockPath} was held for longer than ${waitMs} ms`);
    // Backoff with jitter, so that waiting runners do not retry in step.
    Atomics.wait(pause, 0, 0, Math.min(left, delay + Math.random() * delay));
    delay = Math.min(delay * 2, 32);
  }
}

function create(lockPath: string): LogLock {
  const fd = fs.openSync(lockPath, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_NONBLOCK, 0o600);
  let ino: number;
  try {
    ino = fs.fstatSync(fd).ino;
    fs.writeSync(fd, `${process.pid} ${os.hostname()}`);
  } finally {
    fs.closeSync(fd);
  }
  return {
    held: true,
    release() {
      try {
        // Only this runner's own lock: one taken over meanwhile belongs to another.
        if (fs.lstatSync(lockPath).ino === ino) fs.unlinkSync(lockPath);
      } catch {
        // Already gone (taken over and released): nothing to give up.
      }
    },
  };
}

function notHeld(why: string): LogLock {
  return { held: false, why, release() {} };
}

/**
 * True when the lock at `lockPath` was stale and is gone now (or was gone already): the
 * caller tries again at once. Only plain files and symlinks are removed, never a folder.
 */
function takeOverStale(lockPath: string, nowMs: number, staleMs: number): boolean {
  let stat: fs.Stats;
  try {
    stat = fs.lstatSync(lockPath);
  } catch {
    return true;
  }
  if (!stat.isFile() && !stat.isSymbolicLink()) return false;
  if (!(nowMs - stat.mtimeMs > staleMs || (stat.isFile() && ownerIsGone(lockPath)))) return false;
  // Moved aside, then checked to be the file judged stale: two runners taking over at
  // once must not remove the fresh lock the first one made.
  const aside = `${lockPath}.stale-${process.pid}-${Math.random().toString(36).slice(2)}`;
  try {
    fs.renameSync(lockPath, aside);
  } catch {
    return true;
  }
  try {
    if (fs.lstatSync(aside).ino !== stat.ino) fs.linkSync(aside, lockPath);
  } catch {
    // Someone made a new lock in between: it stays theirs.
  } finally {
    try {
      fs.unlinkSync(aside);
    } catch {
      // Nothing to clean.
    }
  }
  return true;
}

/** The lock names a process of this host that no longer runs. */
function ownerIsGone(lockPath: string): boolean {
  let text: string;
  try {
    const fd = fs.openSync(lockPath, O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
    try {
      const buf = Buffer.alloc(256);
      text = buf.toString('utf8', 0, fs.readSync(fd, buf, 0, buf.length, 0));
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return false;
  }
  const m = /^(\d+) (.*)$/.exec(text);
  if (!m || m[2] !== os.hostname() || Number(m[1]) === process.pid) return false;
  try {
    process.kill(Number(m[1]), 0);
    return false;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ESRCH';
  }
}
