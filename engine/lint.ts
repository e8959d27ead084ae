/**
 * Lint: the semantic checks that run on a policy after load, validate and compile.
 * Pure. Each check is a data object in engine/lint/ (listed in engine/lint/checks.ts);
 * `lintPolicy` runs them all, `lintSources` also runs the pipeline and merges its
 * diagnostics.
 */
import { buildPolicy } from './build-policy';
import type { PolicyReader } from './load';
import { LINT_CHECKS } from './lint/checks';
import { createLintContext } from './lint/context';
import type { LintOptions } from './lint/context';
import type { CompiledPolicy, Diagnostic, LoadedFile } from './types';

export type { LintCheck } from './lint/check';
export type { LintContext, LintOptions, LintRule } from './lint/context';
export type { ClaudeSettings } from './lint/claude-settings';
export { parseClaudeSettings, mergeClaudeSettings } from './lint/claude-settings';
export { LINT_CHECKS } from './lint/checks';

/** The per-host codes: reported for a pack's rules too. */
const HOST_CODES = new Set(['host-outcome-degraded', 'host-event-missing', 'host-no-identity']);

/**
 * Runs every lint check; the result is sorted by file, line and column.
 * @example lintPolicy(files, policy, { settings: null }) // [{ code: 'outcome-impossible', line: 7, ... }]
 */
export function lintPolicy(files: LoadedFile[], policy: CompiledPolicy | null, options: LintOptions = {}): Diagnostic[] {
  const ctx = createLintContext(files, policy, options);
  // Shipped packs are linted and tested here; their warnings are not the user's to fix. What
  // a host the project uses cannot do with a pack's rule is the user's to know, though.
  const packFiles = new Set(files.filter((f) => f.pack !== undefined).map((f) => f.file));
  const found = LINT_CHECKS.flatMap((check) => check.check(ctx));
  return sortDiagnostics(found.filter((d) => d.severity === 'error' || d.file === undefined || !packFiles.has(d.file) || HOST_CODES.has(d.code)));
}

export interface LintResult {
  files: LoadedFile[];
  policy: CompiledPolicy | null;
  diagnostics: Diagnostic[];
}

/**
 * Loads, validates and compiles `roots`, then lints: every diagnostic of every stage, sorted.
 * @example lintSources(['.claude/policies.yaml'], reader, {}).diagnostics.map((d) => d.code) // ['unknown-event']
 */
export function lintSources(roots: string[], reader: PolicyReader, options: LintOptions = {}): LintResult {
  const built = buildPolicy(roots, reader);
  const diagnostics = sortDiagnostics([...built.diagnostics, ...lintPolicy(built.files, built.policy, options)]);
  return { files: built.files, policy: built.policy, diagnostics: dedupe(diagnostics) };
}

/**
 * Orders diagnostics by file, line, column, then code; diagnostics without a file first.
 * @example sortDiagnostics([{ file: 'b', line: 1 }, { file: 'a', line: 9 }]) // a:9 then b:1
 */
export function sortDiagnostics(list: readonly Diagnostic[]): Diagnostic[] {
  return [...list].sort((a, b) =>
    compare(a.file ?? '', b.file ?? '') || (a.line ?? 0) - (b.line ?? 0) || (a.column ?? 0) - (b.column ?? 0) || compare(a.code, b.code));
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function dedupe(list: Diagnostic[]): Diagnostic[] {
  const seen = new Set<string>();
  return list.filter((d) => {
    const key = `${d.file}:${d.line}:${d.column}:${d.code}:${d.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
