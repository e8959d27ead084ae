/**
 * Opening a file without trusting what is at its path. The confined agent can plant a FIFO
 * where a file is read (a plain open for reading waits for a writer: the runner would hang
 * until Claude Code's hook timeout let the call through unjudged), a device, a folder, or a
 * symlink. A file is opened without blocking, and used only when it is a regular file.
 */
import * as fs from 'fs';

const { O_RDONLY } = fs.constants;
/** Absent on Windows, where neither a FIFO nor a symlink can be planted this way. */
const O_NONBLOCK = fs.constants.O_NONBLOCK ?? 0;
const O_NOFOLLOW = fs.constants.O_NOFOLLOW ?? 0;

/** What is at the path is not a regular file: it is not read. */
export class NotPlainFileError extends Error {
  constructor(readonly file: string, readonly kind: string) {
    super(`${file} is not a regular file (${kind})`);
    this.name = 'NotPlainFileError';
  }
}

export interface OpenRegularOptions {
  /** Follow a symlink as the last component (default false: a symlink is refused). */
  followLinks?: boolean;
}

/**
 * A descriptor open for reading `file`, a regular file; the caller closes it. Throws the
 * open's own error (ENOENT for a plain miss), or NotPlainFileError for a FIFO, a socket, a
 * device, a folder, or (unless followed) a symlink.
 * @example const fd = openRegularFile('/p/.claude/decisions.jsonl', { followLinks: true });
 */
export function openRegularFile(file: string, options: OpenRegularOptions = {}): number {
  return openChecked(file, options, false).fd;
}

/**
 * The text of a regular file, read as openRegularFile opens it (no symlink followed).
 * @example readPlainFile('/home/me/.cache/hookpolicy/ab.head.json')
 */
export function readPlainFile(file: string): string {
  return readPlainBytes(file).toString('utf8');
}

/**
 * The bytes of a regular file, read as openRegularFile opens it (no symlink followed).
 * @example readPlainBytes('/home/me/.cache/hookpolicy/ab.head.json')
 */
export function readPlainBytes(file: string): Buffer {
  const { fd, stats } = openChecked(file, {}, false);
  try {
    return readAt(fd, 0, stats.size);
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * The bytes of a regular file and its stats (bigint, from the open descriptor, so they are
 * the stats of the bytes read), read as openRegularFile opens it. With `maxBytes`, a file
 * larger than that is refused (FileTooLargeError) before anything is read.
 * @example readPlainWithStats('/home/me/.cache/hookpolicy/ab.view.1234abcd.json').stats.ino
 */
export function readPlainWithStats(file: string, maxBytes = Infinity): { bytes: Buffer; stats: fs.BigIntStats } {
  const { fd, stats } = openChecked(file, {}, true);
  try {
    if (Number(stats.size) > maxBytes) throw new FileTooLargeError(file, Number(stats.size), maxBytes);
    return { bytes: readAt(fd, 0, Number(stats.size)), stats };
  } finally {
    fs.closeSync(fd);
  }
}

/** A regular file larger than its reader takes: not read. */
export class FileTooLargeError extends Error {
  constructor(readonly file: string, readonly size: number, readonly maxBytes: number) {
    super(`${file} is ${size} bytes, more than ${maxBytes}`);
    this.name = 'FileTooLargeError';
  }
}

/**
 * openRegularFile, with the one fstat that judged the file (bigint when asked): the
 * readers above read its size from it instead of taking the stats again.
 */
function openChecked(file: string, options: OpenRegularOptions, bigint: false): { fd: number; stats: fs.Stats };
function openChecked(file: string, options: OpenRegularOptions, bigint: true): { fd: number; stats: fs.BigIntStats };
function openChecked(file: string, options: OpenRegularOptions, bigint: boolean): { fd: number; stats: fs.Stats | fs.BigIntStats } {
  let fd: number;
  try {
    fd = fs.openSync(file, O_RDONLY | O_NONBLOCK | (options.followLinks ? 0 : O_NOFOLLOW));
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ELOOP' || code === 'EMLINK') throw new NotPlainFileError(file, 'a symbolic link');
    throw e;
  }
  try {
    const stats = bigint ? fs.fstatSync(fd, { bigint: true }) : fs.fstatSync(fd);
    if (!stats.isFile()) throw new NotPlainFileError(file, stats.isFIFO() ? 'a FIFO' : stats.isDirectory() ? 'a folder' : stats.isSocket() ? 'a socket' : 'a device');
    return { fd, stats };
  } catch (e) {
    fs.closeSync(fd);
    throw e;
  }
}

/**
 * Up to `length` bytes of `fd` from `position` (fewer only at the end of the file).
 * @example readAt(fd, 0, 4096).lastIndexOf(0x0a)
 */
export function readAt(fd: number, position: number, length: number): Buffer {
  const buf = Buffer.allocUnsafe(length);
  let got = 0;
  while (got < length) {
    const n = fs.readSync(fd, buf, got, length - got, position + got);
    if (n === 0) break;
    got += n;
  }
  return got === length ? buf : buf.subarray(0, got);
}
