/**
 * The hash of a log's last line, read from its end: one positional read of the last
 * 4 KiB in the common case, however long the log is. A longer last line is found by
 * reading further back and hashed in chunks, so memory stays bounded.
 * The hash is the runner's own SHA-256 (sha256.ts says why not node:crypto).
 */
import * as fs from 'fs';
import { sha256 } from '../../decision-log/sha256';
import { readAt } from '../regular-file';
import { GENESIS } from '../../decision-log/chain';

const TAIL_BYTES = 4096;
const CHUNK_BYTES = 64 * 1024;

export interface LogTail {
  /** What the next line's `prev` is: the last line's hash, or GENESIS for an empty file. */
  hash: string;
  /** False when the last line has no new line after it (a write cut short): the next record starts with one. */
  terminated: boolean;
}

/**
 * @example lastLineHash(fd, fs.fstatSync(fd).size) // { hash: '9c1e…', terminated: true }
 */
export function lastLineHash(fd: number, size: number): LogTail {
  if (size === 0) return { hash: GENESIS, terminated: true };
  const tailStart = Math.max(0, size - TAIL_BYTES);
  const tail = readAt(fd, tailStart, size - tailStart);
  const terminated = tail[tail.length - 1] === 0x0a;
  const end = size - (terminated ? 1 : 0);
  const endInTail = end - tailStart;
  const nl = endInTail === 0 ? -1 : tail.lastIndexOf(0x0a, endInTail - 1);
  if (nl >= 0 || tailStart === 0) return { hash: sha256().update(tail.subarray(nl + 1, endInTail)).hex(), terminated };
  // The last line is longer than the tail: find where it starts, then hash it forwards.
  let start = 0;
  for (let chunkEnd = tailStart; chunkEnd > 0;) {
    const chunkStart = Math.max(0, chunkEnd - CHUNK_BYTES);
    const at = readAt(fd, chunkStart, chunkEnd - chunkStart).lastIndexOf(0x0a);
    if (at >= 0) {
      start = chunkStart + at + 1;
      break;
    }
    chunkEnd = chunkStart;
  }
  const hash = sha256();
  for (let at = start; at < end; at += CHUNK_BYTES) hash.update(readAt(fd, at, Math.min(CHUNK_BYTES, end - at)));
  return { hash: hash.hex(), terminated };
}

/** How long an unterminated last line is watched for the rest of a write another appender is making. */
const SETTLE_MS = 1;
const SETTLE_READS = 20;

/**
 * lastLineHash, for a log another process may be appending to without the lock (one that
 * gave up waiting): a line it is writing shows half written (the size grows page by page),
 * and taken for a line cut short it would get a new line of its own after it. An
 * unterminated end is read again while the size moves, and kept only once it has stayed for
 * SETTLE_MS. Returns the tail and the size it is of.
 * @example settledTail(fd, size) // { hash: '9c1e…', terminated: true, size: 4242 }
 */
export function settledTail(fd: number, size: number): LogTail & { size: number } {
  let at = size;
  let tail = lastLineHash(fd, at);
  for (let reads = 1; !tail.terminated && reads < SETTLE_READS; reads++) {
    const until = Date.now() + SETTLE_MS;
    let now = at;
    while (now === at && Date.now() <= until) now = Number(fs.fstatSync(fd).size);
    if (now === at) break;
    at = now;
    tail = lastLineHash(fd, at);
  }
  return { ...tail, size: at };
}

/** How far back from the end a line the appender left is looked for when it is not where it was left. */
const FIND_BYTES = 256 * 1024;

/**
 * True when the log, `size` bytes long, still holds the line whose hash is `hash`: where it
 * ended (`end`), or, when that line is not there (a line before it edited, lines appended
 * after it without the lock), among the lines of its last FIND_BYTES.
 * @example holdsLine(fd, 4242, 4242, '9c1e…') // true
 */
export function holdsLine(fd: number, size: number, end: number, hash: string): boolean {
  if (end > 0 && end <= size) {
    const at = lastLineHash(fd, end);
    if (at.terminated && at.hash === hash) return true;
  }
  const start = Math.max(0, size - FIND_BYTES);
  const bytes = readAt(fd, start, size - start);
  // A window that starts inside a line begins at the next one.
  let from = 0;
  if (start > 0) {
    const first = bytes.indexOf(0x0a);
    if (first < 0) return false;
    from = first + 1;
  }
  for (let nl = bytes.indexOf(0x0a, from); nl !== -1; nl = bytes.indexOf(0x0a, from)) {
    if (sha256().update(bytes.subarray(from, nl)).hex() === hash) return true;
    from = nl + 1;
  }
  return false;
}

