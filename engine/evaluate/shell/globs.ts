/**
 * Brace and pathname expansion, as bash does them before running a command. An unquoted
 * `{a,b}` or `{1..3}` makes one word several (`.claude/{policies.yaml,settings.json}`),
 * with nothing to look up. An unquoted `*`, `?` or
 * `[...]` in a word makes it a pattern, replaced by the names it matches (sorted), or left
 * as written when it matches none. `rm -rf .claude/*` removes the files `.claude` holds,
 * not a file named `*`: the analysis lists the folders through the event's facts and judges
 * each name, as the shell will see them. Bash's defaults: a name starting with `.` is
 * matched only by a pattern that starts with a literal `.` (no dotglob), `.` and `..` never
 * (globskipdots), `/` only literally; a pattern that matches nothing stays (no nullglob).
 * The options a command sets change that (glob-options.ts): `nocaseglob`, `dotglob`,
 * `nullglob`, `globstar` (`**` crosses folders), `noglob`; an extended pattern (`@(a|b)`,
 * `?(x)`, and `*(x)`, `+(x)`, `!(x)`, read as `*`: they name no fewer) is always read as one.
 */
import { BASH_DEFAULTS, type GlobOptions } from './glob-options';
import { segmentPattern } from './glob-match';
import type { Arg } from './words';

/** Lists a folder's names (absolute path in), or null when it is no folder or cannot be read. */
export type ListFolder = (absolute: string) => string[] | null;

/** More names than this from one word: not judged (the command is not checkable). */
export const MAX_MATCHES = 2000;

/** More folders listed than this for one `**`: not judged. */
const MAX_LISTINGS = 2000;

/** What expandWord needs: where the word is expanded, and how. */
export interface ExpandOptions {
  home?: string;
  cwd: string | null;
  list: ListFolder;
  /** The pattern options in force (bash's defaults when absent). */
  glob?: GlobOptions;
}

/**
 * The arguments a word becomes once its braces and patterns are expanded, or null when
 * that cannot be known (another run-time expansion, no working folder, too many names).
 * Only for words that expand: a word with neither gives null (its text is its argument).
 * @example expandWord([{ quote: '', raw: '.claude/{a,b}.yaml' }], { cwd: '/p', list }) // ['.claude/a.yaml', '.claude/b.yaml']
 */
export function expandWord(parts: ReadonlyArray<{ quote: '' | "'" | '"'; raw: string }>, options: ExpandOptions): Arg[] | null {
  const template = wordTemplate(parts, options.home);
  if (template === null) return null;
  const words = expandBraces(template);
  if (words === null) return null;
  const glob = options.glob ?? BASH_DEFAULTS;
  const out: Arg[] = [];
  for (const word of words) {
    // set -f: the pattern is passed as written; maybe set: as written, or the names.
    if (!hasPattern(word) || glob.noglob === true) out.push(unescape(word));
    else {
      const names = expandGlob(word, options.cwd, options.list, glob);
      if (names === null) return null;
      if (glob.noglob === 'maybe' && !names.includes(unescape(word))) out.push(unescape(word));
      out.push(...names);
    }
    if (out.length > MAX_MATCHES) return null;
  }
  return out;
}

/**
 * The word's text after quote removal with its expansion characters kept, or null when it
 * does not expand (no unquoted pattern or brace) or has another run-time expansion. Quoted
 * text and escaped characters come out escaped (`\*`, `\{`), so only the word's own act.
 * @example globPattern([{ quote: '', raw: '.claude/*' }]) // '.claude/*'
 * @example globPattern([{ quote: '"', raw: 'a*' }]) // null: quoted, no pattern
 */
export function globPattern(parts: ReadonlyArray<{ quote: '' | "'" | '"'; raw: string }>, home?: string): string | null {
  const template = wordTemplate(parts, home);
  return template !== null && !/[{,}]/.test(template.replace(/\\[\s\S]/g, '')) ? template : null;
}

function wordTemplate(parts: ReadonlyArray<{ quote: '' | "'" | '"'; raw: string }>, home?: string): string | null {
  let out = '';
  let expands = false;
  for (let i = 0; i < parts.length; i++) {
    const { quote, raw } = parts[i];
    if (quote === "'") out += escapeAll(raw);
    else if (quote === '"') {
      if (/[$`]/.test(raw.replace(/\\[\s\S]/g, ''))) return null;
      out += escapeAll(raw.replace(/\\([$`"\\\n])/g, (_m, c: string) => (c === '\n' ? '' : c)));
    } else {
      const lit = unquotedTemplate(raw, i === 0 ? home : undefined, i === 0);
      if (lit === null) return null;
      out += lit;
    }
  }
  expands = hasPattern(out) || expandBraces(out)?.length !== 1 || expandBraces(out)?.[0] !== out;
  return expands ? out : null;
}

/** True when the template has an unescaped `*`, `?`, a closed `[...]` or an extended pattern (`@(`, `+(`, `!(`). */
function hasPattern(template: string): boolean {
  for (let i = 0; i < template.length; i++) {
    const c = template[i];
    if (c === '\\') i++;
    else if (c === '*' || c === '?' || (c === '[' && template.indexOf(']', i + 2) > 0)) return true;
    else if ((c === '@' || c === '+' || c === '!') && template[i + 1] === '(') return true;
  }
  return false;
}

/**
 * Bash's brace expansion of an escaped template: `a{b,c}d` is `abd acd`, nested and in
 * sequence; `{1..3}`, `{01..10}`, `{a..e}`, `{1..9..2}` count. A `{` with neither a `,` nor
 * a sequence inside stays. Null past MAX_MATCHES words.
 * @example expandBraces('x{a,b{1..2}}') // ['xa', 'xb1', 'xb2']
 */
export function expandBraces(template: string): string[] | null {
  for (let i = 0; i < template.length; i++) {
    const c = template[i];
    if (c === '\\') {
      i++;
      continue;
    }
    if (c !== '{') continue;
    const group = readBraces(template, i);
    if (group === null) continue;
    const prefix = template.slice(0, i);
    const suffix = template.slice(group.end + 1);
    const out: string[] = [];
    for (const alternative of group.alternatives) {
      const rest = expandBraces(prefix + alternative + suffix);
      if (rest === null) return null;
      out.push(...rest);
      if (out.length > MAX_MATCHES) return null;
    }
    return out;
  }
  return [template];
}

/** The `{...}` at `start`: its alternatives and closing index, or null when it does not expand. */
function readBraces(template: string, start: number): { alternatives: string[]; end: number } | null {
  let depth = 0;
  const commas: number[] = [];
  for (let i = start; i < template.length; i++) {
    const c = template[i];
    if (c === '\\') {
      i++;
      continue;
    }
    if (c === '{') depth++;
    else if (c === ',' && depth === 1) commas.push(i);
    else if (c === '}' && --depth === 0) {
      const inner = template.slice(start + 1, i);
      if (commas.length > 0) {
        const bounds = [start, ...commas, i];
        return { alternatives: bounds.slice(1).map((b, k) => template.slice(bounds[k] + 1, b)), end: i };
      }
      const sequence = braceSequence(inner);
      return sequence === null ? null : { alternatives: sequence, end: i };
    }
  }
  return null;
}

/** `1..3`, `01..10`, `a..e`, with an optional `..step`; null when the text is no sequence. */
function braceSequence(inner: string): string[] | null {
  const numbers = /^([-+]?\d+)\.\.([-+]?\d+)(?:\.\.([-+]?\d+))?$/.exec(inner);
  const letters = /^([A-Za-z])\.\.([A-Za-z])(?:\.\.([-+]?\d+))?$/.exec(inner);
  const match = numbers ?? letters;
  if (!match) return null;
  const from = numbers ? Number(match[1]) : match[1].charCodeAt(0);
  const to = numbers ? Number(match[2]) : match[2].charCodeAt(0);
  const step = Math.abs(Number(match[3] ?? 1)) || 1;
  if (Math.abs(to - from) / step > MAX_MATCHES) return null;
  const width = numbers && (/^[-+]?0\d/.test(match[1]) || /^[-+]?0\d/.test(match[2])) ? Math.max(match[1].replace(/^[-+]/, '').length + (from < 0 ? 1 : 0), match[2].replace(/^[-+]/, '').length + (to < 0 ? 1 : 0)) : 0;
  const out: string[] = [];
  for (let v = from; from <= to ? v <= to : v >= to; v += from <= to ? step : -step) {
    out.push(numbers ? pad(v, width) : escapeAll(String.fromCharCode(v)));
  }
  return out;
}

function pad(value: number, width: number): string {
  const digits = String(Math.abs(value)).padStart(width - (value < 0 ? 1 : 0), '0');
  return value < 0 ? `-${digits}` : digits;
}

/**
 * The names `pattern` matches in `cwd` (relative patterns give relative names), sorted;
 * the pattern's own text (unescaped) when it matches none, as bash passes it, or nothing
 * under nullglob; null when it cannot be known (no working folder, too many names, a
 * pattern that matches nothing where nullglob may be on).
 * @example expandGlob('.claude/*', '/p', list) // ['.claude/policies.yaml', '.claude/settings.json']
 */
export function expandGlob(pattern: string, cwd: string | null, list: ListFolder, glob: GlobOptions = BASH_DEFAULTS): Arg[] | null {
  const absolute = pattern.startsWith('/');
  if (!absolute && cwd === null) return null;
  const base = absolute ? '' : (cwd as string).replace(/\/+$/, '');
  const folderOf = (names: readonly string[]) => `${base}/${names.join('/')}`.replace(/\/+$/, '') || '/';
  // `a//b` is `a/b`; a trailing `/` keeps only folders, which the listing of the match checks.
  const segments = splitSegments(pattern).filter((s) => s !== '');
  const trailingSlash = /(^|[^\\])\/$/.test(pattern);
  const budget = { left: MAX_LISTINGS };
  let found: string[][] = [[]];
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i];
    const next: string[][] = [];
    if (segment === '**' && glob.globstar !== false) {
      // globstar: zero or more folders; the last segment also every file below.
      for (const names of found) {
        const below = descend(names, folderOf, list, glob.dotglob !== false, i === segments.length - 1 && !trailingSlash, budget);
        if (below === null) return null;
        next.push(...below);
        if (next.length > MAX_MATCHES) return null;
      }
    } else {
      const matcher = segmentMatcher(segment, glob);
      for (const names of found) {
        const listed = list(folderOf(names));
        if (listed === null) continue;
        const literal = matcher.literal;
        const hits = literal === '.' || literal === '..' ? [literal] : literal !== null ? (listed.includes(literal) ? [literal] : []) : listed.filter((n) => matcher.test(n));
        for (const hit of hits) next.push([...names, hit]);
        if (next.length > MAX_MATCHES) return null;
      }
    }
    found = next;
    if (found.length === 0) break;
  }
  if (trailingSlash) found = found.filter((names) => list(folderOf(names)) !== null);
  found = found.filter((names) => names.length > 0);
  if (found.length === 0) {
    if (glob.nullglob === true) return [];
    return glob.nullglob === 'maybe' ? null : [unescape(pattern)];
  }
  return [...new Set(found.map((names) => `${absolute ? '/' : ''}${names.join('/')}${trailingSlash ? '/' : ''}`))].sort();
}

/**
 * `names` and every folder below it (for `**` before another segment), or every folder and
 * file below it (`**` last), as bash's globstar walks: dot names only with dotglob. Null
 * past the listing budget.
 */
function descend(names: readonly string[], folderOf: (names: readonly string[]) => string, list: ListFolder, dots: boolean, files: boolean, budget: { left: number }): string[][] | null {
  // As bash: `src/**` names `src/` itself too (`**` alone does not name the working folder).
  const out: string[][] = files ? (names.length > 0 ? [[...names, '']] : []) : [[...names]];
  const queue: string[][] = [[...names]];
  while (queue.length > 0) {
    const folder = queue.shift() as string[];
    if (--budget.left < 0) return null;
    const listed = list(folderOf(folder));
    if (listed === null) continue;
    for (const name of listed) {
      if (name === '.' || name === '..' || (!dots && name.startsWith('.'))) continue;
      const child = [...folder, name];
      const isFolder = budget.left-- > 0 ? list(folderOf(child)) !== null : null;
      if (isFolder === null) return null;
      if (isFolder) {
        queue.push(child);
        out.push(child);
      } else if (files) out.push(child);
      if (out.length > MAX_MATCHES) return null;
    }
  }
  return out;
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

/**
 * A matcher for one path segment, with bash's rules for `.` (dotglob lifts them),
 * case-insensitive under nocaseglob (maybe on: as if on, which matches no fewer), in time
 * linear in the name (glob-match.ts).
 */
function segmentMatcher(segment: string, glob: GlobOptions): SegmentMatcher {
  const matcher = segmentPattern(segment, glob.nocaseglob !== false);
  if (!matcher.pattern) return { literal: unescape(segment), test: () => false };
  // A pattern starting with `.` (or an extended pattern, which may: `@(.claude)`) may match a dot name.
  const dotted = glob.dotglob !== false || segment.startsWith('.') || segment.startsWith('\\.') || /^[?*+@!]\(/.test(segment);
  return { literal: null, test: (name) => name !== '.' && name !== '..' && (dotted || !name.startsWith('.')) && matcher.test(name) };
}

/** Unquoted text as a template: escapes kept, `~` at the start expanded; null on any other expansion. */
function unquotedTemplate(raw: string, home: string | undefined, first: boolean): string | null {
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i];
    if (c === '\\') i++;
    else if (c === '$' || c === '`') return null;
  }
  let text = raw.replace(/\\\n/g, '');
  if (first && text.startsWith('~')) {
    const slash = text.indexOf('/');
    const user = slash < 0 ? text.slice(1) : text.slice(1, slash);
    if (user !== '' || !home) return null;
    text = escapeAll(home) + (slash < 0 ? '' : text.slice(slash));
  }
  return text;
}

/** The pattern's text as bash passes it when it matches nothing: escapes removed. */
function unescape(pattern: string): string {
  return pattern.replace(/\\([\s\S])/g, '$1');
}

function escapeAll(text: string): string {
  return text.replace(/[\\*?[\]{},()|]/g, '\\$&');
}
