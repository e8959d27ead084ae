/**
 * The lock that serializes appends to one decision log: reading the last line and
 * appending the next must be one step, or two runners chain to the same line. It sits
 * beside the log (`decisions.jsonl.lock`) and is made atomically or not at all: a symbolic
 * link whose text is `pid host nonce` (one syscall, fails when anything is at the path,
 * and is never followed: only lstat, readlink and unlink touch it), or where symlinks
 * cannot be made (Windows without the privilege), a file made with O_EXCL | O_NOFOLLOW.
 * A runner waits for it a bounded time and never blocks: a lock whose process is gone
 * (same host) or older than LOCK_STALE_MS is taken over; when the wait runs out the
 * caller appends without it (the record is never dropped) and warns.
 */
import * as fs from 'fs';

/**
 * How long a runner waits for the lock in all. It is held for well under 1 ms, but 200
 * runners started at once on 2 cores queue for more than 1.5 s (the robustness test).
 */
export const LOCK_WAIT_MS = 3000;
/**
 * A lock older than this belongs to a runner that hangs, or died where its pid cannot be
 * checked (another host): it is taken over. A holder descheduled on a loaded machine must
 * not look stale, or two runners chain to the same line.
 */
export const LOCK_STALE_MS = 3000;

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
/** Set once symlinks turn out not to be allowed here: the O_EXCL file from then on. */
let filesOnly = false;

/**
 * Takes the lock at `lockPath`, waiting at most `waitMs`. Never throws.
 * @example const lock = acquireLogLock('/p/.claude/decisions.jsonl.lock'); try { append() } finally { lock.release() }
 */
export function acquireLogLock(lockPath: string, options: LogLockOptions = {}): LogLock {
  const now = options.now ?? Date.now;
  const waitMs = options.waitMs ?? LOCK_WAIT_MS;
  const staleMs = options.staleMs ?? LOCK_STALE_MS;
  const owner = `${process.pid} ${os().hostname()} ${Math.random().toString(36).slice(2, 10)}`;
  const deadline = now() + waitMs;
  let delay = 1;
  for (;;) {
    try {
      return create(lockPath, owner);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') return notHeld(`cannot make the lock ${lockPath}: ${(e as Error).message}`);
    }
    if (takeOverStale(lockPath, now(), staleMs)) continue;
    const left = deadline - now();
    if (left <= 0) return notHeld(`${lockPath} was held for longer than ${waitMs} ms`);
    // Backoff with jitter, so that waiting runners do not retry in step; capped low, so a
    // queue of runners hands the lock on quickly.
    Atomics.wait(pause, 0, 0, Math.min(left, delay + Math.random() * delay));
    delay = Math.min(delay * 2, 8);
  }
}

function create(lockPath: string, owner: string): LogLock {
  if (!filesOnly) {
    try {
      fs.symlinkSync(owner, lockPath);
      return held(lockPath, () => fs.readlinkSync(lockPath) === owner);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code !== 'EPERM' && code !== 'ENOSYS' && code !== 'EOPNOTSUPP') throw e;
      filesOnly = true;
    }
  }
  const fd = fs.openSync(lockPath, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_NONBLOCK, 0o600);
  let ino: number;
  try {
    ino = fs.fstatSync(fd).ino;
    fs.writeSync(fd, owner);
  } finally {
    fs.closeSync(fd);
  }
  return held(lockPath, () => fs.lstatSync(lockPath).ino === ino);
}

function held(lockPath: string, stillOurs: () => boolean): LogLock {
  return {
    held: true,
    release() {
      try {
        // Only this runner's own lock: one taken over meanwhile belongs to another.
        if (stillOurs()) fs.unlinkSync(lockPath);
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
 * caller tries again at once. Only symlinks and plain files are removed, never a folder.
 */
function takeOverStale(lockPath: string, nowMs: number, staleMs: number): boolean {
  let stat: fs.Stats;
  try {
    stat = fs.lstatSync(lockPath);
  } catch {
    return true;
  }
  if (!stat.isFile() && !stat.isSymbolicLink()) return false;
  if (!(nowMs - stat.mtimeMs > staleMs || ownerIsGone(lockPath, stat))) return false;
  // Moved aside, then checked to be the lock judged stale: two runners taking over at
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
function ownerIsGone(lockPath: string, stat: fs.Stats): boolean {
  const text = stat.isSymbolicLink() ? readLink(lockPath) : readSmallFile(lockPath);
  const m = text === null ? null : /^(\d+) (\S*)/.exec(text);
  if (!m || m[2] !== os().hostname() || Number(m[1]) === process.pid) return false;
  try {
    process.kill(Number(m[1]), 0);
    return false;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

function readLink(file: string): string | null {
  try {
    return fs.readlinkSync(file);
  } catch {
    return null;
  }
}

function readSmallFile(file: string): string | null {
  try {
    const fd = fs.openSync(file, O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
    try {
      const buf = Buffer.alloc(256);
      return buf.toString('utf8', 0, fs.readSync(fd, buf, 0, buf.length, 0));
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return null;
  }
}

/** node:os, loaded when first needed: a runner that never takes a lock or ships never loads it. */
function os(): typeof import('os') {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('os') as typeof import('os');
}
