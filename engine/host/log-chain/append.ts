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
 */
import * as fs from 'fs';
import { sha256 } from '../../decision-log/sha256';
import { lastLinePathOf, openLastLine, type LastLineFile } from './last-line';
import { acquireLogLock, type LogLockOptions } from './lock';
import { settledTail } from './tail';

export interface ChainedAppendResult {
  /** The `prev` the line was given. */
  prev: string;
  /** Set when the line was appended without the lock (why): another runner may have chained to the same line. */
  unlocked?: string;
}

/**
 * Appends `object` (a JSON object's text, without `prev`) to the log `logPath` open at
 * `fd` (O_APPEND, readable), with `prev` added as its last member, and a new line.
 * Errors of the read or the write are thrown; a lock not had is reported, not thrown.
 * @example appendChainedLine(fd, '/p/.claude/decisions.jsonl', JSON.stringify(record)).prev // '9c1e…'
 */
export function appendChainedLine(fd: number, logPath: string, object: string, options: LogLockOptions = {}): ChainedAppendResult {
  if (!object.startsWith('{') || !object.endsWith('}') || object === '{}') throw new Error('a chained record is a JSON object with members');
  const head = Buffer.from(`${object.slice(0, -1)},"prev":"`, 'utf8');
  const begun = sha256().update(head);
  const lock = acquireLogLock(lockPathOf(logPath), options);
  // Without the lock, another appender may be rewriting the file beside the log: left alone.
  const last = lock.held ? openLastLine(lastLinePathOf(logPath)) : null;
  try {
    const before = fs.fstatSync(fd, { bigint: true });
    const known = last?.hashFor(before);
    const tail = known ? { hash: known, terminated: true, size: Number(before.size) } : settledTail(fd, Number(before.size));
    const ending = Buffer.from(`${tail.hash}"}`, 'latin1');
    const bytes = Buffer.concat([tail.terminated ? Buffer.alloc(0) : Buffer.from('\n'), head, ending, Buffer.from('\n')]);
    for (let written = 0; written < bytes.length;) written += fs.writeSync(fd, bytes, written, bytes.length - written);
    if (last) rememberLine(fd, last, BigInt(tail.size + bytes.length), begun.update(ending).hex());
    return lock.held ? { prev: tail.hash } : { prev: tail.hash, unlocked: lock.why };
  } finally {
    last?.close();
    lock.release();
  }
}

/**
 * Leaves the new line's hash for the next appender, when the log ends with the line: a
 * writer that appended meanwhile without the lock (one that gave up waiting) moved the
 * size on, and the file then keeps a size no later log has. A failure costs the next
 * appender a hash, never a record.
 */
function rememberLine(fd: number, last: LastLineFile, expectedSize: bigint, hash: string): void {
  try {
    const after = fs.fstatSync(fd, { bigint: true });
    if (after.size === expectedSize) last.record(after, hash);
  } catch {
    // The next appender hashes the tail itself.
  }
}

/** Where the lock of the log at `logPath` is. */
export function lockPathOf(logPath: string): string {
  return `${logPath}.lock`;
}
