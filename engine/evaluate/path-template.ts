/**
 * Templates that name files: `only_if_exists`, `let: { file }`, `let: { newest }` and
 * `require: [{ file }]`. A value from the event is a name, not a pattern and not a way
 * out of its folder:
 * - in a glob, its glob characters match themselves (a teammate named `tester(1)`, `*`,
 *   `researcher-?` or `{a,b}` finds its own notes and nobody else's), unless the template
 *   asks for the value as a pattern with `{{glob:name}}`;
 * - a value placed after the template's start is one folder or file name: one holding `/`
 *   or `\`, or that is `.` or `..`, makes the rule not apply (as a missing value does);
 * - a value that starts the template is a path (`{{path}}`, `{{transcript_path}}`): it may
 *   hold `/`, but no `..` step. `~/` at the start is `$HOME`, as in the shell.
 */
import { parseTemplate } from './template';

/** The prefix that asks for a value as a glob pattern: `{{glob:team_name}}`. */
export const PATTERN_PREFIX = 'glob:';

/** A rendered path template, or why it has none. */
export type PathRender =
  | { text: string; isGlob: boolean; missing?: undefined; refused?: undefined }
  | { missing: string; text?: undefined; refused?: undefined }
  | { refused: string; value: string; text?: undefined; missing?: undefined };

/**
 * Renders a path or glob template, every value as literal text (or, for `{{glob:name}}`,
 * as a pattern). `glob` says whether the result is matched as a glob; `isGlob` says
 * whether it has any wildcard left, so a plain path is looked up as one.
 * @example renderPathTemplate('t/{{name}}/**', () => 'a(1)', true) // { text: 't/a[(]1[)]/**', isGlob: true }
 * @example renderPathTemplate('t/{{name}}', () => '..', false) // { refused: 'name', value: '..' }
 */
export function renderPathTemplate(template: string, lookup: (name: string) => string | undefined, glob: boolean): PathRender {
  // `~/` at the start is the home folder, as the shell reads it ($HOME: no value, no path).
  const parts = parseTemplate(template.startsWith('~/') ? `{{env.HOME}}${template.slice(1)}` : template);
  let isGlob = glob && parts.some((part, i) => i % 2 === 0 && hasGlobChars(part));
  if (parts.length === 1) return { text: parts[0], isGlob };
  const values: string[] = [];
  for (let i = 1; i < parts.length; i += 2) {
    const asPattern = parts[i].startsWith(PATTERN_PREFIX);
    const name = asPattern ? parts[i].slice(PATTERN_PREFIX.length) : parts[i];
    let value = lookup(name);
    if (value === undefined || value === '') return { missing: name };
    const leading = i === 1 && parts[0] === '';
    if (leading) value = value.split('\\').join('/');
    if (!confined(value, leading)) return { refused: name, value };
    if (asPattern && glob && hasGlobChars(value)) isGlob = true;
    values.push(value);
  }
  let out = parts[0];
  for (let i = 1; i < parts.length; i += 2) {
    const value = values[(i - 1) / 2];
    const literal = !parts[i].startsWith(PATTERN_PREFIX);
    out += (isGlob && literal ? escapeGlob(value, i === 1 && parts[0] === '') : value) + parts[i + 1];
  }
  return { text: out, isGlob };
}

/** A name stays one name; a leading path takes no `..` step. */
function confined(value: string, leading: boolean): boolean {
  if (leading) return !value.split('/').includes('..');
  return value !== '.' && value !== '..' && !value.includes('/') && !value.includes('\\');
}

/** Characters that make a glob: a template's own text with one of them is matched as a glob. */
const GLOB_CHARS = '*?[]{}()!|';

/** True when the text has a glob character (a scan, not a regex: no compile at the first event). */
export function hasGlobChars(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (GLOB_CHARS.includes(text[i])) return true;
  return false;
}

/**
 * The value as a glob that matches only itself: each glob character in a class of its own
 * (`[*]`), which picomatch and the walker read on every platform (a backslash is a path
 * separator on Windows). `!` is a wildcard only at the very start of a glob.
 * @example escapeGlob('tester(1)', false) // 'tester[(]1[)]'
 */
export function escapeGlob(value: string, atStart: boolean): string {
  let out = '';
  for (let i = 0; i < value.length; i++) {
    const c = value[i];
    const special = '*?[]{}()|'.includes(c) || (c === '!' && atStart && i === 0);
    out += special ? `[${c}]` : c;
  }
  return out;
}

/**
 * A glob segment's literal text when it is one (its only classes hold one character each,
 * as escapeGlob writes them), else null.
 * @example literalSegment('tester[(]1[)]') // 'tester(1)'
 */
export function literalSegment(segment: string): string | null {
  let out = '';
  for (let i = 0; i < segment.length; i++) {
    const c = segment[i];
    if (c === '[' && segment[i + 2] === ']' && segment[i + 1] !== undefined) {
      out += segment[i + 1];
      i += 2;
    } else if (GLOB_CHARS.includes(c)) {
      return null;
    } else {
      out += c;
    }
  }
  return out;
}
