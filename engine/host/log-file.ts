/**
 * Opening the decision log without trusting what is at its path: the agent a rule confines
 * can replace the log with a FIFO (an open for writing would wait for a reader), a symlink
 * or a hard link to a file outside the project (each record would be appended there), or a
 * folder symlink leading out of the project. The log is opened non-blocking, without
 * following a symlink as its last component, and used only when it is a regular file with
 * one link, in a folder that stays inside the project.
 *
 * What is at the path itself (a symlink, a FIFO, a device, a folder, a second name of the
 * log) can be set aside: renamed beside it, never followed, opened or removed, so that the
 * records go on into a new file (the decision log's appender and the memory journal do).
 */
import * as fs from 'fs';
import * as path from 'path';
import { isInside, leadsOutOf, nearestExisting } from './folder-paths';

const { O_WRONLY, O_RDWR, O_APPEND, O_CREAT } = fs.constants;
/** Absent on Windows, where neither a FIFO nor a symlink can be planted this way. */
const O_NONBLOCK = fs.constants.O_NONBLOCK ?? 0;
const O_NOFOLLOW = fs.constants.O_NOFOLLOW ?? 0;
const APPEND = O_WRONLY | O_APPEND | O_CREAT | O_NONBLOCK | O_NOFOLLOW;
/** Appending, and reading the tail (the decision log's hash chain reads its last line). */
const READ_APPEND = O_RDWR | O_APPEND | O_CREAT | O_NONBLOCK | O_NOFOLLOW;

export interface OpenLogOptions {
  /** Open for reading too (positional reads; writes still go to the end). */
  readable?: boolean;
  /** Return a regular file with other hard links too: the caller sets it aside (its nlink says so). */
  keepLinked?: boolean;
}

/** What is at the log's path is not a file the runner will append to. */
export class LogRefusedError extends Error {
  /**
   * What is at the path, when it is the path itself that is wrong (a symlink, a FIFO, a
   * folder, a file with other names) and setting it aside would let a new log begin; null
   * when it is a folder on the way (leading out of the project).
   */
  readonly atPath: string | null;

  constructor(message: string, atPath: string | null = null) {
    super(message);
    this.name = 'LogRefusedError';
    this.atPath = atPath;
  }
}

/**
 * A descriptor open for appending to `target` (folders made when missing); throws
 * LogRefusedError when the path is not a plain file of the project, or the open's own error.
 * Never blocks: a FIFO without a reader fails at once (ENXIO), one with a reader is refused.
 * @example const fd = openLogForAppend('/p/.claude/decisions.jsonl', '/p'); fs.writeSync(fd, line); fs.closeSync(fd);
 */
export function openLogForAppend(target: string, projectRoot: string, options: OpenLogOptions = {}): number {
  const flags = options.readable ? READ_APPEND : APPEND;
  const folder = path.dirname(target);
  const inProject = isInside(target, path.resolve(projectRoot));
  let fd: number;
  try {
    // Checked before the open (O_CREAT would make the file where a symlinked folder leads)
    // and after it (a folder swapped for a symlink in between).
    if (inProject) checkFolder(folder, projectRoot);
    fd = fs.openSync(target, flags, 0o666);
  } catch (e) {
    if (e instanceof LogRefusedError) throw e;
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ELOOP' || code === 'EMLINK') throw new LogRefusedError(`${target} is a symbolic link; the log does not follow one`, 'a symbolic link');
    if (code === 'ENXIO') throw new LogRefusedError(`${target} is not a regular file (a FIFO or a socket)`, 'a FIFO or a socket');
    if (code === 'EISDIR') throw new LogRefusedError(`${target} is not a regular file (a folder)`, 'a folder');
    if (code !== 'ENOENT') throw e;
    // The folder is made only when the first write finds it missing, and never through a
    // symlink out of the project (mkdir would follow it).
    if (inProject) checkFolder(nearestExisting(folder), projectRoot);
    fs.mkdirSync(folder, { recursive: true });
    fd = fs.openSync(target, flags, 0o666);
  }
  try {
    const stat = fs.fstatSync(fd);
    if (!stat.isFile()) throw new LogRefusedError(`${target} is not a regular file (${kind(stat)})`, kind(stat));
    if (stat.nlink > 1 && !options.keepLinked) throw new LogRefusedError(`${target} has ${stat.nlink} hard links; the log must be a file of its own`, `a file with ${stat.nlink} links`);
    if (inProject) checkFolder(folder, projectRoot);
    return fd;
  } catch (e) {
    fs.closeSync(fd);
    throw e;
  }
}

/**
 * Renames what is at `target` to `<target>.set-aside-<time>-<nonce>` beside it, whatever
 * it is (nothing is followed, opened or removed); returns the new name (a base name), or
 * null when nothing was there any more. Throws the rename's other errors.
 * @example setAsideAtPath('/p/.claude/decisions.jsonl') // 'decisions.jsonl.set-aside-20260115T100000Z-k3j9x2'
 */
export function setAsideAtPath(target: string): string | null {
  const stamp = new Date().toISOString().replace(/[-:]/g, '').replace(/\.\d+/, '');
  const name = `${path.basename(target)}.set-aside-${stamp}-${Math.random().toString(36).slice(2, 8)}`;
  try {
    fs.renameSync(target, path.join(path.dirname(target), name));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
  return name;
}

/** Throws when `folder`'s real path leaves the project (a symlinked folder on the way). */
function checkFolder(folder: string, projectRoot: string): void {
  const real = leadsOutOf(folder, projectRoot);
  if (real !== null) throw new LogRefusedError(`${folder} leads out of the project (to ${real}) through a symbolic link`);
}



function kind(stat: fs.Stats): string {
  if (stat.isFIFO()) return 'a FIFO';
  if (stat.isSocket()) return 'a socket';
  if (stat.isDirectory()) return 'a folder';
  if (stat.isCharacterDevice() || stat.isBlockDevice()) return 'a device';
  return 'not a file';
}
