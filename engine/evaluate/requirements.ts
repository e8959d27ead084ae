/**
 * `require`: files that must exist with a minimum size. A rule with requirements applies
 * when any of them is unmet; `{{unmet}}` describes those.
 */
import type { CompiledRequirement, Facts, FileFact, RequirementCheck } from '../types';
import { escapeGlob, hasGlobChars, literalSegment, renderPathTemplate } from './path-template';

/**
 * The checks, or why a requirement path could not be filled in: the first placeholder
 * with no value, or a value that would leave its folder (path-template.ts).
 */
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
    const rendered = renderPathTemplate(req.file, lookup, true);
    if (rendered.missing !== undefined) return { missing: `no value for {{${rendered.missing}}}` };
    if (rendered.refused !== undefined) return { missing: notOneName(rendered.refused, rendered.value) };
    const file = rendered.text;
    const found = largest(matchingFiles(file, rendered.isGlob, facts));
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

/**
 * Why a value cannot be placed in a path.
 * @example notOneName('team_name', '..') // '{{team_name}} is "..", not one folder name'
 */
export function notOneName(name: string, value: string): string {
  return `{{${name}}} is ${JSON.stringify(value.length > 80 ? `${value.slice(0, 80)}…` : value)}, not one folder name`;
}

function matchingFiles(file: string, isGlob: boolean, facts: Facts): FileFact[] {
  if (isGlob) return facts.findFiles(file);
  if (facts.stat(file) !== 'file') return [];
  return facts.findFiles(escapeGlob(file, true)).filter((f) => f.path === file);
}

function largest(files: readonly FileFact[]): FileFact | null {
  let best: FileFact | null = null;
  for (const f of files) if (!best || f.size > best.size) best = f;
  return best;
}

/**
 * `name missing under base` for a glob with a literal base folder and file name, else
 * `pattern missing`. A value's escaped characters (`[(]`) count as the literal they are.
 */
function describeMissing(file: string): string {
  if (!hasGlobChars(file)) return `${file} missing`;
  const literals = file.split('/').map(literalSegment);
  const firstGlob = literals.indexOf(null);
  const name = literals[literals.length - 1];
  if (firstGlob <= 0 || name === null) return `${file} missing`;
  return `${name} missing under ${literals.slice(0, firstGlob).join('/')}`;
}
