/**
 * Stage 3 of the pipeline: validated files -> one CompiledPolicy (ready matchers, merged
 * settings, rule index), with diagnostics for what the schema cannot see.
 */
import { diagnostic, hasErrors } from './diagnostics';
import { buildRuleIndex } from './rule-index';
import type { CompiledPolicy, CompiledRule, Diagnostic, LoadedFile, SourceLocation } from './types';
import { toPointer } from './load/source-map';
import { compileAgents } from './compile/agents';
import { isObject } from './compile/context';
import { compileRule } from './compile/rule';
import { compileRegex } from './compile/regex';
import { compileSettings, coveringBypasses, redactPatternsOf } from './compile/settings';

export { globRegex } from './compile/paths';
export { wildcardRegex } from './compile/patterns';

export interface CompileResult {
  /** null when any error-severity diagnostic was found. */
  policy: CompiledPolicy | null;
  diagnostics: Diagnostic[];
}

/**
 * Compiles files given in evaluation order (includes before includers).
 * @example compilePolicy(loaded.files).policy?.rules.map((r) => r.id) // ['pack-rule', 'my-rule']
 */
export function compilePolicy(files: LoadedFile[]): CompileResult {
  const diagnostics: Diagnostic[] = [];
  const { settings, bypassOf } = compileSettings(files);
  const bypassFor = coveringBypasses(files, bypassOf);
  const agents = compileAgents(files, diagnostics);
  const rules: CompiledRule[] = [];
  const ids = new Map<string, SourceLocation>();

  for (const file of files) {
    const ctx = { file, diagnostics };
    const raws = isObject(file.doc) && Array.isArray(file.doc.rules) ? file.doc.rules : [];
    raws.forEach((raw: unknown, index: number) => {
      if (!isObject(raw)) return;
      const rule = compileRule(ctx, raw, index, agents, bypassFor.get(file.file) ?? []);
      if (typeof raw.id !== 'string') return; // the schema reports it
      const first = ids.get(rule.id);
      if (first) {
        const where = file.map.locate(toPointer(['rules', index, 'id']));
        diagnostics.push(diagnostic('duplicate-rule-id', `Rule id "${rule.id}" is already used`, where, `first used at ${first.file}:${first.line}:${first.column}`));
        return;
      }
      ids.set(rule.id, file.map.locate(toPointer(['rules', index, 'id'])));
      rules.push(rule);
    });
    for (const [pattern, i] of redactPatternsOf(file)) compileRegex(ctx, pattern, '', toPointer(['settings', 'log', 'redact', i]));
  }

  if (hasErrors(diagnostics)) return { policy: null, diagnostics };
  return {
    policy: {
      format: 1,
      sources: files.map((f) => ({ file: f.file, hash: f.hash })),
      settings,
      agents: agents.agents,
      rules,
      index: buildRuleIndex(rules),
    },
    diagnostics,
  };
}
