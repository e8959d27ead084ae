/**
 * Sweeps the cache folder of builds nobody can use any more: those whose root policy
 * files are gone (a deleted project or worktree, a moved policy file). The runner finds a
 * build by its roots, so once one of them is missing the build is never read again,
 * unless the file comes back (a branch switched away and back): hence a long grace period.
 * Also removes the temporary files of writes that never finished (a killed process).
 */
import * as fs from 'fs';
import { readPlainFile } from '../regular-file';
import * as path from 'path';
import { cacheStem, listFolder, olderThan, POLICY_CACHE_FILE, removeCacheFile } from './cache-store';
import { unsealed } from './cache-trust';

/** How long the files of a build whose roots are gone are kept after their last write. */
export const ABANDONED_BUILD_GRACE_MS = 30 * 24 * 3600 * 1000;

/** How long a temporary file of an unfinished write is kept (a write takes milliseconds). */
export const LEFTOVER_TEMP_GRACE_MS = 24 * 3600 * 1000;

/** `<artefact file>.<pid>.<random>.tmp`, as writeCacheFile names them. */
const TEMP_FILE = /^[0-9a-f]{40}\.[a-z0-9.]+\.\d+\.[a-z0-9]+\.tmp$/;

/** The files that record a build's roots, in the order they are read (the head is smallest). */
const RECORDS = ['head.json', 'failed.json', 'json'];

/**
 * Removes from `dir` every build (artefact, head, views, failed build) other than
 * `keepName` whose recorded roots are not all there any more, once all its files are
 * older than ABANDONED_BUILD_GRACE_MS; a build whose record is corrupt or missing (views
 * alone) goes too, as nothing can read it. Called after a build is stored, at most once
 * an hour per folder (cache-tidy.ts), with the folder's names when the caller listed it
 * (`files`). Returns the files removed; one that cannot be read or removed stays.
 * @example removeAbandonedBuilds('/c', '5d1f...e2.json', Date.now()) // ['/c/0a1b...ff.json', ...]
 */
export function removeAbandonedBuilds(dir: string, keepName: string, nowMs: number, files: readonly string[] = listFolder(dir)): string[] {
  const keep = cacheStem(keepName);
  const builds = new Map<string, string[]>();
  const removed: string[] = [];
  for (const file of files) {
    if (TEMP_FILE.test(file)) {
      if (olderThan(path.join(dir, file), nowMs, LEFTOVER_TEMP_GRACE_MS)) removeCacheFile(path.join(dir, file), removed);
      continue;
    }
    const stem = POLICY_CACHE_FILE.exec(file)?.[1];
    if (stem === undefined || stem === keep) continue;
    const files = builds.get(stem);
    if (files) files.push(file);
    else builds.set(stem, [file]);
  }
  for (const [stem, files] of builds) {
    if (abandoned(dir, stem, files, nowMs)) for (const file of files) removeCacheFile(path.join(dir, file), removed);
  }
  return removed;
}

function abandoned(dir: string, stem: string, files: string[], nowMs: number): boolean {
  const record = RECORDS.map((suffix) => `${stem}.${suffix}`).find((name) => files.includes(name));
  // The record first: it is the file a live build rewrites, so most builds stop here.
  if (record !== undefined && !olderThan(path.join(dir, record), nowMs, ABANDONED_BUILD_GRACE_MS)) return false;
  if (!files.every((file) => olderThan(path.join(dir, file), nowMs, ABANDONED_BUILD_GRACE_MS))) return false;
  if (record === undefined) return true;
  const roots = recordedRoots(path.join(dir, record));
  if (roots === undefined) return false;
  return roots === null || roots.some((root) => !fs.existsSync(root));
}

/** The roots a record names; null when it is corrupt; undefined when it cannot be read. */
function recordedRoots(file: string): string[] | null | undefined {
  let text: string;
  try {
    text = readPlainFile(file);
  } catch {
    return undefined;
  }
  try {
    const roots = (JSON.parse(unsealed(text) ?? text) as { roots?: unknown }).roots;
    return Array.isArray(roots) && roots.length > 0 && roots.every((r) => typeof r === 'string') ? roots : null;
  } catch {
    return null;
  }
}
