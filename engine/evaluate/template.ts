/**
 * `{{ name }}` templates: parsed once into literal text and placeholder names, then
 * rendered with a lookup function per event.
 */

/** Literal text and placeholder names alternate: even indices are text, odd indices are names. */
type Parsed = readonly string[];

const cache = new Map<string, Parsed>();

/**
 * The template split at its `{{ name }}` placeholders (the name: no braces, no space;
 * spaces around it allowed), as `/\{\{\s*([^{}\s]+)\s*\}\}/g` would find them, but with a
 * scan: a one-shot runner would pay the regex's compile at its first event.
 */
export function parseTemplate(template: string): Parsed {
  let parsed = cache.get(template);
  if (parsed) return parsed;
  const parts: string[] = [];
  let last = 0;
  for (let open = template.indexOf('{{'); open >= 0; open = template.indexOf('{{', open + 1)) {
    const found = placeholderAt(template, open);
    if (!found) continue;
    parts.push(template.slice(last, open), found.name);
    last = found.end;
    open = found.end - 1;
  }
  parts.push(template.slice(last));
  parsed = parts;
  if (cache.size > 10_000) cache.clear();
  cache.set(template, parsed);
  return parsed;
}

/** The placeholder whose `{{` is at `open`: its name and the index past its `}}`; or null. */
function placeholderAt(text: string, open: number): { name: string; end: number } | null {
  let i = open + 2;
  while (i < text.length && isSpace(text[i])) i++;
  const start = i;
  while (i < text.length && text[i] !== '{' && text[i] !== '}' && !isSpace(text[i])) i++;
  if (i === start) return null;
  const name = text.slice(start, i);
  while (i < text.length && isSpace(text[i])) i++;
  return text.startsWith('}}', i) ? { name, end: i + 2 } : null;
}

/** JavaScript's `\s`: the ASCII spaces, NBSP, the Unicode space separators, line/paragraph separators and BOM. */
const SPACES = '\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff';

function isSpace(c: string): boolean {
  return SPACES.includes(c);
}

/**
 * Fills every placeholder; one with no value renders as empty text.
 * @example renderTemplate('{{ agent }} may not write {{path}}', (n) => ({ agent: 'ba' })[n]) // 'ba may not write '
 */
export function renderTemplate(template: string, lookup: (name: string) => string | undefined): string {
  const parts = parseTemplate(template);
  if (parts.length === 1) return parts[0];
  let out = parts[0];
  for (let i = 1; i < parts.length; i += 2) out += (lookup(parts[i]) ?? '') + parts[i + 1];
  return out;
}

/** A template rendered for a path: either the text, or the first placeholder that had no value. */
export type StrictRender = { text: string; missing?: undefined } | { text?: undefined; missing: string };

/**
 * Fills every placeholder, or reports the first one with no (or an empty) value, so a path
 * is never checked half-filled.
 * @example renderStrict('.agent/teams/{{team_name}}', () => undefined) // { missing: 'team_name' }
 */
export function renderStrict(template: string, lookup: (name: string) => string | undefined): StrictRender {
  const parts = parseTemplate(template);
  if (parts.length === 1) return { text: parts[0] };
  let out = parts[0];
  for (let i = 1; i < parts.length; i += 2) {
    const value = lookup(parts[i]);
    if (value === undefined || value === '') return { missing: parts[i] };
    out += value + parts[i + 1];
  }
  return { text: out };
}

/**
 * The placeholder names a template uses, each once, in order of first use.
 * @example templateNames('{{agent}} wrote {{ path }} as {{agent}}') // ['agent', 'path']
 */
export function templateNames(template: string): string[] {
  const parts = parseTemplate(template);
  const names: string[] = [];
  for (let i = 1; i < parts.length; i += 2) if (!names.includes(parts[i])) names.push(parts[i]);
  return names;
}
