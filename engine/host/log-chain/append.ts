/**
 * Appending one chained line: under the log's lock (lock.ts), the last line's hash is read
 * from the file's end (tail.ts) and the new line, which carries it as `prev`, is appended
 * with one O_APPEND write.
 */
import * as fs from 'fs';
import { acquireLogLock, type LogLockOptions } from './lock';
import { hashing, lastLineHash } from './tail';

export interface ChainedAppendResult {
  /** The `prev` the line was given. */
  prev: string;
  /** Set when the line was appended without the lock (why): another runner may have chained to the same line. */
  unlocked?: string;
}

/**
 * Appends `line(prev)` and a new line to the log open at `fd` (O_APPEND, readable).
 * Errors of the read or the write are thrown; a lock not had is reported, not thrown.
 * @example appendChainedLine(fd, '/p/.claude/decisions.jsonl.lock', (prev) => JSON.stringify({ ...record, prev })).prev // '9c1e…'
 */
export function appendChainedLine(fd: number, lockPath: string, line: (prev: string) => string, options: LogLockOptions = {}): ChainedAppendResult {
  // node:crypto is loaded before the lock is taken: the time under it stays the read, the hash and the write.
  hashing();
  const lock = acquireLogLock(lockPath, options);
  try {
    const tail = lastLineHash(fd, fs.fstatSync(fd).size);
    const bytes = Buffer.from(`${tail.terminated ? '' : '\n'}${line(tail.hash)}\n`, 'utf8');
    for (let written = 0; written < bytes.length;) written += fs.writeSync(fd, bytes, written, bytes.length - written);
    return lock.held ? { prev: tail.hash } : { prev: tail.hash, unlocked: lock.why };
  } finally {
    lock.release();
  }
}

/** Where the lock of the log at `logPath` is. */
export function lockPathOf(logPath: string): string {
  return `${logPath}.lock`;
}
