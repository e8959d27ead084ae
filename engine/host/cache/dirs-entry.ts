/**
 * Entry of dist/cache-dirs.cjs: what bin/policy.cjs needs from the cache room before it
 * loads the runner bundle (it reads the bundle's V8 code cache from these folders), in a
 * file small enough to cost nothing noticeable at every event.
 */
import * as fs from 'fs';
import { cacheDirectories } from './cache-store';

/**
 * The cache folders bin may read compiled code from: those this user alone owns and
 * writes (or not there yet, made with mode 0700); code read from a folder another user
 * can write would run as the runner. cache-trust.ts checks the policy cache the same way
 * and more.
 * @example codeCacheDirectories(process.env) // ['/home/me/.cache/hookpolicy']
 */
export function codeCacheDirectories(env: Readonly<Record<string, string | undefined>>): string[] {
  return cacheDirectories(env).filter(ownFolder);
}

/** True when `dir` is this user's alone, or not there yet. */
export function ownFolder(dir: string): boolean {
  if (typeof process.getuid !== 'function') return true;
  let st: fs.Stats;
  try {
    st = fs.lstatSync(dir);
  } catch {
    return true;
  }
  return st.isDirectory() && st.uid === process.getuid() && (st.mode & 0o022) === 0;
}
