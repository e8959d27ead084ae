/**
 * The long-lived appender: what a process that records many decisions (the policy server)
 * keeps from one append to the next, so that a logged decision costs it a few system calls
 * instead of the command-mode runner's opens, reads and hashing.
 *
 * It keeps the log open, the file beside it open (last-line.ts), and the log's stamp
 * (inode, size, ctime) and last line's hash as its own last append left them. Each append
 * takes the log's lock without waiting (tryLogLock: command-mode runners append to the same
 * log at the same time), then checks cheaply that nobody appended, replaced or linked the
 * log in between (one fstat of the open log, one lstat of its path); when the stamp is its
 * own, the record is chained to the hash it kept and written; otherwise it goes the
 * command-mode way (append.ts: the descriptor checked against the path, what is there set
 * aside, the end checked, notices), and keeps what that left.
 *
 * It never blocks its thread: a lock another process holds has the record queued and
 * written, in order, by a timer as soon as the lock is free; after as long as a command-mode
 * runner would wait (lock.ts), it is written without the lock, as theirs is, with log-lock.
 */
import * as fs from 'fs';
import * as path from 'path';
import { diagnostic } from '../../diagnostics';
import { noticeText, type LogNotice } from '../../decision-log/notice';
import type { DecisionRecord, Diagnostic } from '../../types';
import { LogRefusedError, openLogForAppend } from '../log-file';
import { appendUnderLock, lockPathOf, pendingLine, type AppendedLine, type PendingLine } from './append';
import { LastLineRefused, lastLinePathOf, openLastLine, type LastLineFile } from './last-line';
import { LOCK_MAX_WAIT_MS, LOCK_WAIT_MS, SUSPECT_MS, tryLogLock, type LogLock } from './lock';

export interface DecisionAppenderOptions {
  /** Warnings of appends that were queued (another process held the lock), once written. */
  onProblem?: (problem: Diagnostic) => void;
  /** The clock (epoch ms), for tests and notices. */
  now?: () => number;
  /** The first retry of a queued append, in ms (doubling up to 16). Default 1. */
  retryMs?: number;
  /** As lock.ts's LOCK_WAIT_MS and LOCK_MAX_WAIT_MS, before a queued record is written without the lock. */
  waitMs?: number;
  maxWaitMs?: number;
}

/**
 * What became of an append: written (its `prev` set) with a warning or none; or queued
 * behind a lock another process holds, `done` settling (never rejecting) once written.
 */
export type AppendOutcome =
  | { written: true; problem: Diagnostic | null }
  | { written: false; done: Promise<Diagnostic | null> };

/** A decision log kept open by a long-lived process. */
export interface DecisionAppender {
  /** The log's absolute path. */
  readonly file: string;
  /**
   * Appends `record`, chained (its `prev` is set). When the log's lock is free the record
   * is on disk and `prev` set before this returns; when another process holds it, the
   * record is queued and written in order as soon as it is free. The warnings are
   * log-notice, log-lock and log-error, as appendDecisionRecord's.
   * @example const out = appender.append(record); if (out.written) console.log(record.prev)
   */
  append(record: DecisionRecord): AppendOutcome;
  /** Resolves once every queued record is written. */
  flush(): Promise<void>;
  /** Writes what is queued, then closes the files it kept open. */
  close(): Promise<void>;
}

/** The log's stamp right after this appender's last line, and that line's hash. */
interface Kept {
  ino: bigint;
  dev: bigint;
  size: bigint;
  ctimeNs: bigint;
  hash: string;
}

interface Queued {
  record: DecisionRecord;
  line: PendingLine;
  done: (problem: Diagnostic | null) => void;
}

/**
 * @example const appender = createDecisionAppender('.claude/decisions.jsonl', '/p'); await appender.append(record); record.prev // '9c1e…'
 */
export function createDecisionAppender(file: string, projectRoot: string, options: DecisionAppenderOptions = {}): DecisionAppender {
  const target = path.resolve(projectRoot, file);
  const lockPath = lockPathOf(target);
  const lastPath = lastLinePathOf(target);
  const now = options.now ?? Date.now;
  let fd: number | null = null;
  let last: LastLineFile | null = null;
  let kept: Kept | null = null;
  const queue: Queued[] = [];
  let timer: NodeJS.Timeout | null = null;
  let delay = options.retryMs ?? 1;
  let waitingSince = 0;
  let holder: string | null = null;
  let holderSince = 0;
  let idle: Array<() => void> = [];

  /** The log opened (or null when what is at its path is to be set aside under the lock). */
  const logFd = (): number | null => {
    if (fd !== null) return fd;
    try {
      fd = openLogForAppend(target, projectRoot, { readable: true, keepLinked: true });
    } catch (e) {
      if (!(e instanceof LogRefusedError) || e.atPath === null) throw e;
    }
    return fd;
  };

  /** Writes one record with the lock held (or given up): the kept stamp's way when it holds, else append.ts's. */
  const write = (entry: Queued, lock: LogLock): Diagnostic | null => {
    try {
      const open = lock.held ? fastFd() : null;
      let written: AppendedLine;
      if (open !== null && kept !== null && last !== null) written = appendKept(open, kept, last, entry.line);
      else {
        written = appendUnderLock(logFd(), { logPath: target, projectRoot, held: lock.held, now }, entry.line);
        adopt(written);
      }
      kept = written.after ? { ino: written.after.ino, dev: written.after.dev, size: written.after.size, ctimeNs: written.after.ctimeNs, hash: written.hash } : null;
      entry.record.prev = written.prev;
      if (!lock.held) return diagnostic('log-lock', `appended without the decision log's lock: ${lock.why ?? 'it was held too long'}`, { file: target });
      return noticeProblem(written.notices, target);
    } catch (e) {
      kept = null;
      return diagnostic('log-error', `cannot write the decision log: ${(e as Error).message}`, { file: target });
    }
  };

  /**
   * The open log when nobody wrote, replaced or linked it since this appender's last line,
   * and the file beside it is still the one kept open; null otherwise.
   */
  const fastFd = (): number | null => {
    if (fd === null || kept === null || last === null) return null;
    try {
      const open = fs.fstatSync(fd, { bigint: true });
      if (open.ino !== kept.ino || open.size !== kept.size || open.ctimeNs !== kept.ctimeNs || open.nlink !== 1n) return null;
      const named = fs.lstatSync(target, { bigint: true });
      if (named.ino !== open.ino || named.dev !== open.dev) return null;
      return fs.lstatSync(lastPath, { bigint: true }).ino === last.ino ? fd : null;
    } catch {
      return null;
    }
  };

  /** Keeps what the full path left: the descriptor it wrote to, and the file beside the log (opened anew: it may have been set aside). */
  const adopt = (written: AppendedLine): void => {
    if (written.fd !== fd) {
      if (fd !== null) fs.closeSync(fd);
      fd = written.fd;
    }
    last?.close();
    const reopened = openLastLine(lastPath);
    last = reopened instanceof LastLineRefused ? null : reopened;
  };

  const drain = (): void => {
    timer = null;
    // Whether the holder is dead is asked only of one seen holding the lock for a while (lock.ts).
    const lock = tryLogLock(lockPath, { now }, now() - holderSince >= SUSPECT_MS);
    if (!lock.held && lock.holder !== undefined) {
      const at = now();
      // A lock that changes hands is a queue that moves: waited for longer (lock.ts).
      if (lock.holder !== holder) {
        holder = lock.holder ?? null;
        holderSince = at;
      }
      const waitMs = options.waitMs ?? LOCK_WAIT_MS;
      const maxWaitMs = Math.max(waitMs, options.maxWaitMs ?? LOCK_MAX_WAIT_MS);
      if (at - holderSince < waitMs && at - waitingSince < maxWaitMs) {
        schedule();
        return;
      }
    }
    try {
      // Everything queued goes in this one hold of the lock, in order.
      for (const entry of queue.splice(0)) {
        const problem = write(entry, lock);
        if (problem) options.onProblem?.(problem);
        entry.done(problem);
      }
    } finally {
      lock.release();
    }
    delay = options.retryMs ?? 1;
    for (const resolve of idle.splice(0)) resolve();
  };

  const schedule = (): void => {
    if (timer !== null) return;
    timer = setTimeout(drain, delay);
    delay = Math.min(delay * 2, 16);
  };

  const flush = (): Promise<void> => (queue.length === 0 ? Promise.resolve() : new Promise((resolve) => idle.push(resolve)));

  return {
    file: target,
    append(record) {
      const { prev: _unchained, ...unchained } = record;
      let line: PendingLine;
      try {
        line = pendingLine(JSON.stringify(unchained));
      } catch (e) {
        return { written: true, problem: diagnostic('log-error', `cannot write the decision log: ${(e as Error).message}`, { file: target }) };
      }
      // Behind records already waiting: the log keeps the order they came in.
      if (queue.length === 0) {
        // Opened first: a log's first append makes its folder, where the lock goes.
        try {
          logFd();
        } catch {
          // Refused (a folder leading out): write() says so.
        }
        const lock = tryLogLock(lockPath, { now }, false);
        // Held, or not to be had at all (the folder cannot take it): written now, as a runner would.
        if (lock.held || lock.holder === undefined) {
          try {
            return { written: true, problem: write({ record, line, done: () => undefined }, lock) };
          } finally {
            lock.release();
          }
        }
        waitingSince = now();
        holder = lock.holder ?? null;
        holderSince = waitingSince;
      }
      const done = new Promise<Diagnostic | null>((resolve) => {
        queue.push({ record, line, done: resolve });
        schedule();
      });
      return { written: false, done };
    },
    flush,
    async close() {
      await flush();
      last?.close();
      last = null;
      if (fd !== null) fs.closeSync(fd);
      fd = null;
      kept = null;
      idle = [];
    },
  };
}

/**
 * The fast path: the record chained to the kept hash, written, and the new stamp left
 * beside the log. The log's stamp was checked by the caller under the lock.
 */
function appendKept(fd: number, kept: Kept, last: LastLineFile, line: PendingLine): AppendedLine {
  const ending = Buffer.from(`${kept.hash}"}`, 'latin1');
  const bytes = Buffer.concat([line.head, ending, NEWLINE]);
  for (let written = 0; written < bytes.length;) written += fs.writeSync(fd, bytes, written, bytes.length - written);
  const hash = line.begun.update(ending).hex();
  const after = fs.fstatSync(fd, { bigint: true });
  const mine = after.size === kept.size + BigInt(bytes.length);
  if (mine) {
    try {
      last.record(after, hash);
    } catch {
      // The next appender hashes the tail itself.
    }
  }
  return { prev: kept.hash, notices: [], fd, after: mine ? after : null, hash };
}

const NEWLINE = Buffer.from('\n');

function noticeProblem(notices: readonly LogNotice[], file: string): Diagnostic | null {
  return notices.length > 0 ? diagnostic('log-notice', notices.map(noticeText).join('; '), { file }) : null;
}
