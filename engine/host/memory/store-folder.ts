/**
 * The store's folder: made on first use (mode 0700), and used only while it is a real
 * folder of this user that nobody else can write, reached inside the project without a
 * symbolic link leading out. An agent that could swap the folder for a link, or another
 * user who could write into it, could otherwise plant or read records.
 */
import * as fs from 'fs';
import * as path from 'path';
import { isInside, leadsOutOf, nearestExisting } from '../folder-paths';

/** What is at the store's path is not a folder the store will use. */
export class StoreRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StoreRefusedError';
  }
}

/** Folders that passed, by path: what identityAt said of each before its check. */
const checked = new Map<string, string>();

/**
 * Makes the store folder when missing and checks it; throws StoreRefusedError (or the
 * file system's own error). A folder that passed is checked again in full only when its
 * path no longer leads to the same folder (real path, inode), owner and mode: a
 * long-lived process (the policy server) sees a folder swapped for a link, moved out of
 * the project or opened to others at the next event, as a runner started for that event
 * would.
 * @example ensureStoreFolder('/p/.claude/hookpolicy/memory', '/p')
 */
export function ensureStoreFolder(dir: string, projectRoot: string): void {
  let seen = identityAt(dir);
  if (seen !== null && checked.get(dir) === seen.key) return;
  checked.delete(dir);
  const inProject = isInside(dir, path.resolve(projectRoot));
  let st = seen?.st ?? lstatOrNull(dir);
  if (!st) {
    // mkdir follows symlinks: the nearest existing folder must stay in the project first.
    if (inProject) checkInsideProject(nearestExisting(path.dirname(dir)), projectRoot);
    fs.mkdirSync(path.dirname(dir), { recursive: true });
    try {
      fs.mkdirSync(dir, { mode: 0o700 });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    seen = identityAt(dir);
    st = seen?.st ?? fs.lstatSync(dir);
  }
  if (st.isSymbolicLink()) throw new StoreRefusedError(`${dir} is a symbolic link; the memory store does not follow one`);
  if (!st.isDirectory()) throw new StoreRefusedError(`${dir} is not a folder`);
  if (typeof process.getuid === 'function' && process.platform !== 'win32') {
    if (st.uid !== process.getuid()) throw new StoreRefusedError(`${dir} is owned by another user (uid ${st.uid})`);
    if ((st.mode & 0o022) !== 0) throw new StoreRefusedError(`${dir} can be written by other users (mode ${(st.mode & 0o777).toString(8)}); chmod 700 it`);
  }
  if (inProject) checkInsideProject(dir, projectRoot);
  // What was seen before the checks: a change made meanwhile is checked at the next call.
  if (seen !== null) checked.set(dir, seen.key);
}

/**
 * What a check of the folder rests on (`key`): where its path really leads, the inode
 * there, whose, its mode; with the lstat it was read from. Null when the path leads nowhere.
 */
function identityAt(dir: string): { key: string; st: fs.Stats } | null {
  try {
    const st = fs.lstatSync(dir);
    return { key: `${fs.realpathSync.native(dir)}\0${st.dev}:${st.ino}:${st.mode}:${st.uid}`, st };
  } catch {
    return null;
  }
}

/** Forgets which folders passed (tests change folders under a running process). */
export function forgetStoreFolders(): void {
  checked.clear();
}

function checkInsideProject(folder: string, projectRoot: string): void {
  const real = leadsOutOf(folder, projectRoot);
  if (real !== null) throw new StoreRefusedError(`${folder} leads out of the project (to ${real}) through a symbolic link`);
}

function lstatOrNull(file: string): fs.Stats | null {
  try {
    return fs.lstatSync(file);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
}


