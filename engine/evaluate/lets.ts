/**
 * `let` values: read a file (the newest matching a glob, or a named one), optionally keep
 * a JSON field or a regex capture, and store the value with its sub-fields for templates;
 * the same values as `when` bindings. Store-reading lets are computed in memory-lets.ts.
 */
import type { CompiledLet, Facts, FileFact } from '../types';
import { cutText, getField, valueText } from './fields';
import { policyRegexExec } from './regex';
import { escapeGlob, renderPathTemplate } from './path-template';
import { notOneName } from './requirements';

/**
 * A computed value, or why it could not be computed; `path` is the file it came from, if
 * any. `unreadable`: the memory store could not be read (not merely empty), which a rule
 * that denies, asks or blocks does not take as "no value" (rule.ts).
 */
export type LetResult =
  | { ok: true; value: string; path: string | null; subs?: Record<string, string> }
  | { ok: false; detail: string; path: string | null; unreadable?: true };

/**
 * Computes a `newest` or `file` let: renders its path template, reads the file, shapes the text.
 * @example computeFileLet(gcLet, lookup, facts) // { ok: true, value: '3', path: '.agent/teams/t1/global-context.md' }
 */
export function computeFileLet(l: CompiledLet, lookup: (name: string) => string | undefined, facts: Facts): LetResult {
  const target = renderPathTemplate(l.target, lookup, l.kind === 'newest');
  if (target.missing !== undefined) return { ok: false, detail: `no value for {{${target.missing}}}`, path: null };
  if (target.refused !== undefined) return { ok: false, detail: notOneName(target.refused, target.value), path: null };
  let path = target.text;
  if (l.kind === 'newest') {
    const newest = newestFile(facts.findFiles(target.isGlob ? path : escapeGlob(path, true)));
    if (!newest) return { ok: false, detail: `no file matches ${path}`, path: null };
    path = newest.path;
  }
  const text = facts.readText(path, l.maxBytes);
  if (text === null) return { ok: false, detail: `${path} does not exist or cannot be read`, path: null };
  return shapeLetValue(l, text, path);
}

/**
 * Turns an `expr` let's result into text (then field / extract as for files).
 * @example computeExprLet(exprLet, 42) // { ok: true, value: '42', path: null }
 */
export function computeExprLet(l: CompiledLet, result: unknown): LetResult {
  const text = valueText(result);
  if (text === undefined) return { ok: false, detail: 'the expression has no value', path: null };
  return shapeLetValue(l, text, null);
}

/**
 * Stores a let's value and sub-fields; returns why the rule must not apply, or null.
 * A failed optional let stores an empty value.
 * @example storeLet(values, gcLet, { ok: false, detail: 'no file matches x', path: null }) // 'let gc: no file matches x'
 */
export function storeLet(values: Map<string, string>, l: CompiledLet, result: LetResult): string | null {
  if (!result.ok && !l.optional) return `let ${l.name}: ${result.detail}`;
  values.set(l.name, result.ok ? result.value : '');
  if (result.ok && result.subs) for (const [sub, value] of Object.entries(result.subs)) values.set(`${l.name}.${sub}`, value);
  if (result.path !== null) {
    const slash = result.path.lastIndexOf('/');
    const dir = slash < 0 ? '' : result.path.slice(0, slash);
    values.set(`${l.name}.path`, result.path);
    values.set(`${l.name}.file`, result.path.slice(slash + 1));
    values.set(`${l.name}.dir`, dir.slice(dir.lastIndexOf('/') + 1));
  }
  return null;
}

function shapeLetValue(l: CompiledLet, text: string, path: string | null): LetResult {
  let value = text;
  const origin = path ?? 'the value';
  if (l.field !== null) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(value);
    } catch {
      return { ok: false, detail: `${origin} is not JSON`, path };
    }
    const picked = valueText(getField(parsed, l.field));
    if (picked === undefined) return { ok: false, detail: `${origin} has no field ${l.field}`, path };
    value = picked;
  }
  if (l.extract !== null) {
    const flags = l.extract.flags.includes('m') ? l.extract.flags : `${l.extract.flags}m`;
    const m = policyRegexExec({ ...l.extract, flags }, value);
    if (!m) return { ok: false, detail: `/${l.extract.source}/ matches no line of ${origin}`, path };
    value = m[1] ?? m[0] ?? '';
  }
  return { ok: true, value: cutText(value), path };
}

/** The most recently modified file; ties go to the first path in sort order. */
function newestFile(files: readonly FileFact[]): FileFact | null {
  let best: FileFact | null = null;
  for (const f of files) {
    if (!best || f.mtimeMs > best.mtimeMs || (f.mtimeMs === best.mtimeMs && f.path < best.path)) best = f;
  }
  return best;
}

const NONE: ReadonlySet<string> = new Set();
const NO_VALUES: ReadonlyMap<string, unknown> = new Map();

/** Sub-values that are numbers in `when` (`$seen_age_minutes > 30`); the others are text. */
const NUMERIC_SUBS = new Set(['age_minutes', 'importance', 'id', 'count', 'top']);

/**
 * The lets as `when` bindings: `$name` for each value, `$name_sub` for each sub-value
 * (`name.fields.x` as `$name_fields_x`). A `count` and the numeric sub-values are numbers,
 * and an `expr` let keeps its expression's JSON value (`typed`: a number, a boolean, a list).
 * An optional let that could not be computed (named in `unset`) binds nothing, so
 * `$fails >= 3` is false and `$exists($previous)` tells whether there was one.
 * @example letBindings([failsLet], new Map([['fails', '3']])) // { fails: 3 }
 */
export function letBindings(lets: readonly CompiledLet[], values: ReadonlyMap<string, string>, unset: ReadonlySet<string> = NONE, typed: ReadonlyMap<string, unknown> = NO_VALUES): Record<string, unknown> {
  const bindings: Record<string, unknown> = {};
  for (const l of lets) {
    const value = values.get(l.name);
    if (value === undefined || unset.has(l.name)) continue;
    bindings[l.name] = typed.has(l.name) ? typed.get(l.name) : l.kind === 'count' ? Number(value) : value;
    const prefix = `${l.name}.`;
    for (const [key, sub] of values) {
      if (!key.startsWith(prefix)) continue;
      const name = key.slice(prefix.length);
      const binding = `${l.name}_${name.replace(/[^A-Za-z0-9_]/g, '_')}`;
      bindings[binding] = NUMERIC_SUBS.has(name) && sub !== '' ? Number(sub) : sub;
    }
  }
  return bindings;
}
