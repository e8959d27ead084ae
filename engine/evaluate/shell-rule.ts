/**
 * The `paths` condition of a rule: for most tools, over the paths the tool call names; for
 * a rule that lists Bash or PowerShell, over the files the command writes. A command whose
 * writes cannot be known makes the rule fire with its `unparsable` outcome (default ask),
 * unless a write that is known is already caught; under `unparsable: ignore`, a built-in
 * rule still asks about one that names a path it guards (`unparsableNaming`); under
 * `unparsable: sandbox`, the ask is marked so the evaluator may sandbox the command instead.
 */
import type { CompiledPathFilter, CompiledRule } from '../types';
import { checkPaths, type Failure } from './conditions';
import type { RuleValues } from './lookup';
import type { PathView } from './path-views';
import type { EventScope } from './scope';

/**
 * Checks the views against the filter, storing the caught paths; returns the failure, or null.
 * @example checkViews(pathFilter({ deny: ['.env'] }), scope.touchedViews, values) // null, values.caught = ['.env']
 */
export function checkViews(filter: CompiledPathFilter, views: readonly PathView[], values: RuleValues, approving = false, traced = true): Failure | null {
  const caught = checkPaths(filter, views, approving, traced);
  if (!Array.isArray(caught)) return caught;
  values.caught = caught;
  return null;
}

/**
 * The paths condition for a shell command: holds when a written path is caught, or when
 * the command cannot be checked and the rule's `unparsable` is not `ignore` (then
 * values.unchecked carries the outcome and message that replace the rule's own). A rule
 * that approves holds only when every written path is covered and no write is unknown.
 * @example checkShellPaths(rule, rule.paths, scope, values) // null for "echo x > .env" under deny [.env]
 */
export function checkShellPaths(rule: CompiledRule, filter: CompiledPathFilter, scope: EventScope, values: RuleValues): Failure | null {
  const shell = scope.shellTouched;
  // A rule that guards by identity counts a second name the command makes as a write of what it names.
  const views = rule.identity && shell.linked.length > 0 ? [...shell.views, ...shell.linked] : shell.views;
  values.written = views.map((v) => v.path);
  if (shell.unchecked !== null) values.uncheckedReason = shell.unchecked;
  const approving = rule.outcome === 'allow';
  const caught = views.length > 0 ? checkPaths(filter, views, approving, scope.traced) : null;
  if (Array.isArray(caught) && !(approving && shell.unchecked !== null)) {
    values.caught = caught;
    return null;
  }
  if (shell.unchecked === null) return Array.isArray(caught) ? null : caught ?? { condition: 'paths', detail: 'the command writes no file' };
  const mode = rule.unparsable ?? 'ask';
  const naming = mode === 'ignore' && rule.unparsableNaming ? namedCaught(filter, rule.unparsableNaming.deny, scope) : [];
  if (rule.unparsableNaming && naming.length > 0) {
    values.caught = naming;
    values.unchecked = {
      outcome: rule.unparsableNaming.outcome,
      message: `This ${scope.tool ?? 'shell'} command names ${naming.join(', ')}, which rule "${rule.id}" guards, and what it writes cannot be known (${shell.unchecked}): approve it only if it leaves ${naming.length > 1 ? 'them' : 'that'} alone.`,
    };
    return null;
  }
  if (mode === 'ignore') {
    return { condition: 'paths', detail: `the command cannot be checked (${shell.unchecked}); the rule has unparsable: ignore` };
  }
  const tool = scope.tool ?? 'shell';
  const message = `Cannot tell which files this ${tool} command writes (${shell.unchecked}), so rule "${rule.id}" cannot check it against its paths.`;
  // sandbox: an ask the evaluator may turn into running the command in the sandbox (sandbox.ts).
  values.unchecked = mode === 'sandbox' ? { outcome: 'ask', message, sandbox: true } : { outcome: mode, message };
  return null;
}

/** The paths a command that cannot be checked names (EventScope.shellNamed) that the `deny` globs of `filter` (by index) catch. */
function namedCaught(filter: CompiledPathFilter, deny: readonly number[], scope: EventScope): string[] {
  if (scope.shellTouched.named.length === 0 || filter.deny === null) return [];
  const files = deny.flatMap((i) => filter.deny?.[i] ?? []);
  const caught = checkPaths({ allow: null, deny: files, except: filter.except, globs: {} }, scope.shellNamed, false, false);
  return Array.isArray(caught) ? caught : [];
}

/**
 * What the shell analysis found, for RuleTrace.values: `shell.writes` and, when some writes
 * cannot be known, `shell.unchecked`.
 * @example shellTraceValues({ written: ['f'], ... }) // { 'shell.writes': 'f' }
 */
export function shellTraceValues(values: RuleValues): Record<string, string> {
  if (values.written === undefined) return {};
  const shown: Record<string, string> = { 'shell.writes': values.written.join(', ') };
  if (values.uncheckedReason !== undefined) shown['shell.unchecked'] = values.uncheckedReason;
  return shown;
}
