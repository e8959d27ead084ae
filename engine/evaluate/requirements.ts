/**
 * `require`: files that must exist with a minimum size. A rule with requirements applies
 * when any of them is unmet; `{{unmet}}` describes those.
 */
import type { CompiledRequirement, Facts, FileFact, RequirementCheck } from '../types';
import { renderStrict } from './template';

/** True when the text has a glob character (a scan, not a regex: no compile at the first event). */
function hasGlobChars(text: string): boolean {
  for (let i = 0; i < text.length; i++) if ('*?[]{}()!'.includes(text[i])) return true;
  return false;
}

/** The checks, or the first placeholder a requirement path had no value for. */
export type RequirementResult = { checks: RequirementCheck[]; missing?: undefined } | { checks?: undefined; missing: string };

/**
 * Checks each requirement: renders its path, finds the matching files and keeps the largest.
 * @example checkRequirements([{ file: 'notes/{{agent}}.md', minBytes: 10 }], lookup, facts)
 *   // { checks: [{ file: 'notes/ba.md', minBytes: 10, found: { path: 'notes/ba.md', size: 4, mtimeMs: 0 }, ok: false }] }
 */
export function checkRequirements(
  requires: readonly CompiledRequirement[],
  lookup: (name: string) => string | undefined,
  facts: Facts,
): RequirementResult {
  const checks: RequirementCheck[] = [];
  for (const req of requires) {
    const rendered = renderStrict(req.file, lookup);
    if (rendered.missing !== undefined) return { missing: rendered.missing };
    const file = rendered.text;
    const found = largest(matchingFiles(file, facts));
    checks.push({ file, minBytes: req.minBytes, found, ok: found !== null && found.size >= req.minBytes });
  }
  return { checks };
}

/**
 * One readable line for the unmet requirements, joined with "; ".
 * @example describeUnmet(checks)
 *   // 'L1-index.yaml missing under .agent/teams/t1 (needs >= 50 bytes); notes/L2.md is 12 bytes (needs >= 100)'
 */
export function describeUnmet(checks: readonly RequirementCheck[]): string {
  const parts: string[] = [];
  for (const check of checks) {
    if (check.ok) continue;
    if (check.found) {
      parts.push(`${check.found.path} is ${check.found.size} bytes (needs >= ${check.minBytes})`);
      continue;
    }
    const needs = check.minBytes > 1 ? ` (needs >= ${check.minBytes} bytes)` : '';
    parts.push(`${describeMissing(check.file)}${needs}`);
  }
  return parts.join('; ');
}

function matchingFiles(file: string, facts: Facts): FileFact[] {
  if (hasGlobChars(file)) return facts.findFiles(file);
  if (facts.stat(file) !== 'file') return [];
  return facts.findFiles(file).filter((f) => f.path === file);
}

function largest(files: readonly FileFact[]): FileFact | null {
  let best: FileFact | null = null;
  for (const f of files) if (!best || f.size > best.size) best = f;
  return best;
}

/** `name missing under base` for a glob with a literal base folder and file name, else `pattern missing`. */
function describeMissing(file: string): string {
  const segments = file.split('/');
  const firstGlob = segments.findIndex((s) => hasGlobChars(s));
  const name = segments[segments.length - 1];
  if (firstGlob <= 0 || hasGlobChars(name)) return `${file} missing`;
  return `${name} missing under ${segments.slice(0, firstGlob).join('/')}`;
}
