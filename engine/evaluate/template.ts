/**
 * `{{ name }}` templates: parsed once into literal text and placeholder names, then
 * rendered with a lookup function per event.
 */

/** Literal text and placeholder names alternate: even indices are text, odd indices are names. */
type Parsed = readonly string[];

const PLACEHOLDER = /\{\{\s*([^{}\s]+)\s*\}\}/g;
const cache = new Map<string, Parsed>();

function parse(template: string): Parsed {
  let parsed = cache.get(template);
  if (parsed) return parsed;
  const parts: string[] = [];
  let last = 0;
  // Most texts have no placeholder: no need to run (and compile) the pattern for them.
  const matches = template.includes('{{') ? template.matchAll(PLACEHOLDER) : [];
  for (const m of matches) {
    parts.push(template.slice(last, m.index), m[1]);
    last = m.index + m[0].length;
  }
  parts.push(template.slice(last));
  parsed = parts;
  if (cache.size > 10_000) cache.clear();
  cache.set(template, parsed);
  return parsed;
}

/**
 * Fills every placeholder; one with no value renders as empty text.
 * @example renderTemplate('{{ agent }} may not write {{path}}', (n) => ({ agent: 'ba' })[n]) // 'ba may not write '
 */
export function renderTemplate(template: string, lookup: (name: string) => string | undefined): string {
  const parts = parse(template);
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
  const parts = parse(template);
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
  const parts = parse(template);
  const names: string[] = [];
  for (let i = 1; i < parts.length; i += 2) if (!names.includes(parts[i])) names.push(parts[i]);
  return names;
}
