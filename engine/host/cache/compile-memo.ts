/**
 * What a compile works out of a policy's patterns, kept across processes. Compiling asks,
 * of every pattern, whether it can backtrack for long (engine/evaluate/regex-safety.ts)
 * and what every match must contain (engine/compile/regex-prefilter.ts), and turns every
 * glob into a regex (engine/compile/glob-regex.ts, with picomatch): most of a rebuild
 * after an edit, for patterns that mostly did not change (the packs' own, the
 * self-protection rule's). The last compile's verdicts, prefilters and globs' regexes are
 * kept in one sealed file of the policy cache, `compile-memo.json`, for this engine's
 * build only, and taken as known by the next compile. They are trusted as the compiled
 * policy is, which holds the same.
 */
import type { RegexSource } from '../../types';
import { ENGINE_VERSION } from '../engine-version';
import { globRegexes, rememberGlobRegexes } from '../../compile/glob-regex';
import { regexPrefilters, rememberRegexPrefilters, type Prefilter } from '../../compile/regex-prefilter';
import { rememberSafetyVerdicts, safetyVerdicts } from '../../evaluate/regex-safety';
import { readCacheFiles, writeCacheFile } from './cache-store';

const FILE = 'compile-memo.json';
/** At most this many of each are kept (the newest compile's last). */
const MAX_KEPT = 1000;

interface MemoFile {
  engine: string;
  verdicts: Array<[string, string | null]>;
  prefilters: Array<[string, Prefilter]>;
  globs: Array<[string, RegexSource | null]>;
}

/**
 * Runs `compile` with the verdicts and globs of earlier compiles known, then keeps what it
 * added. A file that is missing, corrupt or from another build is only a slower compile.
 * @example withCompileMemo(cacheDirectories(env), () => compilePolicyFiles(roots))
 */
export function withCompileMemo<T>(dirs: readonly string[], compile: () => T, engine: string = ENGINE_VERSION): T {
  const known = readMemo(dirs, engine);
  rememberSafetyVerdicts(known.verdicts);
  rememberRegexPrefilters(known.prefilters);
  rememberGlobRegexes(known.globs);
  const result = compile();
  const verdicts = safetyVerdicts();
  const prefilters = regexPrefilters();
  const globs = globRegexes();
  if (verdicts.length > known.verdicts.length || prefilters.length > known.prefilters.length || globs.length > known.globs.length) {
    const file: MemoFile = { engine, verdicts: verdicts.slice(-MAX_KEPT), prefilters: prefilters.slice(-MAX_KEPT), globs: globs.slice(-MAX_KEPT) };
    writeCacheFile(dirs, FILE, JSON.stringify(file));
  }
  return result;
}

function readMemo(dirs: readonly string[], engine: string): Omit<MemoFile, 'engine'> {
  for (const { text } of readCacheFiles(dirs, FILE)) {
    try {
      const file = JSON.parse(text) as Partial<MemoFile>;
      if (file.engine !== engine) continue;
      return {
        verdicts: (Array.isArray(file.verdicts) ? file.verdicts : []).filter((v): v is [string, string | null] =>
          Array.isArray(v) && v.length === 2 && typeof v[0] === 'string' && (v[1] === null || typeof v[1] === 'string')),
        prefilters: (Array.isArray(file.prefilters) ? file.prefilters : []).filter((p): p is [string, Prefilter] =>
          Array.isArray(p) && p.length === 2 && typeof p[0] === 'string' && isPrefilter(p[1])),
        globs: (Array.isArray(file.globs) ? file.globs : []).filter((g): g is [string, RegexSource | null] =>
          Array.isArray(g) && g.length === 2 && typeof g[0] === 'string' && (g[1] === null || isRegexSource(g[1]))),
      };
    } catch {
      // Corrupt: the compile works them out again.
    }
  }
  return { verdicts: [], prefilters: [], globs: [] };
}

function isPrefilter(value: unknown): value is Prefilter {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const p = value as Record<string, unknown>;
  const texts = (v: unknown) => v === undefined || (Array.isArray(v) && v.every((t) => typeof t === 'string'));
  return Object.keys(p).every((k) => k === 'literal' || k === 'anyOf' || k === 'allOf')
    && (p.literal === undefined || typeof p.literal === 'string') && texts(p.anyOf) && texts(p.allOf);
}

function isRegexSource(value: unknown): value is RegexSource {
  if (value === null || typeof value !== 'object') return false;
  const r = value as Record<string, unknown>;
  if (typeof r.source !== 'string' || typeof r.flags !== 'string') return false;
  const literals = r.globLiterals;
  if (r.guard !== undefined && typeof r.guard !== 'boolean') return false;
  if (r.linear !== undefined && !isLinearProgram(r.linear)) return false;
  return literals === undefined || (Array.isArray(literals) && literals.length === 2 && literals.every((l) => typeof l === 'string'));
}

function isLinearProgram(value: unknown): boolean {
  if (value === null || typeof value !== 'object') return false;
  const p = value as Record<string, unknown>;
  const tests = (v: unknown) => Array.isArray(v) && v.every((t) => Array.isArray(t) && typeof t[0] === 'string' && typeof t[1] === 'string');
  return typeof p.start === 'number' && Array.isArray(p.code) && p.code.every((n) => typeof n === 'number') && tests(p.atoms) && tests(p.checks);
}
