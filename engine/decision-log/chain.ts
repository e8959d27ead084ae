/**
 * The decision log's hash chain: each line carries `prev`, the SHA-256 (hex) of the line
 * before it, its exact bytes without the new line; the first line of a file carries
 * GENESIS. A line's hash is therefore fixed by every line before it: editing, removing,
 * inserting or reordering a line breaks the link of the line after it.
 */
import { createHash } from 'crypto';

/** The `prev` of a file's first line: 64 zeros (no line comes before it). */
export const GENESIS = '0'.repeat(64);

/** What a `prev` looks like: SHA-256, lower-case hex. */
export const HASH_PATTERN = /^[0-9a-f]{64}$/;

/**
 * The hash the next line's `prev` names.
 * @example lineHash(Buffer.from('{"time":"…"}')) // '9c1e…' (64 hex digits)
 */
export function lineHash(line: Uint8Array): string {
  return createHash('sha256').update(line).digest('hex');
}

/** A file's bytes cut into lines (without their new lines). */
export interface SplitLines {
  lines: Uint8Array[];
  /** False when the last line has no new line after it: a write cut short. */
  terminated: boolean;
}

/**
 * The lines of a file, byte for byte (no decoding, so a hash is over what is on disk).
 * An empty file has no lines; a final new line ends the last line, it does not start one.
 * @example splitLines(Buffer.from('a\nb\n')).lines.length // 2
 */
export function splitLines(bytes: Uint8Array): SplitLines {
  const lines: Uint8Array[] = [];
  let start = 0;
  for (let nl = bytes.indexOf(0x0a); nl !== -1; nl = bytes.indexOf(0x0a, start)) {
    lines.push(bytes.subarray(start, nl));
    start = nl + 1;
  }
  if (start < bytes.length) lines.push(bytes.subarray(start));
  return { lines, terminated: start === bytes.length };
}
