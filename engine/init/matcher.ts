/**
 * Turning a rule's filter (exact names and compiled regular expressions) into one Claude
 * Code `matcher` string that accepts at least every value the filter accepts.
 *
 * Claude Code reads a matcher made only of `[A-Za-z0-9_|, -]` as a list of exact names
 * and anything else as an unanchored JavaScript regex (reference section 2.3). Exact
 * form is used only for names of `[A-Za-z0-9_]`: hyphens were regex characters before
 * 2.1.195, so a hyphenated name is written as an anchored regex, which reads the same in
 * every version.
 */
import { EXACT_MATCHER } from '../matcher';
import type { RegexSource } from '../types';

export { matcherAccepts } from '../matcher';

const EXACT_NAME = /^[A-Za-z0-9_]+$/;

/**
 * The literal a regex accepts when it is exactly `^literal$` (escapes allowed), else null.
 * @example literalOf({ source: '^mcp__x__y$', flags: '' }) // 'mcp__x__y'
 */
export function literalOf(r: RegexSource): string | null {
  if (!usableFlags(r.flags)) return null;
  const m = /^\^((?:[^\\.*+?()[\]{}|^$]|\\[^A-Za-z0-9])*)\$$/.exec(r.source);
  if (!m || m[1] === '') return null;
  return m[1].replace(/\\(.)/g, '$1');
}

/**
 * One matcher for names and regexes, or null when no matcher can say it (then the
 * group must have none, i.e. match everything). An empty filter also gives null.
 * @example matcherFor(['Write', 'Edit'], []) // 'Write|Edit'
 * @example matcherFor([], [{ source: '^mcp__playwright__.*$', flags: '' }]) // '^mcp__playwright__.*$'
 */
export function matcherFor(names: readonly string[], patterns: readonly RegexSource[]): string | null {
  const literals = [...names];
  const regexes: string[] = [];
  for (const p of patterns) {
    const literal = literalOf(p);
    if (literal !== null) literals.push(literal);
    else if (usableRegex(p)) regexes.push(p.flags.includes('s') ? withoutDotAll(p.source) : p.source);
    else return null;
  }
  const unique = [...new Set(literals)];
  if (unique.length === 0 && regexes.length === 0) return null;
  if (regexes.length === 0 && unique.every((n) => EXACT_NAME.test(n))) return unique.join('|');
  const parts = [...(unique.length > 0 ? [anchored(unique)] : []), ...new Set(regexes)];
  const joined = parts.join('|');
  // A regex that happens to look like an exact list would be read as one: force the regex path.
  return EXACT_MATCHER.test(joined) ? `(?:${joined})` : joined;
}

/** Escapes text for use inside a regular expression. */
export function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
}

function anchored(literals: string[]): string {
  const body = literals.map(escapeRegex);
  return body.length === 1 ? `^${body[0]}$` : `^(?:${body.join('|')})$`;
}

/** Claude Code compiles matchers without flags; only flags whose meaning can be kept are usable. */
function usableFlags(flags: string): boolean {
  return /^[gydsu]*$/.test(flags);
}

/**
 * The same regex without the `s` flag: every `.` outside a character class becomes `[\s\S]`.
 * @example withoutDotAll('^res.*$') // '^res[\s\S]*$'
 */
export function withoutDotAll(source: string): string {
  let out = '';
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === '\\') {
      out += c + (source[i + 1] ?? '');
      i++;
    } else if (inClass) {
      if (c === ']') inClass = false;
      out += c;
    } else if (c === '[') {
      inClass = true;
      out += c;
    } else {
      out += c === '.' ? '[\\s\\S]' : c;
    }
  }
  return out;
}

function usableRegex(r: RegexSource): boolean {
  if (!usableFlags(r.flags)) return false;
  // Back-references and \p{...} change meaning when sources are joined or read without `u`.
  if (/\\[1-9]|\\k<|\\[pP]\{|\\u\{/.test(r.source)) return false;
  try {
    new RegExp(r.source);
    return true;
  } catch {
    return false;
  }
}
