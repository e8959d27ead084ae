/**
 * Appending one chained record: under the log's lock (lock.ts), the last line's hash is
 * found, and the record, which carries it as its last member `prev`, is appended with one
 * O_APPEND write.
 *
 * What runs under the lock stays short whatever the lines' length: the last line's hash
 * is usually read from the file its appender left beside the log (last-line.ts), not
 * computed from the log; and the new line's own hash, left there for the next appender,
 * is begun before the lock over everything up to `prev` (SHA-256 reads a message from its
 * start, so its state can be copied there), and only the last bytes are hashed under it.
 *
 * Under the lock the log is also checked against that file: a descriptor opened before the
 * lock must still be the file at the path (another appender may have set it aside); a log
 * that no longer holds the last line its appender wrote gets a `cut` notice; what is at
 * the path when it is not a plain file of one link (a second name, a symlink, a FIFO) is set
 * aside and a new log begun with a `set-aside` notice, so that no decision goes unrecorded
 * for a planted link (decision-log/notice.ts). Notices go in the same write as the record.
 */
import * as fs from 'fs';
import * as path from 'path';
import { sha256, type Sha256 } from '../../decision-log/sha256';
import { noticeRecord, type LogEnd, type LogNotice } from '../../decision-log/notice';
import { isoTime } from '../iso-time';
import { LogRefusedError, openLogForAppend, setAsideAtPath } from '../log-file';
import { LastLineRefused, lastLinePathOf, openLastLine, type LastLineFile, type LastLineState } from './last-line';
import { acquireLogLock, type LogLockOptions } from './lock';
import { holdsLine, lastLineHash, settledTail } from './tail';

export interface ChainedAppendOptions extends LogLockOptions {
  /** The project the log is in: a log reopened, or begun anew, is opened inside it (log-file.ts). */
  projectRoot: string;
}

export interface ChainedAppendResult {
  /** The `prev` the line was given. */
  prev: string;
  /** Set when the line was appended without the lock (why): another runner may have chained to the same line. */
  unlocked?: string;
  /** What the appender wrote about the log before the record. */
  notices: LogNotice[];
}

/** A record's line before `prev`: its bytes up to `"prev":"`, and their hash begun. */
export interface PendingLine {
  head: Buffer;
  begun: Sha256;
}

/**
 * The line `object` (a JSON object's text, without `prev`) becomes, begun before any lock.
 * @example pendingLine(JSON.stringify(record)).head.toString() // '{"time":…,"prev":"'
 */
export function pendingLine(object: string): PendingLine {
  if (!object.startsWith('{') || !object.endsWith('}') || object === '{}') throw new Error('a chained record is a JSON object with members');
  const head = Buffer.from(`${object.slice(0, -1)},"prev":"`, 'utf8');
  return { head, begun: sha256().update(head) };
}

/**
 * Appends `object` to the log `logPath`, open at `fd` (O_APPEND, readable, opened with
 * keepLinked; null when the open was refused for what is at the path), with `prev` added
 * as its last member, and a new line. Errors of the read or the write, and a log that can
 * be neither used nor set aside, are thrown; a lock not had is reported, not thrown.
 * @example appendChainedLine(fd, '/p/.claude/decisions.jsonl', JSON.stringify(record), { projectRoot: '/p' }).prev // '9c1e…'
 */
export function appendChainedLine(fd: number | null, logPath: string, object: string, options: ChainedAppendOptions): ChainedAppendResult {
  const line = pendingLine(object);
  const lock = acquireLogLock(lockPathOf(logPath), options);
  let written: AppendedLine | null = null;
  try {
    written = appendUnderLock(fd, { logPath, projectRoot: options.projectRoot, held: lock.held, now: options.now ?? Date.now }, line);
    return lock.held ? { prev: written.prev, notices: written.notices } : { prev: written.prev, unlocked: lock.why, notices: written.notices };
  } finally {
    if (written !== null && written.fd !== fd) fs.closeSync(written.fd);
    lock.release();
  }
}

export interface UnderLock {
  logPath: string;
  projectRoot: string;
  /** False when the caller goes on without the lock: nothing beside the log is read, written or set aside. */
  held: boolean;
  now: () => number;
}

/** What one append did, for its caller and the server's appender (which keeps `fd` and `after`). */
export interface AppendedLine {
  prev: string;
  notices: LogNotice[];
  /** The descriptor written to: `fd` as given, or the log opened anew (the caller closes it). */
  fd: number;
  /** The log right after the write, when this appender's line ends it; null otherwise. */
  after: fs.BigIntStats | null;
  /** The hash of the line written. */
  hash: string;
}

/**
 * The append itself, once the lock is held (or given up): checks, notices, one write, the
 * last line left beside the log. Command-mode runners and the server's appender share it.
 */
export function appendUnderLock(fd: number | null, at: UnderLock, line: PendingLine): AppendedLine {
  const notices: LogNotice[] = [];
  const last = at.held ? openLast(at.logPath, notices) : null;
  let target: Opened | null = null;
  try {
    const state = last?.state() ?? null;
    target = currentLog(fd, at, state, notices);
    const before = fs.fstatSync(target.fd, { bigint: true });
    const known = target.fresh ? null : last?.hashFor(before);
    const tail = known ? { hash: known, terminated: true, size: Number(before.size) } : settledTail(target.fd, Number(before.size));
    if (!known && !target.fresh && state !== null && !holdsEnd(target.fd, Number(before.size), state)) {
      notices.push({ kind: 'cut', had: endOf(state), found: tail.size });
    }
    const parts: Buffer[] = tail.terminated ? [] : [Buffer.from('\n')];
    let prev = tail.hash;
    const time = isoTime(at.now());
    for (const notice of notices) {
      const text = Buffer.from(JSON.stringify({ ...noticeRecord(notice, time), prev }), 'utf8');
      parts.push(text, Buffer.from('\n'));
      prev = sha256().update(text).hex();
    }
    const ending = Buffer.from(`${prev}"}`, 'latin1');
    parts.push(line.head, ending, Buffer.from('\n'));
    const bytes = Buffer.concat(parts);
    for (let written = 0; written < bytes.length;) written += fs.writeSync(target.fd, bytes, written, bytes.length - written);
    const hash = line.begun.update(ending).hex();
    const after = endsWithLine(target.fd, BigInt(tail.size + bytes.length));
    if (last && after) rememberLine(last, after, hash);
    return { prev, notices, fd: target.fd, after, hash };
  } catch (e) {
    if (target && target.fd !== fd) fs.closeSync(target.fd);
    throw e;
  } finally {
    last?.close();
  }
}

/** The file beside the log; one that is not the appender's own is set aside (and noted) and begun anew. */
function openLast(logPath: string, notices: LogNotice[]): LastLineFile | null {
  const file = lastLinePathOf(logPath);
  const last = openLastLine(file);
  if (!(last instanceof LastLineRefused)) return last;
  try {
    const aside = setAsideAtPath(file);
    notices.push({ kind: 'end-unchecked', why: `${path.basename(file)} was ${last.why}${aside ? `, set aside as ${aside}` : ''}` });
  } catch {
    return null;
  }
  const fresh = openLastLine(file);
  return fresh instanceof LastLineRefused ? null : fresh;
}

interface Opened {
  fd: number;
  /** A log begun by this append (what was at the path set aside): no end of its own to check. */
  fresh: boolean;
}

/**
 * The log to write: `fd` while it is still the plain file at the path; else the path
 * opened again, and what is there set aside (held lock only) when it is not a plain file
 * of one link.
 */
function currentLog(fd: number | null, at: UnderLock, state: LastLineState | null, notices: LogNotice[]): Opened {
  if (fd !== null && isAtPath(fd, at.logPath)) return { fd, fresh: false };
  let reopened: number;
  try {
    reopened = openLogForAppend(at.logPath, at.projectRoot, { readable: true, keepLinked: true });
  } catch (e) {
    if (!(e instanceof LogRefusedError) || e.atPath === null || !at.held) throw e;
    return setAside(at, e.atPath, null, state, notices);
  }
  const links = fs.fstatSync(reopened).nlink;
  if (links === 1) return { fd: reopened, fresh: false };
  if (!at.held) {
    fs.closeSync(reopened);
    throw new LogRefusedError(`${at.logPath} has ${links} hard links; the log must be a file of its own`, `a file with ${links} links`);
  }
  return setAside(at, `a file with ${links} links: another name was made for it`, reopened, state, notices);
}

/** True while `fd` is a regular file of one link, and the one at `logPath`. */
function isAtPath(fd: number, logPath: string): boolean {
  try {
    const open = fs.fstatSync(fd);
    if (!open.isFile() || open.nlink !== 1) return false;
    const named = fs.lstatSync(logPath);
    return named.ino === open.ino && named.dev === open.dev;
  } catch {
    return false;
  }
}

/**
 * Renames what is at the log's path aside and opens a new log there, noting it. `old` is
 * the set-aside file when it was a regular one (its size and last line are noted, and
 * whether it still held the end the appender left); it is closed here.
 */
function setAside(at: UnderLock, why: string, old: number | null, state: LastLineState | null, notices: LogNotice[]): Opened {
  let size: number | null = null;
  let head: string | null = null;
  let had: LogEnd | undefined = state ? endOf(state) : undefined;
  if (old !== null) {
    try {
      size = Number(fs.fstatSync(old).size);
      head = size > 0 ? lastLineHash(old, size).hash : null;
      if (state && holdsEnd(old, size, state)) had = undefined;
    } finally {
      fs.closeSync(old);
    }
  }
  for (let tries = 0; ; tries++) {
    const file = setAsideAtPath(at.logPath);
    if (file !== null) notices.push(had ? { kind: 'set-aside', file, why, size, head, had } : { kind: 'set-aside', file, why, size, head });
    try {
      return { fd: openLogForAppend(at.logPath, at.projectRoot, { readable: true }), fresh: true };
    } catch (e) {
      // Planted again at once: once more, then the record is not written (log-error).
      if (!(e instanceof LogRefusedError) || e.atPath === null || tries > 0) throw e;
      why = e.atPath;
      size = null;
      head = null;
      had = undefined;
    }
  }
}

/** True when the log, `size` bytes long, still holds the line its appender last wrote. */
function holdsEnd(fd: number, size: number, state: LastLineState): boolean {
  return holdsLine(fd, size, Number(state.size), state.hash);
}

function endOf(state: LastLineState): LogEnd {
  return { size: Number(state.size), head: state.hash };
}

/**
 * The log's stats right after the write, when it ends with this appender's line: a writer
 * that appended meanwhile without the lock (one that gave up waiting) moved the size on,
 * and the file beside the log then keeps a size no later log has.
 */
function endsWithLine(fd: number, expectedSize: bigint): fs.BigIntStats | null {
  try {
    const after = fs.fstatSync(fd, { bigint: true });
    return after.size === expectedSize ? after : null;
  } catch {
    return null;
  }
}

/** Leaves the new line's hash for the next appender. A failure costs the next appender a hash, never a record. */
function rememberLine(last: LastLineFile, after: fs.BigIntStats, hash: string): void {
  try {
    last.record(after, hash);
  } catch {
    // The next appender hashes the tail itself.
  }
}

/** Where the lock of the log at `logPath` is. */
export function lockPathOf(logPath: string): string {
  return `${logPath}.lock`;
}
