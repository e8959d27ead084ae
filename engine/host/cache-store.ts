/**
 * Where compiled artefacts live on disk and how they are written: one JSON file per set
 * of root files, written to a temporary file and renamed so that a concurrent runner
 * sees the old file or the new one, never half of one.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { sha256Hex } from './sources';

/**
 * Cache folders in order of preference: $HOOKPOLICY_CACHE_DIR, else
 * $XDG_CACHE_HOME/hookpolicy, else ~/.cache/hookpolicy; then a per-user folder under the
 * system temp folder for when the first is not writable.
 * @example cacheDirectories({ XDG_CACHE_HOME: '/c' }) // ['/c/hookpolicy', '/tmp/hookpolicy-1000']
 */
export function cacheDirectories(
  env: Readonly<Record<string, string | undefined>>,
  home: string = os.homedir(),
  tmp: string = os.tmpdir(),
): string[] {
  const primary = env.HOOKPOLICY_CACHE_DIR
    || (env.XDG_CACHE_HOME ? path.join(env.XDG_CACHE_HOME, 'hookpolicy') : path.join(home, '.cache', 'hookpolicy'));
  const user = typeof process.getuid === 'function' ? String(process.getuid()) : 'user';
  const fallback = path.join(tmp, `hookpolicy-${user}`);
  return primary === fallback ? [primary] : [primary, fallback];
}

/**
 * The artefact's file name: a hash of the engine version and the root files.
 * @example cacheFileName(['/p/.claude/policies.yaml'], '0.1.0+dev') // '5d1f...e2.json'
 */
export function cacheFileName(roots: readonly string[], engineVersion: string): string {
  return `${sha256Hex([engineVersion, ...roots].join('\0')).slice(0, 40)}.json`;
}

/** The text of every cache file named `name` in `dirs`, in order of preference. */
export function readCacheFiles(dirs: readonly string[], name: string): Array<{ file: string; text: string }> {
  const found: Array<{ file: string; text: string }> = [];
  for (const dir of dirs) {
    const file = path.join(dir, name);
    try {
      found.push({ file, text: fs.readFileSync(file, 'utf8') });
    } catch {
      // Missing or unreadable: a plain cache miss.
    }
  }
  return found;
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
    try {
      fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
      fs.writeFileSync(tmp, text, { mode: 0o600 });
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
