/**
 * Compiled policies keep regular expressions as `{ source, flags }`; this turns them into
 * matchers once and reuses them for every event. Policy-written expressions (`command`,
 * `let.extract`) never backtrack without bound: a pattern regex-safety.ts flags, or any
 * pattern on a long text, runs on re2js (linear time, loaded on first need).
 */
import type { RegexSource } from '../types';
import { isSuperLinear, superLinearReason } from './regex-safety';

const byObject = new WeakMap<RegexSource, RegExp>();
const byText = new Map<string, RegExp>();

/**
 * Texts longer than this are matched on the linear engine even by unflagged patterns: a
 * quadratic pattern (`a.*b`) stays under ~30 ms up to here.
 */
export const NATIVE_TEXT_LIMIT = 4096;

/** A policy expression that may backtrack catastrophically and has no linear-time equivalent. */
export class UnsafeRegexError extends Error {
  constructor(readonly source: string, readonly reason: string) {
    super(`/${source}/ cannot run safely: ${reason}, and the linear-time engine does not support it (lookahead or backreference)`);
    this.name = 'UnsafeRegexError';
  }
}

/**
 * The RegExp for a source, cached by object and by source+flags. The `g` and `y` flags are
 * dropped: the evaluator only tests and matches once, and they would make `test` stateful.
 * @example toRegExp({ source: '^src/', flags: '' }).test('src/a.ts') // true
 */
export function toRegExp(r: RegexSource): RegExp {
  const cached = byObject.get(r);
  if (cached) return cached;
  const flags = r.flags.replace(/[gy]/g, '');
  const key = `${flags}/${r.source}`;
  let re = byText.get(key);
  if (!re) {
    re = new RegExp(r.source, flags);
    byText.set(key, re);
  }
  byObject.set(r, re);
  return re;
}

/**
 * True when any of the expressions matches `text`. For compiler-built patterns (globs,
 * `*` wildcards), which cannot backtrack badly.
 * @example anyMatch([{ source: 'a', flags: '' }], 'cat') // true
 */
export function anyMatch(sources: readonly RegexSource[], text: string): boolean {
  for (let i = 0; i < sources.length; i++) if (toRegExp(sources[i]).test(text)) return true;
  return false;
}

/**
 * True when any of the policy-written expressions matches `text`, in bounded time.
 * Throws UnsafeRegexError for a flagged pattern the linear engine cannot run.
 * @example policyRegexTest([{ source: '(a+)+$', flags: '' }], 'a'.repeat(40) + '!') // false, at once
 */
export function policyRegexTest(sources: readonly RegexSource[], text: string): boolean {
  for (let i = 0; i < sources.length; i++) if (policyRegexExec(sources[i], text) !== null) return true;
  return false;
}

/**
 * The first match of a policy-written expression: the whole match then each group
 * (undefined when a group took no part), or null.
 * @example policyRegexExec({ source: '^v:\\s*(\\S+)', flags: 'm' }, 'x\nv: 3')?.[1] // '3'
 */
export function policyRegexExec(r: RegexSource, text: string): Array<string | undefined> | null {
  const flagged = isSuperLinear(r.source, r.flags);
  if (flagged || text.length > NATIVE_TEXT_LIMIT) {
    const linear = linearMatcher(r);
    if (linear) return linear(text);
    if (flagged) throw new UnsafeRegexError(r.source, superLinearReason(r.source, r.flags) ?? 'super-linear');
  }
  const m = toRegExp(r).exec(text);
  return m ? Array.from(m) : null;
}

type LinearMatch = (text: string) => Array<string | undefined> | null;

interface Re2Module {
  RE2JS: {
    CASE_INSENSITIVE: number;
    MULTILINE: number;
    DOTALL: number;
    compile(source: string, flags: number): {
      matcher(text: string): { find(): boolean; groupCount(): number; group(i: number): string | null };
    };
  };
}

let re2: Re2Module['RE2JS'] | null = null;
const linearCache = new Map<string, LinearMatch | null>();

/** The re2js matcher for the expression, or null when RE2 cannot express it. */
function linearMatcher(r: RegexSource): LinearMatch | null {
  const key = `${r.flags}/${r.source}`;
  if (linearCache.has(key)) return linearCache.get(key) ?? null;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  re2 ??= (require('re2js') as Re2Module).RE2JS;
  const engine = re2;
  let flags = 0;
  if (r.flags.includes('i')) flags |= engine.CASE_INSENSITIVE;
  if (r.flags.includes('m')) flags |= engine.MULTILINE;
  if (r.flags.includes('s')) flags |= engine.DOTALL;
  let match: LinearMatch | null = null;
  try {
    const compiled = engine.compile(r.source, flags);
    match = (text) => {
      const m = compiled.matcher(text);
      if (!m.find()) return null;
      const out: Array<string | undefined> = [];
      for (let g = 0; g <= m.groupCount(); g++) out.push(m.group(g) ?? undefined);
      return out;
    };
  } catch {
    match = null;
  }
  linearCache.set(key, match);
  return match;
}

/**
 * True once re2js has been loaded in this process (for tests of laziness).
 * @example isLinearEngineLoaded() // false until a flagged pattern or a long text was matched
 */
export function isLinearEngineLoaded(): boolean {
  return re2 !== null;
}
