/**
 * Stage 3 of the pipeline: validated files -> one CompiledPolicy (ready matchers, merged
 * settings, rule index), with diagnostics for what the schema cannot see.
 */
import { diagnostic } from './diagnostics';
import { buildRuleIndex } from './rule-index';
import type { CompiledPolicy, CompiledRule, Diagnostic, LoadedFile, PlacedDiagnostic, SourceLocation } from './types';
import { pointerSegments, toPointer } from './load/source-map';
import { compileAgents } from './compile/agents';
import { brokenRules, isLeftOut, sortBreakage } from './compile/broken';
import { isObject } from './compile/context';
import { compileRule } from './compile/rule';
import { compileRegex } from './compile/regex';
import { compileSettings, coveringBypasses, redactPatternsOf } from './compile/settings';
import { checkWebhookBody } from './compile/webhook-body';
import { checkHeaderEnv } from './compile/header-env';

export { globRegex } from './compile/glob-regex';
export { wildcardRegex } from './compile/patterns';

export interface CompileResult {
  /**
   * null when an error breaks the whole policy (see compile/broken.ts); otherwise the
   * policy without the rules and files that have errors, listed in its `broken`.
   */
  policy: CompiledPolicy | null;
  /** What compiling found (the errors given in `earlier` are not repeated). */
  diagnostics: Diagnostic[];
}

/**
 * The files, each without the settings keys an earlier error is about (`settings.on_eror`,
 * `settings.bypass`), except `on_error`, which an error makes `closed`.
 */
function withoutBrokenSettings(files: LoadedFile[], earlier: readonly PlacedDiagnostic[]): LoadedFile[] {
  const broken = new Map<string, Set<string>>();
  for (const p of earlier) {
    if (p.diagnostic.severity !== 'error' || p.file === null) continue;
    const [top, key] = pointerSegments(p.pointer);
    if (top === 'settings' && key !== undefined) broken.set(p.file, (broken.get(p.file) ?? new Set()).add(key));
  }
  if (broken.size === 0) return files;
  return files.map((f) => {
    const keys = broken.get(f.file);
    if (!keys || !isObject(f.doc) || !isObject(f.doc.settings)) return f;
    // An on_error that cannot be read is taken as closed: whoever wrote it wanted something other than the default.
    const settings = Object.fromEntries(Object.entries(f.doc.settings).filter(([k]) => !keys.has(k) || k === 'on_error').map(([k, v]) => [k, keys.has(k) ? 'closed' : v]));
    return { ...f, doc: { ...f.doc, settings } };
  });
}

/**
 * Compiles files given in evaluation order (includes before includers). `earlier` are
 * the errors loading and validation found: like compile's own, each leaves out the rule
 * or file it is in, or fails the policy.
 * @example compilePolicy(loaded.files).policy?.rules.map((r) => r.id) // ['pack-rule', 'my-rule']
 */
export function compilePolicy(files: LoadedFile[], earlier: readonly PlacedDiagnostic[] = []): CompileResult {
  const diagnostics: Diagnostic[] = [];
  const placed: PlacedDiagnostic[] = [...earlier];
  /** Places what was reported since `from`. */
  const place = (from: number, file: string | null, pointer: string) => {
    for (const d of diagnostics.slice(from)) placed.push({ diagnostic: d, file: file ?? d.file ?? null, pointer });
  };
  // A setting with an error is left out (compile/broken.ts): its default applies, the rest of the policy holds.
  const { settings, bypassOf } = compileSettings(withoutBrokenSettings(files, earlier));
  const bypassFor = coveringBypasses(files, bypassOf);
  const agents = compileAgents(files, diagnostics);
  place(0, null, '/agents');
  const rules: Array<{ file: string; index: number; rule: CompiledRule }> = [];
  const ids = new Map<string, SourceLocation>();

  for (const file of files) {
    const ctx = { file, diagnostics };
    const raws = isObject(file.doc) && Array.isArray(file.doc.rules) ? file.doc.rules : [];
    raws.forEach((raw: unknown, index: number) => {
      if (!isObject(raw)) return;
      const from = diagnostics.length;
      const rule = compileRule(ctx, raw, index, agents, bypassFor.get(file.file) ?? []);
      if (typeof raw.id === 'string') {
        const first = ids.get(rule.id);
        if (first) {
          const where = file.map.locate(toPointer(['rules', index, 'id']));
          diagnostics.push(diagnostic('duplicate-rule-id', `Rule id "${rule.id}" is already used`, where, `first used at ${first.file}:${first.line}:${first.column}`));
        } else {
          ids.set(rule.id, file.map.locate(toPointer(['rules', index, 'id'])));
        }
      }
      place(from, file.file, toPointer(['rules', index]));
      if (typeof raw.id === 'string') rules.push({ file: file.file, index, rule }); // else the schema reports it
    });
    const from = diagnostics.length;
    for (const [pattern, i] of redactPatternsOf(file)) compileRegex(ctx, pattern, '', toPointer(['settings', 'log', 'redact', i]));
    place(from, file.file, '/settings/log/redact');
    const bodyFrom = diagnostics.length;
    checkWebhookBody(ctx);
    place(bodyFrom, file.file, '/settings/log/webhook/body');
    const headersFrom = diagnostics.length;
    checkHeaderEnv(ctx, 'webhook');
    place(headersFrom, file.file, '/settings/log/webhook/headers');
    const otlpFrom = diagnostics.length;
    checkHeaderEnv(ctx, 'otlp');
    place(otlpFrom, file.file, '/settings/log/otlp/headers');
  }

  const breakage = sortBreakage(placed, files);
  if (breakage.fatal.length > 0) return { policy: null, diagnostics };
  const kept = rules.filter((r) => !isLeftOut(breakage, r.file, r.index)).map((r) => r.rule);
  const policy: CompiledPolicy = {
    format: 1,
    sources: files.map((f) => ({ file: f.file, hash: f.hash })),
    settings,
    agents: agents.agents,
    rules: kept,
    index: buildRuleIndex(kept),
  };
  const broken = brokenRules(breakage, files);
  if (broken.length > 0) policy.broken = broken;
  return { policy, diagnostics };
}
