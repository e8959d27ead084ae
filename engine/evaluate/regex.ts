/**
 * Compiled policies keep regular expressions as `{ source, flags }`; this turns them into
 * RegExp objects once and reuses them for every event.
 */
import type { RegexSource } from '../types';

const byObject = new WeakMap<RegexSource, RegExp>();
const byText = new Map<string, RegExp>();

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
 * True when any of the expressions matches `text`.
 * @example anyMatch([{ source: 'a', flags: '' }], 'cat') // true
 */
export function anyMatch(sources: readonly RegexSource[], text: string): boolean {
  for (let i = 0; i < sources.length; i++) if (toRegExp(sources[i]).test(text)) return true;
  return false;
}
