/**
 * The lock that serializes appends to one decision log: reading the last line and
 * appending the next must be one step, or two appenders chain to the same line (and one
 * may read the other's line half written). It sits beside the log (`decisions.jsonl.lock`)
 * and is made atomically or not at all: a symbolic link whose text is `pid host nonce`
 * (one syscall, fails when anything is at the path, and is never followed: only lstat,
 * readlink and unlink touch it), or where symlinks cannot be made (Windows without the
 * privilege), a file made with O_EXCL | O_NOFOLLOW.
 *
 * A lock is taken over only when its holder can no longer release it: its process is gone
 * (same host), or it is older than LOCK_STALE_MS and names another host or no process, or
 * older than LOCK_HUNG_MS whoever holds it (a hung runner, a reused pid). A lock is known by
 * its text (the nonce) and inode, read again once the takeover has begun: a lock released
 * and made anew in between is another lock, and is left to its holder. Takeovers go one at
 * a time, under a second lock made the same way (`decisions.jsonl.lock.break`), so that two
 * runners that found the same dead lock cannot remove the lock the first of them made next.
 *
 * acquireLogLock waits (the command-mode runner): while the lock keeps changing hands up to
 * LOCK_MAX_WAIT_MS, while it stays with one holder LOCK_WAIT_MS; then the caller appends
 * without it (the record is never dropped) and warns. tryLogLock never waits (the policy
 * server's appender, which queues what it could not append).
 */
import * as fs from 'fs';
import { processAlive } from '../process-alive';

/** How long a runner waits while the lock stays with one holder (held for well under 1 ms). */
export const LOCK_WAIT_MS = 3000;
/**
 * How long a runner waits in all while the lock changes hands: 200 runners started at once
 * on 2 loaded cores queue for several seconds (the robustness test), and each that gave up
 * would write without the lock.
 */
export const LOCK_MAX_WAIT_MS = 15_000;
/** A lock older than this that names another host, or no process, is taken over. */
export const LOCK_STALE_MS = 3000;
/**
 * A lock older than this is taken over whoever holds it: a live holder of this host that
 * kept it so long hangs, or its pid was reused. A holder descheduled on a loaded machine
 * must not look stale, or two runners chain to the same line.
 */
export const LOCK_HUNG_MS = 30_000;

const { O_WRONLY, O_CREAT, O_EXCL, O_RDONLY } = fs.constants;
const O_NOFOLLOW = fs.constants.O_NOFOLLOW ?? 0;
const O_NONBLOCK = fs.constants.O_NONBLOCK ?? 0;

export interface LogLockOptions {
  /**
   * How long a holder is seen holding the lock before it is asked whether it is dead
   * (default SUSPECT_MS): a live holder keeps it well under 1 ms, and asking (a signal, a
   * read of /proc) at every look, from hundreds of waiting runners, took the CPU the holder
   * needed to give it back.
   */
  suspectMs?: number;
  /** How long to wait while the lock stays with one holder (default LOCK_WAIT_MS). */
  waitMs?: number;
  /** How long to wait in all while it changes hands (default LOCK_MAX_WAIT_MS). */
  maxWaitMs?: number;
  staleMs?: number;
  hungMs?: number;
  /** The clock (epoch ms), for tests. */
  now?: () => number;
}

/** A held lock, or why it is not held (`release` is then a no-op). */
export interface LogLock {
  held: boolean;
  /** Why the caller goes on without the lock: a lock nobody released in time, or an error. */
  why?: string;
  /**
   * tryLogLock, not held because another holds it: which lock (its inode and text), to tell
   * a queue that moves from one that does not. Absent when the lock cannot be made at all.
   */
  holder?: string;
  release(): void;
}

const pause = new Int32Array(new SharedArrayBuffer(4));
/** Set once symlinks turn out not to be allowed here: the O_EXCL file from then on. */
let filesOnly = false;
/** Retries at once in a row (the lock was gone, or just taken over) before the wait pauses anyway. */
const QUICK_RETRIES = 8;
/** See LogLockOptions.suspectMs. */
export const SUSPECT_MS = 50;
/** The longest pause between two looks (before jitter). */
const MAX_PAUSE_MS = 8;

/**
 * Takes the lock at `lockPath`, waiting as the module comment says, with Atomics.wait:
 * only a process with nothing else to do calls it. Never throws.
 * @example const lock = acquireLogLock('/p/.claude/decisions.jsonl.lock'); try { append() } finally { lock.release() }
 */
export function acquireLogLock(lockPath: string, options: LogLockOptions = {}): LogLock {
  const now = options.now ?? Date.now;
  const waitMs = options.waitMs ?? LOCK_WAIT_MS;
  const started = now();
  const cap = started + Math.max(waitMs, options.maxWaitMs ?? LOCK_MAX_WAIT_MS);
  const suspectMs = options.suspectMs ?? SUSPECT_MS;
  let deadline = started + waitMs;
  let holder: string | null = null;
  let holderSince = started;
  // The lock changed hands: the queue moves, so the wait goes on (up to the cap).
  const suspect = (id: string, at: number): boolean => {
    if (id !== holder) {
      holder = id;
      holderSince = at;
      deadline = Math.min(cap, Math.max(deadline, at + waitMs));
    }
    return at - holderSince >= suspectMs;
  };
  let quick = 0;
  let delay = 1;
  for (;;) {
    const attempt = tryOnce(lockPath, options, now, suspect);
    if ('lock' in attempt) return attempt.lock;
    if (attempt.holder === null && quick++ < QUICK_RETRIES) continue;
    const at = now();
    if (at >= deadline) {
      return notHeld(deadline >= cap && cap - started > waitMs ? `${lockPath} was busy for longer than ${cap - started} ms` : `${lockPath} was held for longer than ${waitMs} ms`);
    }
    quick = 0;
    // Backoff with jitter, so that waiting runners do not retry in step; capped low, so a
    // queue of runners hands the lock on quickly.
    Atomics.wait(pause, 0, 0, Math.min(deadline - at, delay + Math.random() * delay));
    delay = Math.min(delay * 2, MAX_PAUSE_MS);
  }
}

/**
 * Takes the lock at `lockPath` if it can at once (a dead lock taken over first, when
 * `judge`: the caller has seen the same holder for a while); a lock not held (`holder`
 * says which) otherwise. Never waits, never throws.
 * @example const lock = tryLogLock(lockPath); if (!lock.held) queueForLater();
 */
export function tryLogLock(lockPath: string, options: LogLockOptions = {}, judge = true): LogLock {
  const now = options.now ?? Date.now;
  for (let i = 0; i < 2; i++) {
    const attempt = tryOnce(lockPath, options, now, () => judge);
    if ('lock' in attempt) return attempt.lock;
    if (attempt.holder !== null) return { ...notHeld(`${lockPath} is held`), holder: attempt.holder };
  }
  // Gone each time it was looked at: it is changing hands.
  return { ...notHeld(`${lockPath} is held`), holder: '' };
}

type Attempt = { lock: LogLock } | { holder: string | null };

/**
 * One try: the lock, or who holds it (null: nobody any more, or a dead lock just removed:
 * try again). Whether the holder is dead is asked only when `suspect` says it has held the
 * lock long enough to be.
 */
function tryOnce(lockPath: string, options: LogLockOptions, now: () => number, suspect: (id: string, at: number) => boolean): Attempt {
  try {
    return { lock: create(lockPath, ownerText()) };
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') return { lock: notHeld(`cannot make the lock ${lockPath}: ${(e as Error).message}`) };
  }
  const at = now();
  const seen = observe(lockPath, at);
  if (seen === null) return { holder: null };
  if (suspect(seen.id, at) && isDead(seen, options) && takeOver(lockPath, seen, options, now)) return { holder: null };
  return { holder: seen.id };
}

/** A lock as found at its path: what it is (its inode and text), whom it names, and how old it is. */
interface SeenLock {
  id: string;
  kind: 'link' | 'file' | 'other';
  text: string;
  owner: { pid: number; host: string } | null;
  ageMs: number;
}

function observe(lockPath: string, nowMs: number): SeenLock | null {
  let stat: fs.Stats;
  try {
    stat = fs.lstatSync(lockPath);
  } catch {
    return null;
  }
  const kind = stat.isSymbolicLink() ? 'link' : stat.isFile() ? 'file' : 'other';
  const text = kind === 'link' ? readLink(lockPath) : kind === 'file' ? readSmallFile(lockPath) : '';
  if (text === null) return null;
  const m = /^(\d+) (\S+)/.exec(text);
  return { id: `${kind} ${stat.ino} ${text}`, kind, text, owner: m ? { pid: Number(m[1]), host: m[2] } : null, ageMs: nowMs - stat.mtimeMs };
}

/** Nobody will release it: its process is gone (this host), or it is older than its kind of holder may keep it. */
function isDead(seen: SeenLock, options: LogLockOptions): boolean {
  if (seen.kind === 'other') return false;
  const { owner } = seen;
  if (owner !== null && owner.host === hostname()) {
    if (owner.pid !== process.pid && !processAlive(owner.pid)) return true;
    return seen.ageMs > (options.hungMs ?? LOCK_HUNG_MS);
  }
  return seen.ageMs > (options.staleMs ?? LOCK_STALE_MS);
}

/**
 * Removes the dead lock `seen`, under the takeover lock; true when it is gone (or was
 * gone already), false when another runner is taking over or the lock cannot be moved.
 */
function takeOver(lockPath: string, seen: SeenLock, options: LogLockOptions, now: () => number): boolean {
  const breakPath = `${lockPath}.break`;
  let breaker: LogLock;
  try {
    breaker = create(breakPath, ownerText());
  } catch {
    // Another runner is taking over (or one died doing so: cleared for the next round).
    const other = observe(breakPath, now());
    if (other !== null && isDead(other, options)) removeIfSame(breakPath, other);
    return false;
  }
  try {
    const again = observe(lockPath, now());
    // Released and made anew since it was judged: another holder's lock, judged afresh next round.
    if (again === null || again.id !== seen.id) return true;
    const aside = `${lockPath}.stale-${process.pid}-${nonce()}`;
    try {
      fs.renameSync(lockPath, aside);
    } catch {
      return false;
    }
    const moved = observe(aside, now());
    // Only a lock judged by its age can have been released since: the new one goes back.
    if (moved !== null && moved.id !== seen.id) putBack(aside, lockPath, moved);
    unlinkQuietly(aside);
    return true;
  } finally {
    breaker.release();
  }
}

function putBack(aside: string, lockPath: string, moved: SeenLock): void {
  try {
    if (moved.kind === 'link') fs.symlinkSync(moved.text, lockPath);
    else fs.linkSync(aside, lockPath);
  } catch {
    // A lock made in the moment it was away: both holders append; verify would show it.
  }
}

/** Removes a dead takeover lock when it is still the one judged (a runner died taking over). */
function removeIfSame(file: string, seen: SeenLock): void {
  const again = observe(file, Date.now());
  if (again !== null && again.id === seen.id) unlinkQuietly(file);
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
  return held(lockPath, () => fs.lstatSync(lockPath).ino === ino && readSmallFile(lockPath) === owner);
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

function ownerText(): string {
  return `${process.pid} ${hostname()} ${nonce()}`;
}

function nonce(): string {
  return Math.random().toString(36).slice(2, 12).padEnd(10, '0');
}

function unlinkQuietly(file: string): void {
  try {
    fs.unlinkSync(file);
  } catch {
    // Gone already.
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

let host: string | undefined;

/** This host's name; node:os loaded when first needed (a runner that never takes a lock never loads it). */
function hostname(): string {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  host ??= (require('os') as typeof import('os')).hostname();
  return host;
}
