/**
 * Entry of dist/compile.cjs: the slow path (yaml, ajv, compile) that the hook runner
 * loads only when its cached artefact is missing or stale.
 */
import { buildPolicy } from '../build-policy';
import { firstDefined, precedenceOrder } from '../compile/precedence';
import type { CompiledPolicy, Diagnostic, LoadedFile } from '../types';
import { createFsReader, defaultPackDir } from './fs-reader';
import type { SourceHash } from './sources';

export interface CompileResult {
  policy: CompiledPolicy | null;
  diagnostics: Diagnostic[];
  /** Every file read while building, with the hash of what was read. */
  sources: SourceHash[];
  /** The on_error the files declare, read even when the policy does not build. */
  declaredOnError: 'open' | 'closed' | null;
}

/**
 * Loads, validates and compiles the policy rooted at `roots`.
 * @example compilePolicyFiles(['/p/.claude/policies.yaml']).policy?.rules.length // 3
 */
export function compilePolicyFiles(roots: string[], packDir: string = defaultPackDir()): CompileResult {
  const reader = createFsReader(packDir);
  const { policy, diagnostics, files } = buildPolicy(roots, reader);
  return { policy, diagnostics, sources: reader.sources(), declaredOnError: declaredOnError(files) };
}

/** A broken policy that says `on_error: closed` still fails closed, even on a cold cache. */
function declaredOnError(files: readonly LoadedFile[]): 'open' | 'closed' | null {
  const value = firstDefined(precedenceOrder(files), (doc) => doc.settings?.on_error)?.value;
  return value === 'open' || value === 'closed' ? value : null;
}
