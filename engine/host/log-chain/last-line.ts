/**
 * The last line's hash as the runner that appended it left it, in a file beside the log
 * (`<log>.last`): `<inode> <size> <ctime> <hash>`, the log's stamp right after the line
 * (ctime in nanoseconds) and the line's hash. Read and written only under the log's lock,
 * it spares the next appender hashing the log's tail under the lock: while the log still
 * has that stamp, nothing was written to it since (any write moves its ctime), so the
 * hash names its last line.
 *
 * Anything else (no file, another stamp, a malformed file) means the tail is hashed from
 * the log itself, as without the file. A wrong hash planted there gives the next line a
 * wrong `prev`: `policy log verify` then reports a break, as it would for a changed line.
 *
 * It also keeps the log's end: the size and last line's hash the appender left, which the
 * log must still hold (`policy log verify` checks it; the next appender writes a notice
 * when it does not). A symlink, FIFO, folder or hard link planted at its path is never
 * followed, read or written: openLastLine refuses it (the appender sets it aside).
 */
import * as fs from 'fs';
import type { LogEnd } from '../../decision-log/notice';

/** Absent on Windows, where neither a FIFO nor a symlink can be planted this way. */
const O_NONBLOCK = fs.constants.O_NONBLOCK ?? 0;
const O_NOFOLLOW = fs.constants.O_NOFOLLOW ?? 0;
const OPEN = fs.constants.O_RDWR | fs.constants.O_CREAT | O_NONBLOCK | O_NOFOLLOW;
/** Every record is the same length (numbers padded), so a rewrite in place leaves no old bytes behind. */
const DIGITS = 20;
const RECORD_BYTES = 3 * DIGITS + 64 + 4;
const RECORD = /^(\d{20} \d{20} \d{20}) ([0-9a-f]{64})\n$/;

/** What the log is, as fstat with bigint times gives it. */
export type LogStats = Pick<fs.BigIntStats, 'ino' | 'size' | 'ctimeNs'>;

/** What the file says: the log's stamp right after its last line, and that line's hash. */
export interface LastLineState extends LogStats {
  hash: string;
}

/**
 * Where the last line's hash of the log at `logPath` is kept.
 * @example lastLinePathOf('/p/.claude/decisions.jsonl') // '/p/.claude/decisions.jsonl.last'
 */
export function lastLinePathOf(logPath: string): string {
  return `${logPath}.last`;
}

/** The file beside the log, open for reading and rewriting; close() when done. */
export interface LastLineFile {
  /** Its inode: the file at the path is still this one while they match. */
  readonly ino: bigint;
  /** What it holds; null when it is empty or malformed. */
  state(): LastLineState | null;
  /** The hash of the log's last line when the file names the log as it is, else null. */
  hashFor(log: LogStats): string | null;
  /** Records `hash` as the last line's of the log as it is. Throws when it cannot. */
  record(log: LogStats, hash: string): void;
  close(): void;
}

/** Why the file at the path is not one the appender may use (a symlink, a FIFO, a second name...). */
export class LastLineRefused {
  constructor(readonly why: string) {}
}

/**
 * Opens (or makes) the file at `file`: LastLineRefused when what is there is not a plain
 * file of one link (it is then neither read nor written), null when it cannot be opened.
 * @example const last = openLastLine('/p/.claude/decisions.jsonl.last'); last instanceof LastLineRefused ? … : last?.hashFor(fs.fstatSync(fd, { bigint: true }))
 */
export function openLastLine(file: string): LastLineFile | LastLineRefused | null {
  let fd: number;
  try {
    fd = fs.openSync(file, OPEN, 0o644);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ELOOP' || code === 'EMLINK') return new LastLineRefused('a symbolic link');
    if (code === 'EISDIR') return new LastLineRefused('a folder');
    if (code === 'ENXIO') return new LastLineRefused('a FIFO or a socket');
    return null;
  }
  let ino: bigint;
  try {
    const stat = fs.fstatSync(fd, { bigint: true });
    // A hard link would have the runner write into another file (one outside the project
    // too), and let whoever holds the other name rewrite the end the log is checked against.
    const why = !stat.isFile() ? (stat.isFIFO() ? 'a FIFO' : 'not a regular file') : stat.nlink !== 1n ? `a file with ${stat.nlink} links` : null;
    if (why !== null) {
      fs.closeSync(fd);
      return new LastLineRefused(why);
    }
    ino = stat.ino;
  } catch {
    fs.closeSync(fd);
    return null;
  }
  const state = (): LastLineState | null => parseState(readRecord(fd));
  return {
    ino,
    state,
    hashFor(log) {
      const found = state();
      return found && found.ino === log.ino && found.size === log.size && found.ctimeNs === log.ctimeNs ? found.hash : null;
    },
    record(log, hash) {
      const text = `${stamp(log)} ${hash}\n`;
      for (let written = 0; written < text.length;) written += fs.writeSync(fd, text.slice(written), written, 'latin1');
    },
    close() {
      fs.closeSync(fd);
    },
  };
}

/**
 * The end the appender last left the log at, for `policy log verify`: null when there is
 * no file; `{ problem }` when what is there is not the appender's own (a link, a FIFO, a
 * second name, text it never writes). Read without the lock: a record being rewritten as
 * it is read is read again.
 * @example readLogEnd('/p/.claude/decisions.jsonl.last') // { end: { size: 4242, head: '9c1e…' } }
 */
export function readLogEnd(file: string): { end: LogEnd } | { problem: string } | null {
  let fd: number;
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | O_NONBLOCK | O_NOFOLLOW);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return null;
    return { problem: `${file} ${code === 'ELOOP' || code === 'EMLINK' ? 'is a symbolic link' : `cannot be read (${code})`}` };
  }
  try {
    const stat = fs.fstatSync(fd);
    if (!stat.isFile()) return { problem: `${file} is not a regular file` };
    if (stat.nlink !== 1) return { problem: `${file} has ${stat.nlink} links: another name can rewrite it` };
    for (let tries = 0; tries < 3; tries++) {
      const state = parseState(readRecord(fd));
      if (state) return { end: { size: Number(state.size), head: state.hash } };
    }
    return { problem: `${file} does not hold what its appender writes` };
  } finally {
    fs.closeSync(fd);
  }
}

function readRecord(fd: number): string {
  const bytes = Buffer.alloc(RECORD_BYTES + 1);
  const n = fs.readSync(fd, bytes, 0, bytes.length, 0);
  return bytes.toString('latin1', 0, n);
}

function parseState(text: string): LastLineState | null {
  const found = RECORD.exec(text);
  if (!found) return null;
  const [ino, size, ctimeNs] = found[1].split(' ').map((n) => BigInt(n));
  return { ino, size, ctimeNs, hash: found[2] };
}

function stamp(log: LogStats): string {
  return [log.ino, log.size, log.ctimeNs].map((n) => String(n).padStart(DIGITS, '0')).join(' ');
}
