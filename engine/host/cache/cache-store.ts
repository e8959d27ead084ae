/**
 * Where compiled artefacts live on disk and how they are written: one JSON file per set
 * of root files, written to a temporary file and renamed so that a concurrent runner
 * sees the old file or the new one, never half of one.
 */
import * as fs from 'fs';
import type * as os from 'os';
import * as path from 'path';
import { cacheFolderDistrust, sealed, sealedBody, unsealedBytes } from './cache-trust';
import { fingerprintOf } from './sources';
import { NotPlainFileError, readPlainBytes, readPlainWithStats } from '../regular-file';

/**
 * Cache folders in order of preference: $HOOKPOLICY_CACHE_DIR, else
 * $XDG_CACHE_HOME/hookpolicy, else ~/.cache/hookpolicy; then a per-user folder under the
 * system temp folder for when the first is not writable.
 * @example cacheDirectories({ XDG_CACHE_HOME: '/c' }) // ['/c/hookpolicy', '/tmp/hookpolicy-1000']
 */
export function cacheDirectories(
  env: Readonly<Record<string, string | undefined>>,
  home: string = homeDirectory(env),
  tmp: string = tempDirectory(env),
): string[] {
  const primary = env.HOOKPOLICY_CACHE_DIR
    || (env.XDG_CACHE_HOME ? path.join(env.XDG_CACHE_HOME, 'hookpolicy') : path.join(home, '.cache', 'hookpolicy'));
  const user = typeof process.getuid === 'function' ? String(process.getuid()) : 'user';
  const fallback = path.join(tmp, `hookpolicy-${user}`);
  return primary === fallback ? [primary] : [primary, fallback];
}

/**
 * The home folder as os.homedir() finds it; on POSIX from $HOME without loading the `os`
 * module (the runner's start-up counts every module).
 */
function homeDirectory(env: Readonly<Record<string, string | undefined>>): string {
  return process.platform !== 'win32' && env.HOME ? env.HOME : loadOs().homedir();
}

/** The temp folder as os.tmpdir() finds it on POSIX ($TMPDIR, $TMP, $TEMP, /tmp). */
function tempDirectory(env: Readonly<Record<string, string | undefined>>): string {
  if (process.platform === 'win32') return loadOs().tmpdir();
  const dir = env.TMPDIR || env.TMP || env.TEMP || '/tmp';
  return dir.length > 1 && dir.endsWith('/') ? dir.slice(0, -1) : dir;
}

function loadOs(): typeof os {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('os') as typeof os;
}

/**
 * The artefact's file name: 40 hex digits, the first 8 a hash of the root files alone
 * (so every build for one set of roots shares them: see removeOtherBuilds), the rest a
 * hash of the engine version and the roots. Not a cryptographic hash (the runner does
 * not load `crypto` for it); the artefact records its roots, so a collision costs a
 * rebuild, never a wrong policy.
 * @example cacheFileName(['/p/.claude/policies.yaml'], '0.1.0+dev') // '5d1f...e2.json'
 */
export function cacheFileName(roots: readonly string[], engineVersion: string): string {
  const text = [engineVersion, ...roots].join('\0');
  let name = fnv1a(roots.join('\0'), 0x811c9dc5);
  for (const seed of [0x050c5d1f, 0x1b873593, 0x68e31da4, 0x3c6ef372]) name += fnv1a(text, seed);
  return `${name}.json`;
}

/** The files of one artefact: `<stem>.json` and the head, views and failed build beside it. */
export const POLICY_CACHE_FILE = /^([0-9a-f]{40})\.(?:json|head\.json|failed\.json|view\.[0-9a-f]{8}\.json)$/;

/** How long the files of another build for the same roots are kept after their last write. */
export const OTHER_BUILD_GRACE_MS = 7 * 24 * 3600 * 1000;

/**
 * Removes from `dir` what another build (another engine version) wrote for the same
 * roots, once it is older than OTHER_BUILD_GRACE_MS: without this the folder keeps every
 * build's artefact, head and views for good. The grace period lets two installed versions
 * used on one project side by side keep their own caches instead of removing each
 * other's at every rebuild. Called after a build is stored (cache-tidy.ts), with the
 * folder's names when the caller listed it (`files`); a file that cannot be removed stays
 * (it only costs disk space).
 * @example removeOtherBuilds('/c', '5d1f...e2.json', Date.now()) // ['/c/5d1f...aa.json', ...]
 */
export function removeOtherBuilds(dir: string, name: string, nowMs: number, files: readonly string[] = listFolder(dir)): string[] {
  const stem = cacheStem(name);
  const removed: string[] = [];
  for (const file of files) {
    const m = POLICY_CACHE_FILE.exec(file);
    if (!m || m[1] === stem || !m[1].startsWith(stem.slice(0, 8))) continue;
    const full = path.join(dir, file);
    if (olderThan(full, nowMs, OTHER_BUILD_GRACE_MS)) removeCacheFile(full, removed);
  }
  return removed;
}

/**
 * Removes `<stem>.view.*.json` files in `dir` other than `keep` (file names): the views a
 * new build of the same engine no longer has (a tool or event the rules stopped naming).
 * A runner still reading the old head then finds no view and falls back to the artefact.
 */
export function removeOtherViews(dir: string, name: string, keep: ReadonlySet<string>, files: readonly string[] = listFolder(dir)): string[] {
  const prefix = `${cacheStem(name)}.view.`;
  const removed: string[] = [];
  for (const file of files) {
    if (file.startsWith(prefix) && file.endsWith('.json') && !keep.has(file)) removeCacheFile(path.join(dir, file), removed);
  }
  return removed;
}

/** The artefact's name without `.json`: what its head, views and failed build start with. */
export function cacheStem(name: string): string {
  return name.slice(0, -'.json'.length);
}

/** True when the file was last written `graceMs` or more before `nowMs`; false when it cannot be stat'ed. */
export function olderThan(file: string, nowMs: number, graceMs: number): boolean {
  try {
    return nowMs - fs.statSync(file).mtimeMs >= graceMs;
  } catch {
    return false;
  }
}

/** Removes a cache file, adding it to `removed`; one that cannot be removed stays (it only costs disk space). */
export function removeCacheFile(file: string, removed: string[]): void {
  try {
    fs.rmSync(file, { force: true });
    removed.push(file);
  } catch {
    // Not ours to remove.
  }
}

/** The names in `dir`, or none when it cannot be listed. */
export function listFolder(dir: string): string[] {
  try {
    return fs.readdirSync(dir);
  } catch {
    return [];
  }
}

/**
 * A short name for a text (8 hex digits), for file names derived from a cache file's.
 * @example shortKey('PreToolUse\0Bash') // '1f0e...'
 */
export function shortKey(text: string): string {
  return fnv1a(text, 0x811c9dc5);
}

/** 32-bit FNV-1a of the UTF-16 code units, from a given basis, as 8 hex digits. */
function fnv1a(text: string, basis: number): string {
  let h = basis >>> 0;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(16).padStart(8, '0');
}

const problems: Array<{ file: string; problem: string }> = [];

/**
 * The cache files met since the last call that were not used, and why (a folder others can
 * write, content that does not match its seal), for the caller to report; each is rebuilt.
 * @example takeCacheProblems() // [{ file: '/c/ab.view.12.json', problem: 'its content does not match its seal' }]
 */
export function takeCacheProblems(): Array<{ file: string; problem: string }> {
  return problems.splice(0);
}

/**
 * The text of every cache file named `name` in `dirs`, in order of preference, read as
 * the caller goes: one that stops at the first good file never touches the next folders
 * (a missing file costs an exception, ~0.3 ms the first time in a process). Only files in
 * folders this user alone can write, whose content matches their seal (cache-trust.ts).
 * With `known`, each file's stat fingerprint is given too (null when too recent to trust),
 * and a file that still has `known.fingerprint` is not hashed again.
 */
export function* readCacheFiles(dirs: readonly string[], name: string, known?: KnownFingerprint): Generator<{ file: string; text: string; fingerprint: string | null }> {
  for (const dir of dirs) {
    const file = path.join(dir, name);
    let read: { bytes: Buffer; stats: fs.BigIntStats | null };
    try {
      // The stats only for a caller that keeps fingerprints (views): one fstat fewer for the rest.
      read = known ? readPlainWithStats(file) : { bytes: readPlainBytes(file), stats: null };
    } catch (e) {
      // A FIFO, a symlink or a device where a cache file belongs is reported; missing or unreadable is a plain miss.
      if (e instanceof NotPlainFileError) problems.push({ file, problem: `not used: it is ${e.kind}, not a regular file` });
      continue;
    }
    const distrust = cacheFolderDistrust(dir);
    if (distrust) {
      problems.push({ file, problem: `not used: ${distrust}` });
      continue;
    }
    const fingerprint = read.stats ? fingerprintOf(read.stats, known?.now ?? Date.now()) : null;
    // The same file, untouched since its seal was checked: no change can keep its inode and ctime.
    const body = fingerprint !== null && fingerprint === known?.fingerprint ? sealedBody(read.bytes) : unsealedBytes(read.bytes);
    if (body === null) {
      problems.push({ file, problem: 'not used: its content does not match its seal (changed outside hookpolicy)' });
      continue;
    }
    yield { file, text: body, fingerprint };
  }
}

/** The stat fingerprint a file had when its seal was last checked, to skip checking it again. */
export interface KnownFingerprint {
  fingerprint: string | undefined;
  now?: number;
}

/**
 * Writes `text` atomically into the first writable folder of `dirs`.
 * Returns the file written, or the errors met in every folder.
 */
export function writeCacheFile(dirs: readonly string[], name: string, text: string): { file: string } | { errors: string[] } {
  const errors: string[] = [];
  for (const dir of dirs) {
    const file = path.join(dir, name);
    const tmp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
    const distrust = cacheFolderDistrust(dir);
    if (distrust) {
      errors.push(`${dir} is not used: ${distrust}`);
      continue;
    }
    try {
      fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
      fs.writeFileSync(tmp, sealed(text), { mode: 0o600 });
      fs.renameSync(tmp, file);
      return { file };
    } catch (e) {
      errors.push(`${file}: ${(e as Error).message}`);
      try {
        fs.rmSync(tmp, { force: true });
      } catch {
        // Nothing left to clean up.
      }
    }
  }
  return { errors };
}
