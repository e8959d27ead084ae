/**
 * The shipped packs' parses, made when the package is built (scripts/build.mjs writes
 * dist/packs-parsed.json beside the bundles) and read by the compiler, so that a compile
 * that includes a pack unchanged does not parse its YAML again (engine/load/parse-snapshot.ts).
 * Keyed by the SHA-256 of the text, and used only by the build that made them: a pack
 * edited in place, or a file from another build, is parsed as any other.
 */
import * as fs from 'fs';
import * as path from 'path';
import { guardedRegexes } from '../compile/expression-regexes';
import { parsedFastExpression } from '../compile/fast-expression';
import { parsePolicyText } from '../load';
import { snapshotOf, type ParseSnapshot } from '../load/parse-snapshot';
import type { FastExpression } from '../types';
import { validatePlaced } from '../validate';
import { sha256Hex } from './cache';
import { ENGINE_VERSION } from './engine-version';

export const SHIPPED_PARSES_FILE = 'packs-parsed.json';

/** The file's content: the build it belongs to, and a snapshot per text hash. */
export interface ShippedParses {
  engine: string;
  files: Record<string, ParseSnapshot>;
}

/**
 * The snapshot of every `*.yaml` in `packDir` that parses cleanly, for the build to write.
 * @example shippedParsesOf('/repo/policies').files[sha256Hex(text)].doc // { version: 1, rules: [...] }
 */
export function shippedParsesOf(packDir: string): ShippedParses {
  const files: ShippedParses['files'] = {};
  for (const name of fs.readdirSync(packDir).filter((f) => f.endsWith('.yaml')).sort()) {
    const bytes = fs.readFileSync(path.join(packDir, name));
    const parsed = parsePolicyText(name, bytes.toString('utf8'));
    const snapshot = snapshotOf(parsed);
    if (!snapshot) continue;
    // Validation depends on the document alone: one that passes here passes at every compile of the same build.
    const valid = validatePlaced({ file: name, hash: '', doc: parsed.doc, map: parsed.map, includes: [], root: false }).length === 0;
    const expressions = expressionsOf(snapshot.doc);
    const regexes = Object.entries(expressions).map(([text]) => [text, guardedRegexes([text])] as const).filter(([, list]) => list.length > 0);
    files[sha256Hex(bytes)] = { ...snapshot, expressions, ...(regexes.length > 0 ? { expressionRegexes: Object.fromEntries(regexes) } : {}), ...(valid ? { valid: true as const } : {}) };
  }
  return { engine: ENGINE_VERSION, files };
}

/**
 * The fast form of each expression a policy document holds (a rule's `when`, a let's
 * `expr`) that parses, by text. One the compiler meets and this misses is parsed then.
 */
function expressionsOf(doc: unknown): Record<string, FastExpression | null> {
  const texts: unknown[] = [];
  const rules = (doc as { rules?: unknown }).rules;
  for (const rule of Array.isArray(rules) ? rules : []) {
    if (rule === null || typeof rule !== 'object') continue;
    texts.push((rule as { when?: unknown }).when);
    const lets = (rule as { let?: unknown }).let;
    if (lets !== null && typeof lets === 'object') for (const value of Object.values(lets)) texts.push((value as { expr?: unknown } | null)?.expr);
  }
  const out: Record<string, FastExpression | null> = {};
  for (const text of texts) {
    if (typeof text !== 'string' || Object.hasOwn(out, text)) continue;
    // One that does not parse is left to the compiler, which reports it.
    const parsed = parsedFastExpression(text);
    if (parsed) out[text] = parsed.fast;
  }
  return out;
}

/**
 * The snapshots in `<dir>/packs-parsed.json` when that file was made by this very build;
 * null otherwise (no file, another build, not bundled: ENGINE_VERSION ends in `+dev`).
 * Read afresh at each call: a compile may keep and change what it is given.
 */
export function readShippedParses(dir: string = __dirname, engine: string = ENGINE_VERSION): ShippedParses['files'] | null {
  if (engine.endsWith('+dev')) return null;
  try {
    const parsed = JSON.parse(fs.readFileSync(path.join(dir, SHIPPED_PARSES_FILE), 'utf8')) as Partial<ShippedParses>;
    return parsed.engine === engine && parsed.files && typeof parsed.files === 'object' ? parsed.files : null;
  } catch {
    return null;
  }
}
