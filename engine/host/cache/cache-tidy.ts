/**
 * What a stored build removes from its cache folder, from one listing of the folder: the
 * views of the same roots' earlier builds, another engine's files for the same roots, and,
 * at most once an hour per folder, the builds whose roots are gone. One cache folder holds
 * the builds of every project of the user (12 files or so each, kept a month after a
 * project goes), so it can hold thousands of files: listed three times and with a stat per
 * build, 6,500 of them cost the first event after an edit ~20 ms.
 */
import * as fs from 'fs';
import * as path from 'path';
import { removeAbandonedBuilds } from './abandoned-builds';
import { listFolder, removeOtherBuilds, removeOtherViews } from './cache-store';

/** How often a folder is swept for builds whose roots are gone (their grace is a month). */
export const SWEEP_INTERVAL_MS = 3600 * 1000;

/** The file in a cache folder whose modification time says when it was last swept. */
export const SWEEP_STAMP = 'sweep.stamp';

/**
 * Removes what the build `name` just stored in `dir` makes old: the views other than
 * `keptViews` of its own roots (none when null: its head was not written), other engines'
 * files for its roots, and, when the folder is due a sweep, abandoned builds. Returns the
 * files removed.
 * @example tidyAfterBuild('/c', '5d1f...e2.json', new Set(['5d1f...e2.view.0a1b2c3d.json']), Date.now()) // ['/c/5d1f...e2.view.77c303ff.json']
 */
export function tidyAfterBuild(dir: string, name: string, keptViews: ReadonlySet<string> | null, nowMs: number): string[] {
  const files = listFolder(dir);
  const removed = keptViews ? removeOtherViews(dir, name, keptViews, files) : [];
  removed.push(...removeOtherBuilds(dir, name, nowMs, files));
  if (claimSweep(dir, nowMs)) removed.push(...removeAbandonedBuilds(dir, name, nowMs, files));
  return removed;
}

/**
 * True when `dir` is due a sweep: its stamp is missing, is not a plain file, or was written
 * SWEEP_INTERVAL_MS or more before `nowMs` (or as long after it: a clock set back). A
 * missing or plain stamp then says now; one that cannot be written leaves the folder due
 * at every build.
 * @example claimSweep('/c', Date.now()) // true, and false for the next hour
 */
export function claimSweep(dir: string, nowMs: number): boolean {
  const stamp = path.join(dir, SWEEP_STAMP);
  let last: fs.Stats | undefined;
  try {
    last = fs.lstatSync(stamp, { throwIfNoEntry: false });
  } catch {
    last = undefined;
  }
  if (last?.isFile() && Math.abs(nowMs - last.mtimeMs) < SWEEP_INTERVAL_MS) return false;
  // Anything else in the stamp's place (a link, a FIFO, a folder) stays, and is never opened.
  if (last === undefined || last.isFile()) writeStamp(stamp);
  return true;
}

/** O_NOFOLLOW and O_NONBLOCK: a link or a FIFO put there since the lstat is neither followed nor waited on. */
const STAMP_FLAGS = fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_TRUNC | (fs.constants.O_NOFOLLOW ?? 0) | (fs.constants.O_NONBLOCK ?? 0);

function writeStamp(stamp: string): void {
  try {
    const fd = fs.openSync(stamp, STAMP_FLAGS, 0o600);
    try {
      fs.writeSync(fd, `${new Date().toISOString()}\n`);
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    // Not stamped: the next build sweeps again, as every build did before the stamp.
  }
}
