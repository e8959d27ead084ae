/**
 * The records of an outbox: one file each, in a folder only this user can write. A runner
 * adds its record (written to a temporary name, then renamed in); the drainer claims each
 * by renaming it to a name of its own, delivers it, and deletes it, or renames it back to
 * be tried again. Names sort oldest first, so a record put back keeps its place.
 *
 * A record is read only when it is a regular file of one link and at most MAX_RECORD_BYTES
 * (opened O_NOFOLLOW | O_NONBLOCK, judged by fstat before a byte is read): a symlink to
 * /dev/zero, a FIFO or a huge file planted as a record is set aside unread, never followed,
 * waited on or read into memory.
 */
import * as fs from 'fs';
import * as path from 'path';
import { setAsideAtPath } from '../log-file';
import { readPlainWithStats } from '../regular-file';
import { processAlive } from './lock';

/** The largest record a drainer reads (a decision record, a memory record: far less). */
export const MAX_RECORD_BYTES = 1024 * 1024;

let queued = 0;
const RECORD = '.rec';
/** Records a sink refused for good (an answer no retry can change): kept, not lost. */
export const REJECTED_FOLDER = 'rejected';
const { O_WRONLY, O_CREAT, O_EXCL } = fs.constants;
const O_NOFOLLOW = fs.constants.O_NOFOLLOW ?? 0;

/**
 * Adds one record (any text) to the outbox: written to a temporary name, then renamed, so
 * a drainer never reads half of it. Throws when it cannot be written.
 * @example enqueue(folder, JSON.stringify(envelope))
 */
export function enqueue(folder: string, text: string): void {
  // Sorted by name is oldest first: the time, then this process's own count within one ms.
  const name = `${Date.now().toString(36).padStart(9, '0')}-${process.pid.toString(36)}-${(queued++).toString(36).padStart(4, '0')}-${Math.random().toString(36).slice(2, 10)}`;
  const temporary = path.join(folder, `${name}.tmp`);
  const fd = fs.openSync(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0o600);
  try {
    fs.writeSync(fd, text);
  } finally {
    fs.closeSync(fd);
  }
  fs.renameSync(temporary, path.join(folder, `${name}${RECORD}`));
}

/**
 * Claims up to `max` records, oldest first, by renaming each to a name of this process:
 * a record another drainer claimed first is skipped. Records a dead drainer had claimed
 * are claimed again. Returns the claimed files.
 * @example claimRecords(folder, 64) // ['/…/lr2x0k1a9-1f3-0000-8c2d.rec.4242.sending']
 */
export function claimRecords(folder: string, max: number): string[] {
  let names: string[];
  try {
    names = fs.readdirSync(folder).sort();
  } catch {
    return [];
  }
  const claimed: string[] = [];
  for (const name of names) {
    if (claimed.length >= max) break;
    if (!name.endsWith(RECORD) && !orphanedClaim(name)) continue;
    const target = path.join(folder, `${recordName(name)}.${process.pid}.sending`);
    try {
      fs.renameSync(path.join(folder, name), target);
      claimed.push(target);
    } catch {
      // Claimed by another drainer in between.
    }
  }
  return claimed;
}

/**
 * Puts claimed records back under their first names, in their places, to be tried again.
 * @example returnRecords(claimRecords(folder, 8))
 */
export function returnRecords(files: readonly string[]): void {
  for (const file of files) {
    try {
      fs.renameSync(file, path.join(path.dirname(file), recordName(path.basename(file))));
    } catch {
      // Gone: taken over by another drainer that found this one dead.
    }
  }
}

/**
 * The text of a claimed record, or null when it is not one to read: not a regular file of
 * one link (a symlink, a FIFO, a device, a second name), larger than MAX_RECORD_BYTES, or
 * gone. Never follows, never waits, reads at most MAX_RECORD_BYTES.
 * @example readRecord('/…/lr2x0k1a9-1f3-0000-8c2d.rec.4242.sending') // '{"record":…}'
 */
export function readRecord(file: string): string | null {
  try {
    const { bytes, stats } = readPlainWithStats(file, MAX_RECORD_BYTES);
    return stats.nlink === 1n ? bytes.toString('utf8') : null;
  } catch {
    return null;
  }
}

/**
 * Moves claimed records a sink refused for good (or that are no records to read) into the
 * `rejected` folder beside them, where they stay for a person to read: no retry would
 * change the answer. A `rejected` that is not a plain folder is set aside first.
 */
export function setAside(files: readonly string[]): void {
  for (const file of files) {
    const folder = path.join(path.dirname(file), REJECTED_FOLDER);
    try {
      if (!isPlainFolder(folder)) setAsideAtPath(folder);
      fs.mkdirSync(folder, { mode: 0o700, recursive: true });
      fs.renameSync(file, path.join(folder, recordName(path.basename(file))));
    } catch {
      // Gone, or no room for it: left for the next drainer.
    }
  }
}

/** True when `folder` is a folder (not a symlink to one), or nothing is there yet. */
function isPlainFolder(folder: string): boolean {
  try {
    const st = fs.lstatSync(folder);
    return st.isDirectory() && !st.isSymbolicLink();
  } catch {
    return true;
  }
}

/** Deletes delivered records. */
export function removeRecords(files: readonly string[]): void {
  for (const file of files) {
    try {
      fs.unlinkSync(file);
    } catch {
      // Already gone.
    }
  }
}

/**
 * True when records wait in the outbox (claimed ones of a live drainer aside).
 * @example hasRecords(folder) // false once everything was delivered
 */
export function hasRecords(folder: string): boolean {
  try {
    return fs.readdirSync(folder).some((n) => n.endsWith(RECORD) || orphanedClaim(n));
  } catch {
    return false;
  }
}

/** `NAME.rec` of a record file, claimed (`NAME.rec.PID.sending`) or not. */
function recordName(name: string): string {
  return name.slice(0, name.indexOf(RECORD) + RECORD.length);
}

/** `NAME.rec.PID.sending` whose PID is gone: a drainer died while delivering it. */
function orphanedClaim(name: string): boolean {
  const m = /\.rec\.(\d+)\.sending$/.exec(name);
  return m !== null && Number(m[1]) !== process.pid && !processAlive(Number(m[1]));
}
