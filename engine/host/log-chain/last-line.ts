/**
 * The last line's hash as the runner that appended it left it, in a file beside the log
 * (`<log>.last`): `<inode> <size> <ctime> <hash>`, the log's stamp right after the line
 * (ctime in nanoseconds) and the line's hash. Read and written only under the log's lock,
 * it spares the next appender hashing the log's tail under the lock: while the log still
 * has that stamp, nothing was written to it since (any write moves its ctime), so the
 * hash names its last line.
 *
 * Anything else (no file, another stamp, a malformed file, a symlink, a FIFO, a hard link
 * planted at the path) means the tail is hashed from the log itself, as without the file.
 * A wrong hash planted there gives the next line a wrong `prev`: `policy log verify` then
 * reports a break, as it would for a changed line.
 */
import * as fs from 'fs';

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

/**
 * Where the last line's hash of the log at `logPath` is kept.
 * @example lastLinePathOf('/p/.claude/decisions.jsonl') // '/p/.claude/decisions.jsonl.last'
 */
export function lastLinePathOf(logPath: string): string {
  return `${logPath}.last`;
}

/** The file beside the log, open for reading and rewriting; close() when done. */
export interface LastLineFile {
  /** The hash of the log's last line when the file names the log as it is, else null. */
  hashFor(log: LogStats): string | null;
  /** Records `hash` as the last line's of the log as it is. Throws when it cannot. */
  record(log: LogStats, hash: string): void;
  close(): void;
}

/**
 * Opens (or makes) the file at `file`; null when it cannot be opened or is not a plain
 * file of one link (it is then left alone, neither read nor written).
 * @example const last = openLastLine('/p/.claude/decisions.jsonl.last'); last?.hashFor(fs.fstatSync(fd, { bigint: true })) // '9c1e…' or null
 */
export function openLastLine(file: string): LastLineFile | null {
  let fd: number;
  try {
    fd = fs.openSync(file, OPEN, 0o644);
  } catch {
    return null;
  }
  try {
    const stat = fs.fstatSync(fd);
    // A hard link would have the runner write into another file (one outside the project too).
    if (!stat.isFile() || stat.nlink !== 1) {
      fs.closeSync(fd);
      return null;
    }
  } catch {
    fs.closeSync(fd);
    return null;
  }
  return {
    hashFor(log) {
      const bytes = Buffer.alloc(RECORD_BYTES + 1);
      const n = fs.readSync(fd, bytes, 0, bytes.length, 0);
      const found = RECORD.exec(bytes.toString('latin1', 0, n));
      return found && found[1] === stamp(log) ? found[2] : null;
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

function stamp(log: LogStats): string {
  return [log.ino, log.size, log.ctimeNs].map((n) => String(n).padStart(DIGITS, '0')).join(' ');
}
