/**
 * load + validate + compile in one call: what the runner, lint and test commands use.
 */
import { hasErrors } from './diagnostics';
import { compilePolicy } from './compile';
import { loadPolicyFiles } from './load';
import type { PolicyReader } from './load';
import type { CompiledPolicy, Diagnostic, LoadedFile } from './types';
import { validatePolicyFile } from './validate';

export interface BuildResult {
  /** null when any error-severity diagnostic exists. */
  policy: CompiledPolicy | null;
  files: LoadedFile[];
  diagnostics: Diagnostic[];
}

/**
 * Builds the compiled policy of `roots` (and their includes). Files with YAML syntax errors
 * are neither validated nor compiled. Files with schema errors are still compiled (the
 * compiler tolerates malformed values), so one run reports every problem it can.
 * @example buildPolicy(['.claude/policies.yaml'], reader).policy?.rules.length // 12
 */
export function buildPolicy(roots: string[], reader: PolicyReader): BuildResult {
  const loaded = loadPolicyFiles(roots, reader);
  const diagnostics = [...loaded.diagnostics];
  const unparsable = new Set(loaded.diagnostics.filter((d) => d.code === 'yaml-syntax').map((d) => d.file));
  const parsed = loaded.files.filter((file) => !unparsable.has(file.file));
  for (const file of parsed) diagnostics.push(...validatePolicyFile(file));
  const compiled = compilePolicy(parsed);
  diagnostics.push(...compiled.diagnostics);
  const policy = hasErrors(diagnostics) ? null : compiled.policy;
  return { policy, files: loaded.files, diagnostics };
}
