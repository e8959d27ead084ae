/**
 * Entry of dist/compile.cjs: the slow path (yaml, ajv, compile) that the hook runner
 * loads only when its cached artefact is missing or stale.
 */
import { buildPolicy } from '../build-policy';
import type { CompiledPolicy, Diagnostic } from '../types';
import { createFsReader, defaultPackDir } from './fs-reader';
import type { SourceHash } from './sources';

export interface CompileResult {
  policy: CompiledPolicy | null;
  diagnostics: Diagnostic[];
  /** Every file read while building, with the hash of what was read. */
  sources: SourceHash[];
}

/**
 * Loads, validates and compiles the policy rooted at `roots`.
 * @example compilePolicyFiles(['/p/.claude/policies.yaml']).policy?.rules.length // 3
 */
export function compilePolicyFiles(roots: string[], packDir: string = defaultPackDir()): CompileResult {
  const reader = createFsReader(packDir);
  const { policy, diagnostics } = buildPolicy(roots, reader);
  return { policy, diagnostics, sources: reader.sources() };
}
