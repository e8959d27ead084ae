/**
 * Reading a cache file without trusting what is at its path. A FIFO planted where the
 * runner reads a cache file would make it wait until Claude Code's hook timeout lets the
 * call through unjudged; a symlink would make it read a file elsewhere. A cache file is
 * read only when it is a regular file, opened without blocking and without following a
 * symlink as its last component.
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

/**
 * The file's text; throws the open's own error (ENOENT for a plain miss), or
 * NotPlainFileError for a FIFO, a socket, a device, a folder or a symlink.
 * @example readPlainFile('/home/me/.cache/hookpolicy/ab.head.json')
 */
export function readPlainFile(file: string): string {
  let fd: number;
  try {
    fd = fs.openSync(file, O_RDONLY | O_NONBLOCK | O_NOFOLLOW);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ELOOP' || code === 'EMLINK') throw new NotPlainFileError(file, 'a symbolic link');
    throw e;
  }
  try {
    const stat = fs.fstatSync(fd);
    if (!stat.isFile()) throw new NotPlainFileError(file, stat.isFIFO() ? 'a FIFO' : stat.isDirectory() ? 'a folder' : stat.isSocket() ? 'a socket' : 'a device');
    return fs.readFileSync(fd, 'utf8');
  } finally {
    fs.closeSync(fd);
  }
}
