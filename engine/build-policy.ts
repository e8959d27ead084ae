/**
 * load + validate + compile in one call: what the runner, lint and test commands use.
 */
import { compilePolicy } from './compile';
import { loadPolicyFiles } from './load';
import type { PolicyReader } from './load';
import type { CompiledPolicy, Diagnostic, LoadedFile } from './types';
import { validatePlaced } from './validate';

export interface BuildResult {
  /**
   * null when an error breaks the whole policy: a root file that cannot be read or is no
   * policy, an error in settings or agents. Otherwise the policy without its broken rules
   * and files, which it lists in `broken` (and `diagnostics` reports as errors).
   */
  policy: CompiledPolicy | null;
  files: LoadedFile[];
  diagnostics: Diagnostic[];
}

/**
 * Builds the compiled policy of `roots` (and their includes). Files with YAML syntax errors
 * are neither validated nor compiled. Files with schema errors are still compiled (the
 * compiler tolerates malformed values), so one run reports every problem it can; each
 * error then leaves out what it breaks (compile/broken.ts).
 * @example buildPolicy(['.claude/policies.yaml'], reader).policy?.rules.length // 12
 */
export function buildPolicy(roots: string[], reader: PolicyReader): BuildResult {
  const loaded = loadPolicyFiles(roots, reader);
  const diagnostics = [...loaded.diagnostics];
  const placed = [...loaded.placed];
  const unparsable = new Set(loaded.diagnostics.filter((d) => d.code === 'yaml-syntax').map((d) => d.file));
  for (const file of loaded.files) {
    if (unparsable.has(file.file)) continue;
    // A shipped pack validated when the package was built is not validated again.
    const found = file.valid ? [] : validatePlaced(file);
    placed.push(...found);
    diagnostics.push(...found.map((p) => p.diagnostic));
  }
  // An unparsable file is compiled too (it has no rules): its error leaves it out as a whole.
  const compiled = compilePolicy(loaded.files, placed);
  diagnostics.push(...compiled.diagnostics);
  return { policy: compiled.policy, files: loaded.files, diagnostics };
}
