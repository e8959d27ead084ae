/**
 * Appending one fail-open (or fail-closed) line. Only the failure path loads this: an event
 * the runner judged pays nothing. The file is in the first cache folder only this user can
 * write (cacheFolderDistrust), which self-protection guards like the rest of the cache: the
 * confined agent can neither remove it nor plant a FIFO or a symlink there. One planted
 * anyway (a FIFO, a symlink, a second name for the file) is set aside, never followed or
 * waited on, and the count goes on in a new file: a planted link does not hide a fail-open.
 */
import * as fs from 'fs';
import * as path from 'path';
import { cacheDirectories, cacheFolderDistrust } from '../cache';
import { isoTime } from '../iso-time';
import { LogRefusedError, openLogForAppend, setAsideAtPath } from '../log-file';

/** The file's name in its cache folder. */
export const FAIL_OPEN_FILE = 'fail-opens.jsonl';
/** Past this size the file is renamed to `fail-opens.1.jsonl` (one older generation kept). */
export const FAIL_OPEN_ROTATE_BYTES = 8 * 1024 * 1024;

/** One line of the file. */
export interface FailOpenRecord {
  time: string;
  /** The project root the event was for. */
  project: string;
  session_id: string | null;
  /** The event's name, or null when stdin held no readable event. */
  event: string | null;
  tool: string | null;
  /** The first error's code and message (the answer names them all on stderr). */
  code: string;
  message: string;
  /** `open`: the call went through unjudged; `closed`: it was stopped unjudged. */
  on_error: 'open' | 'closed';
}

export interface RecordFailOpenOptions {
  env: Readonly<Record<string, string | undefined>>;
  /** The cache folders (tests); defaults to cacheDirectories(env). */
  dirs?: string[];
}

/**
 * The first cache folder this user alone can write (made 0700 when missing), or null.
 * @example failOpenFolder(process.env) // '/home/me/.cache/hookpolicy'
 */
export function failOpenFolder(env: Readonly<Record<string, string | undefined>>, dirs: string[] = cacheDirectories(env)): string | null {
  for (const dir of dirs) {
    if (cacheFolderDistrust(dir) !== null) continue;
    try {
      fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    } catch {
      continue;
    }
    if (cacheFolderDistrust(dir) === null) return dir;
  }
  return null;
}

/**
 * Appends `record` as one line with a single O_APPEND write, so concurrent runners never
 * interleave inside a line. Returns an error message instead of throwing (the answer is
 * already decided; the runner only warns).
 * @example recordFailOpen(record, { env: process.env }) // null
 */
export function recordFailOpen(record: FailOpenRecord, options: RecordFailOpenOptions): string | null {
  const folder = failOpenFolder(options.env, options.dirs);
  if (folder === null) return 'no cache folder only this user can write';
  const file = path.join(folder, FAIL_OPEN_FILE);
  const line = Buffer.from(`${JSON.stringify(record)}\n`, 'utf8');
  try {
    let fd = openCounter(file, folder);
    if (fs.fstatSync(fd).size > FAIL_OPEN_ROTATE_BYTES) {
      fs.closeSync(fd);
      // Two runners rotating at once may drop one generation: the count restarts, never lies upward.
      fs.renameSync(file, path.join(folder, FAIL_OPEN_FILE.replace('.jsonl', '.1.jsonl')));
      fd = openLogForAppend(file, folder);
    }
    try {
      fs.writeSync(fd, line);
    } finally {
      fs.closeSync(fd);
    }
    return null;
  } catch (e) {
    return `cannot write ${file}: ${(e as Error).message}`;
  }
}

/** The counter open for appending; what is at its path when it is not a plain file of one link is set aside first. */
function openCounter(file: string, folder: string): number {
  let fd: number;
  try {
    fd = openLogForAppend(file, folder, { keepLinked: true });
  } catch (e) {
    if (!(e instanceof LogRefusedError) || e.atPath === null) throw e;
    setAsideAtPath(file);
    return openLogForAppend(file, folder);
  }
  if (fs.fstatSync(fd).nlink === 1) return fd;
  fs.closeSync(fd);
  setAsideAtPath(file);
  return openLogForAppend(file, folder);
}

/** A record for now, from what the runner knew when it failed. */
export function failOpenRecord(fields: Omit<FailOpenRecord, 'time'>, nowMs: number): FailOpenRecord {
  return { time: isoTime(nowMs), ...fields };
}
