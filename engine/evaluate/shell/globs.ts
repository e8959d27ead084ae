/**
 * Pathname expansion, as bash does it before running a command: an unquoted `*`, `?` or
 * `[...]` in a word makes it a pattern, replaced by the names it matches (sorted), or left
 * as written when it matches none. `rm -rf .claude/*` removes the files `.claude` holds,
 * not a file named `*`: the analysis lists the folders through the event's facts and judges
 * each name, as the shell will see them. Bash's defaults: a name starting with `.` is
 * matched only by a pattern that starts with a literal `.` (no dotglob), `.` and `..` never
 * (globskipdots), `/` only literally; a pattern that matches nothing stays (no nullglob).
 */
import type { Arg } from './words';

/** Lists a folder's names (absolute path in), or null when it is no folder or cannot be read. */
export type ListFolder = (absolute: string) => string[] | null;

/** More names than this from one word: not judged (the command is not checkable). */
export const MAX_MATCHES = 2000;

/**
 * The word's text after quote removal with its pattern characters kept, or null when it is
 * no pattern (nothing to expand) or has another run-time expansion. Quoted text and
 * escaped characters come out escaped (`\*`), so only the word's own pattern characters act.
 * @example globPattern([{ quote: '', raw: '.claude/*' }]) // '.claude/*'
 * @example globPattern([{ quote: '"', raw: 'a*' }]) // null: quoted, no pattern
 */
export function globPattern(parts: ReadonlyArray<{ quote: '' | "'" | '"'; raw: string }>, home?: string): string | null {
  let out = '';
  let pattern = false;
  for (let i = 0; i < parts.length; i++) {
    const { quote, raw } = parts[i];
    if (quote === "'") out += escapeAll(raw);
    else if (quote === '"') {
      if (/[$`]/.test(raw.replace(/\\[\s\S]/g, ''))) return null;
      out += escapeAll(raw.replace(/\\([$`"\\\n])/g, (_m, c: string) => (c === '\n' ? '' : c)));
    } else {
      const lit = unquotedPattern(raw, i === 0 ? home : undefined, i === 0);
      if (lit === null) return null;
      pattern ||= lit.pattern;
      out += lit.text;
    }
  }
  return pattern ? out : null;
}

/**
 * The names `pattern` matches in `cwd` (relative patterns give relative names), sorted;
 * the pattern's own text (unescaped) when it matches none, as bash passes it; null when it
 * cannot be known (no working folder, too many names).
 * @example expandGlob('.claude/*', '/p', list) // ['.claude/policies.yaml', '.claude/settings.json']
 */
export function expandGlob(pattern: string, cwd: string | null, list: ListFolder): Arg[] | null {
  const absolute = pattern.startsWith('/');
  if (!absolute && cwd === null) return null;
  const base = absolute ? '' : (cwd as string).replace(/\/+$/, '');
  const folderOf = (names: readonly string[]) => `${base}/${names.join('/')}`.replace(/\/+$/, '') || '/';
  // `a//b` is `a/b`; a trailing `/` keeps only folders, which the listing of the match checks.
  const segments = splitSegments(pattern).filter((s) => s !== '');
  const trailingSlash = /(^|[^\\])\/$/.test(pattern);
  let found: string[][] = [[]];
  for (const segment of segments) {
    const matcher = segmentMatcher(segment);
    const next: string[][] = [];
    for (const names of found) {
      const folder = folderOf(names);
      const listed = list(folder);
      if (listed === null) continue;
      const literal = matcher.literal;
      const hits = literal === '.' || literal === '..' ? [literal] : literal !== null ? (listed.includes(literal) ? [literal] : []) : listed.filter((n) => matcher.test(n));
      for (const hit of hits) next.push([...names, hit]);
      if (next.length > MAX_MATCHES) return null;
    }
    found = next;
    if (found.length === 0) break;
  }
  if (trailingSlash) found = found.filter((names) => list(folderOf(names)) !== null);
  if (found.length === 0) return [unescape(pattern)];
  return found.map((names) => `${absolute ? '/' : ''}${names.join('/')}${trailingSlash ? '/' : ''}`).sort();
}

/** Splits on unescaped `/` (a `/` inside brackets ends them as bash reads it: it is literal there only escaped). */
function splitSegments(pattern: string): string[] {
  const segments: string[] = [];
  let current = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\' && i + 1 < pattern.length) {
      current += c + pattern[++i];
      continue;
    }
    if (c === '/') {
      segments.push(current);
      current = '';
    } else current += c;
  }
  segments.push(current);
  return segments;
}

interface SegmentMatcher {
  /** The segment's name when it has no pattern characters. */
  literal: string | null;
  test(name: string): boolean;
}

/** A matcher for one path segment, with bash's rules for `.`. */
function segmentMatcher(segment: string): SegmentMatcher {
  let source = '';
  let pattern = false;
  for (let i = 0; i < segment.length; i++) {
    const c = segment[i];
    if (c === '\\' && i + 1 < segment.length) {
      source += escapeRegex(segment[++i]);
    } else if (c === '*') {
      pattern = true;
      source += '[^/]*';
    } else if (c === '?') {
      pattern = true;
      source += '[^/]';
    } else if (c === '[') {
      const bracket = readBracket(segment, i);
      if (bracket === null) source += '\\[';
      else {
        pattern = true;
        source += bracket.source;
        i = bracket.end;
      }
    } else source += escapeRegex(c);
  }
  if (!pattern) return { literal: unescape(segment), test: () => false };
  const regex = new RegExp(`^${source}$`, 's');
  const dotted = segment.startsWith('.') || segment.startsWith('\\.');
  return { literal: null, test: (name) => name !== '.' && name !== '..' && (dotted || !name.startsWith('.')) && regex.test(name) };
}

/** `[...]` from `start` (the `[`): its regex and where it ends, or null when it is not closed. */
function readBracket(segment: string, start: number): { source: string; end: number } | null {
  let i = start + 1;
  let negate = false;
  if (segment[i] === '!' || segment[i] === '^') {
    negate = true;
    i++;
  }
  let body = '';
  let first = true;
  for (; i < segment.length; i++) {
    const c = segment[i];
    if (c === ']' && !first) return { source: `[${negate ? '^' : ''}${body}]`, end: i };
    first = false;
    if (c === '[' && segment[i + 1] === ':') {
      const close = segment.indexOf(':]', i + 2);
      const name = close > 0 ? segment.slice(i + 2, close) : '';
      const cls = CLASSES[name];
      if (cls) {
        body += cls;
        i = close + 1;
        continue;
      }
    }
    if (c === '\\' && i + 1 < segment.length) {
      body += escapeClass(segment[++i]);
      continue;
    }
    body += c === '-' && body !== '' && segment[i + 1] !== ']' ? '-' : escapeClass(c);
  }
  return null;
}

const CLASSES: Record<string, string> = {
  alpha: 'A-Za-z', digit: '0-9', alnum: 'A-Za-z0-9', upper: 'A-Z', lower: 'a-z', space: ' \\t\\n\\r\\f\\v',
  xdigit: '0-9A-Fa-f', punct: '!-\\/:-@\\[-`{-~', word: 'A-Za-z0-9_', blank: ' \\t',
};

/** Unquoted text as a pattern: escapes kept, `~` at the start expanded; null on any other expansion. */
function unquotedPattern(raw: string, home: string | undefined, first: boolean): { text: string; pattern: boolean } | null {
  let pattern = false;
  let braceOpen = -1;
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i];
    if (c === '\\') {
      i++;
      continue;
    }
    if (c === '$' || c === '`') return null;
    if (c === '*' || c === '?') pattern = true;
    if (c === '[' && raw.indexOf(']', i + 2) > 0) pattern = true;
    // Brace expansion makes several words: left to the long way (not checkable).
    if (c === '{') braceOpen = i;
    else if (braceOpen >= 0 && (c === ',' || (c === '.' && raw[i + 1] === '.'))) return null;
  }
  let text = raw.replace(/\\\n/g, '');
  if (first && text.startsWith('~')) {
    const slash = text.indexOf('/');
    const user = slash < 0 ? text.slice(1) : text.slice(1, slash);
    if (user !== '' || !home) return null;
    text = escapeAll(home) + (slash < 0 ? '' : text.slice(slash));
  }
  return { text, pattern };
}

/** The pattern's text as bash passes it when it matches nothing: escapes removed. */
function unescape(pattern: string): string {
  return pattern.replace(/\\([\s\S])/g, '$1');
}

function escapeAll(text: string): string {
  return text.replace(/[\\*?[\]]/g, '\\$&');
}

function escapeRegex(c: string): string {
  return /[\\^$.*+?()[\]{}|/-]/.test(c) ? `\\${c}` : c;
}

function escapeClass(c: string): string {
  return /[\\\]^-]/.test(c) ? `\\${c}` : c;
}
