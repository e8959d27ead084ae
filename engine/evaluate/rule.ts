/**
 * One rule against one event: the conditions in the documented order, stopping at the
 * first that fails, then the hit with its rendered message. Rules without expressions are
 * evaluated synchronously; only `when` and `let: { expr }` go through a promise.
 */
import { diagnostic } from '../diagnostics';
import type { CompiledRule, Diagnostic, RuleHit, RuleTrace } from '../types';
import { checkAgents, checkCommand, checkMatch, checkPaths, checkPrompts, checkTools, type Failure } from './conditions';
import { ExpressionError, evaluateExpression, isTruthy } from './expression';
import { cutText, valueText } from './fields';
import { computeExprLet, computeFileLet, storeLet } from './lets';
import { lookupFor, type RuleValues } from './lookup';
import { checkRequirements, describeUnmet } from './requirements';
import { FactError, SHELL_TOOLS, type EventScope } from './scope';
import { UnsafeRegexError } from './regex';
import { checkShellPaths, checkViews, shellTraceValues } from './shell-rule';
import { renderStrict, renderTemplate } from './template';

export interface RuleResult {
  trace: RuleTrace;
  hit: RuleHit | null;
}

type Lookup = (name: string) => string | undefined;

/**
 * Evaluates `rule` for the event in `scope`; never throws (failures become status 'error').
 * @example evaluateRule(rule, scope) // { trace: { id: 'r1', status: 'fired', ... }, hit: { outcome: 'deny', ... } }
 */
export function evaluateRule(rule: CompiledRule, scope: EventScope): RuleResult | Promise<RuleResult> {
  try {
    const failed = checkTools(rule, scope) ?? checkPrompts(rule, scope) ?? checkAgents(rule, scope) ?? checkMatch(rule, scope);
    if (failed) return notMatched(rule, failed);
    const values: RuleValues = { lets: null, caught: null, unmet: null };
    if (rule.paths) {
      const failure = rule.tools !== null && scope.tool !== null && SHELL_TOOLS.has(scope.tool)
        ? checkShellPaths(rule, rule.paths, scope, values)
        : checkViews(rule.paths, scope.touchedViews, values, rule.outcome === 'allow');
      if (failure) return notMatched(rule, failure, undefined, values);
    }
    const noCommand = checkCommand(rule, scope);
    if (noCommand) return notMatched(rule, noCommand, undefined, values);
    if (rule.when !== null || hasExpressionLet(rule)) return evaluateAsync(rule, scope, values);
    const lookup = lookupFor(scope, rule, values);
    const absent = checkOnlyIfExists(rule, scope, lookup);
    if (absent) return notMatched(rule, absent, undefined, values);
    if (rule.lets.length > 0) {
      const lets = (values.lets = new Map());
      for (const l of rule.lets) {
        const failure = storeLet(lets, l, computeFileLet(l, lookup, scope.facts));
        if (failure) return notMatched(rule, { condition: 'let', detail: failure }, lets, values);
      }
    }
    return checkRequiresAndFire(rule, scope, values, lookup);
  } catch (err) {
    return errored(rule, err);
  }
}

async function evaluateAsync(rule: CompiledRule, scope: EventScope, values: RuleValues): Promise<RuleResult> {
  try {
    if (rule.when !== null) {
      const result = await evaluateExpression(rule.when, scope.event, scope.bindings, scope.deadlineMs);
      if (!isTruthy(result)) {
        return notMatched(rule, { condition: 'when', detail: `${rule.when} gave ${valueText(result) ?? 'no value'}` }, undefined, values);
      }
    }
    const lookup = lookupFor(scope, rule, values);
    const absent = checkOnlyIfExists(rule, scope, lookup);
    if (absent) return notMatched(rule, absent, undefined, values);
    const lets = (values.lets = new Map());
    for (const l of rule.lets) {
      const computed = l.kind === 'expr'
        ? computeExprLet(l, await evaluateExpression(l.target, scope.event, scope.bindings, scope.deadlineMs))
        : computeFileLet(l, lookup, scope.facts);
      const failure = storeLet(lets, l, computed);
      if (failure) return notMatched(rule, { condition: 'let', detail: failure }, lets, values);
    }
    return checkRequiresAndFire(rule, scope, values, lookup);
  } catch (err) {
    return errored(rule, err);
  }
}

function hasExpressionLet(rule: CompiledRule): boolean {
  for (const l of rule.lets) if (l.kind === 'expr') return true;
  return false;
}

function checkOnlyIfExists(rule: CompiledRule, scope: EventScope, lookup: Lookup): Failure | null {
  if (rule.onlyIfExists === null) return null;
  const path = renderStrict(rule.onlyIfExists, lookup);
  if (path.missing !== undefined) return { condition: 'only_if_exists', detail: `no value for {{${path.missing}}}` };
  if (scope.facts.stat(path.text) === null) return { condition: 'only_if_exists', detail: `${path.text} does not exist` };
  return null;
}

function checkRequiresAndFire(rule: CompiledRule, scope: EventScope, values: RuleValues, lookup: Lookup): RuleResult {
  const trace: RuleTrace = { id: rule.id, source: rule.source, status: 'fired' };
  const shown = { ...(values.lets ? Object.fromEntries(values.lets) : {}), ...shellTraceValues(values) };
  if (Object.keys(shown).length > 0) trace.values = shown;
  if (rule.requires.length > 0) {
    const result = checkRequirements(rule.requires, lookup, scope.facts);
    if (result.missing !== undefined) {
      return { trace: { ...trace, status: 'not-matched', failed: { condition: 'require', detail: `no value for {{${result.missing}}}` } }, hit: null };
    }
    trace.requirements = result.checks;
    if (result.checks.every((c) => c.ok)) {
      trace.status = 'not-matched';
      trace.failed = { condition: 'require', detail: `all ${result.checks.length} requirement(s) met` };
      return { trace, hit: null };
    }
    values.unmet = describeUnmet(result.checks);
  }
  const override = values.unchecked;
  const message = override ? override.message : renderTemplate(rule.message, lookup);
  const hit: RuleHit = { id: rule.id, outcome: override ? override.outcome : rule.outcome, message: cutText(message), source: rule.source };
  if (values.caught) hit.paths = values.caught;
  return { trace, hit };
}

function notMatched(rule: CompiledRule, failed: Failure, lets?: Map<string, string>, values?: RuleValues): RuleResult {
  const trace: RuleTrace = { id: rule.id, source: rule.source, status: 'not-matched', failed };
  const shown = { ...(lets ? Object.fromEntries(lets) : {}), ...(values ? shellTraceValues(values) : {}) };
  if (Object.keys(shown).length > 0) trace.values = shown;
  return { trace, hit: null };
}

function errored(rule: CompiledRule, err: unknown): RuleResult {
  let error: Diagnostic;
  if (err instanceof ExpressionError && err.timedOut) {
    error = diagnostic('deadline-exceeded', `rule "${rule.id}": the expression ran past deadline_ms: ${err.message}`, rule.source);
  } else if (err instanceof ExpressionError) {
    error = diagnostic('expression-error', `rule "${rule.id}": expression failed: ${err.message}`, rule.source);
  } else if (err instanceof UnsafeRegexError) {
    error = diagnostic('regex-unsafe', `rule "${rule.id}": ${err.message}`, rule.source);
  } else if (err instanceof FactError) {
    error = diagnostic('fact-error', `rule "${rule.id}": ${err.message}`, rule.source);
  } else {
    const message = err instanceof Error ? err.message : String(err);
    error = diagnostic('internal-error', `rule "${rule.id}": ${message}`, rule.source);
  }
  return { trace: { id: rule.id, source: rule.source, status: 'error', error }, hit: null };
}
