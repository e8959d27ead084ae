/**
 * Helpers for compile tests: build a policy from in-memory YAML.
 */
import { buildPolicy } from '../build-policy';
import { memoryReader } from '../load';
import type { CompiledPolicy, Diagnostic } from '../types';

export const lines = (...ls: string[]): string => ls.join('\n') + '\n';

/** `code file:line:column` for compact assertions. */
export const where = (d: Diagnostic): string => `${d.code} ${d.file}:${d.line}:${d.column}`;

/**
 * Builds `roots` (default: the first file) from `files`; packs are `pack:<name>` paths.
 * @example build({ 'p.yaml': lines('version: 1') }).policy?.rules // []
 */
export function build(files: Record<string, string>, roots: string[] = [Object.keys(files)[0]]): { policy: CompiledPolicy | null; diagnostics: Diagnostic[] } {
  const packs = Object.fromEntries(Object.keys(files).filter((f) => f.startsWith('/packs/')).map((f) => [f.slice(7).replace(/\.yaml$/, ''), f]));
  return buildPolicy(roots, memoryReader(files, packs));
}

/** Builds a single-file policy whose rules are given as YAML lines under `rules:`. */
export function buildRules(...ruleLines: string[]) {
  return build({ 'p.yaml': lines('version: 1', 'rules:', ...ruleLines) });
}

/** The compiled policy, failing the test with the diagnostics when there is none. */
export function compiled(result: { policy: CompiledPolicy | null; diagnostics: Diagnostic[] }): CompiledPolicy {
  if (!result.policy) throw new Error(`no policy: ${result.diagnostics.map(where).join(', ')}`);
  return result.policy;
}
