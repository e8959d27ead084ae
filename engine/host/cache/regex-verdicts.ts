/**
 * The regex-safety verdicts, kept across processes. Compiling a policy asks, of every
 * pattern, whether it can backtrack for long (engine/evaluate/regex-safety.ts): about a
 * third of a rebuild after an edit, for patterns that mostly did not change (the packs'
 * own). The verdicts of the last compile are kept in one sealed file of the policy cache,
 * `regex-verdicts.json`, for this engine's build only, and taken as known by the next
 * compile. They are trusted as the compiled policy is, which holds the same verdicts.
 */
import { ENGINE_VERSION } from '../engine-version';
import { rememberSafetyVerdicts, safetyVerdicts } from '../../evaluate/regex-safety';
import { readCacheFiles, writeCacheFile } from './cache-store';

const FILE = 'regex-verdicts.json';
/** At most this many verdicts are kept (the newest compile's first). */
const MAX_VERDICTS = 1000;

interface VerdictFile {
  engine: string;
  verdicts: Array<[string, string | null]>;
}

/**
 * Runs `compile` with the verdicts of earlier compiles known, then keeps the verdicts it
 * added. A file that is missing, corrupt or from another build is only a slower compile.
 * @example withRegexVerdicts(cacheDirectories(env), () => compilePolicyFiles(roots))
 */
export function withRegexVerdicts<T>(dirs: readonly string[], compile: () => T, engine: string = ENGINE_VERSION): T {
  const known = readVerdicts(dirs, engine);
  rememberSafetyVerdicts(known);
  const result = compile();
  const all = safetyVerdicts();
  if (all.length > known.length) {
    const file: VerdictFile = { engine, verdicts: all.slice(-MAX_VERDICTS) };
    writeCacheFile(dirs, FILE, JSON.stringify(file));
  }
  return result;
}

function readVerdicts(dirs: readonly string[], engine: string): Array<[string, string | null]> {
  for (const { text } of readCacheFiles(dirs, FILE)) {
    try {
      const file = JSON.parse(text) as Partial<VerdictFile>;
      if (file.engine !== engine || !Array.isArray(file.verdicts)) continue;
      return file.verdicts.filter((v): v is [string, string | null] =>
        Array.isArray(v) && v.length === 2 && typeof v[0] === 'string' && (v[1] === null || typeof v[1] === 'string'));
    } catch {
      // Corrupt: the compile works the verdicts out again.
    }
  }
  return [];
}
