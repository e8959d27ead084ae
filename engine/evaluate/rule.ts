/**
 * One rule against one event: the conditions in the documented order, stopping at the
 * first that fails, then the hit with its rendered message and the records it makes.
 * Rules without expressions are evaluated synchronously; only `when` and
 * `let: { expr }` go through a promise. A `when` that names a let runs after the lets.
 */
import { diagnostic } from '../diagnostics';
import type { CompiledLet, CompiledRule, Diagnostic, RecordDraft, RuleHit, RuleTrace } from '../types';
import { checkAgents, checkCommand, checkMatch, checkPaths, checkPrompts, checkTools, type Failure } from './conditions';
import { ExpressionError, evaluateExpression, isTruthy } from './expression';
import { cutText, valueText } from './fields';
import { computeExprLet, computeFileLet, letBindings, storeLet, type LetResult } from './lets';
import type * as MemoryLetsModule from './memory-lets';
import { renderRecords } from './record';
import { lookupFor, type RuleValues } from './lookup';
import { checkRequirements, describeUnmet } from './requirements';
import { FactError, SHELL_TOOLS, type EventScope } from './scope';
import { knowRegexes, UnsafeRegexError } from './regex';
import { isRestrictive, oversizedMessage, oversizedOutcome } from './oversized';
import { checkShellPaths, checkViews, shellTraceValues } from './shell-rule';
import { renderPathTemplate } from './path-template';
import { notOneName } from './requirements';
import { renderTemplate } from './template';

export interface RuleResult {
  trace: RuleTrace;
  hit: RuleHit | null;
  /** What the rule records (it fired and has `record`), past the privacy filter. */
  records?: RecordDraft[];
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
      const shell = rule.tools !== null && scope.tool !== null && SHELL_TOOLS.has(scope.tool);
      // A command or path longer than max_input_bytes is not parsed at all.
      const tooLarge = scope.oversizedInput(shell);
      const failure = tooLarge !== null ? takeOversized(rule, scope, values, tooLarge)
        : shell ? checkShellPaths(rule, rule.paths, scope, values)
          : checkViews(rule.paths, scope.touchedViews, values, rule.outcome === 'allow', scope.traced);
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
        const failure = storeLet(lets, l, computeLet(rule, l, lookup, scope));
        if (failure) return notMatched(rule, { condition: 'let', detail: failure }, lets, values);
      }
    }
    return checkRequiresAndFire(rule, scope, values, lookup);
  } catch (err) {
    return errored(rule, err, scope);
  }
}

/**
 * The rule cannot check input this large: it takes the `oversized` outcome (values.unchecked),
 * or does not apply when that is `ignore` or the rule only informs or allows.
 */
function takeOversized(rule: CompiledRule, scope: EventScope, values: RuleValues, why: string): Failure | null {
  const outcome = oversizedOutcome(rule, scope.eventName, scope.oversizedSetting);
  if (outcome === 'ignore') return { condition: 'paths', detail: `${why}: not checked, and the rule does not apply (oversized)` };
  values.unchecked = { outcome, message: oversizedMessage(rule.id, why) };
  values.oversized = diagnostic('input-oversized', `rule "${rule.id}": ${why}; not checked, the rule answers ${outcome} (settings.oversized)`, rule.source);
  return null;
}

async function evaluateAsync(rule: CompiledRule, scope: EventScope, values: RuleValues): Promise<RuleResult> {
  try {
    // Its expressions' regex literals, as the compiler marked them (regex.ts, PolicyRegExp).
    knowRegexes(rule.regexes);
    // A `when` that names no let runs first: a rule it rules out reads no file and no memory.
    if (rule.when !== null && !rule.letsFirst) {
      const result = await evaluateExpression(rule.when, scope.event, scope.bindings, scope.deadlineMs, rule.whenFast);
      if (!isTruthy(result)) {
        return notMatched(rule, { condition: 'when', detail: `${rule.when} gave ${valueText(result) ?? 'no value'}` }, undefined, values);
      }
    }
    const lookup = lookupFor(scope, rule, values);
    const absent = checkOnlyIfExists(rule, scope, lookup);
    if (absent) return notMatched(rule, absent, undefined, values);
    const lets = (values.lets = new Map());
    /** Optional lets that could not be computed: not bound in expressions. */
    const unset = new Set<string>();
    /** Expression lets' values as JSON (a number stays a number in `when`), beside their text. */
    const typed = new Map<string, unknown>();
    for (const l of rule.lets) {
      let computed: LetResult;
      if (l.kind === 'expr') {
        // An expression sees the lets before it, as `when` does.
        const raw = await evaluateExpression(l.target, scope.event, lets.size > 0 ? { ...scope.bindings, ...letBindings(rule.lets, lets, unset, typed) } : scope.bindings, scope.deadlineMs, l.exprFast);
        if (l.field === null && l.extract === null && raw !== undefined && typeof raw !== 'string') typed.set(l.name, raw);
        computed = computeExprLet(l, raw);
      } else {
        computed = computeLet(rule, l, lookup, scope);
      }
      const failure = storeLet(lets, l, computed);
      if (failure) return notMatched(rule, { condition: 'let', detail: failure }, lets, values);
      if (!computed.ok) unset.add(l.name);
    }
    if (rule.when !== null && rule.letsFirst) {
      const result = await evaluateExpression(rule.when, scope.event, { ...scope.bindings, ...letBindings(rule.lets, lets, unset, typed) }, scope.deadlineMs, rule.whenFast);
      if (!isTruthy(result)) {
        return notMatched(rule, { condition: 'when', detail: `${rule.when} gave ${valueText(result) ?? 'no value'}` }, lets, values);
      }
    }
    return checkRequiresAndFire(rule, scope, values, lookup);
  } catch (err) {
    return errored(rule, err, scope);
  }
}

/**
 * A file let, or a store-reading one (its module loaded on first use). A store that cannot
 * be read is not "no value" to a rule that denies, asks or blocks: `count` would read as
 * nothing counted, and the call would go through. Such a rule fails (fact-error), and
 * on_error decides, as for a file that cannot be read; `optional` does not change that.
 */
function computeLet(rule: CompiledRule, l: CompiledLet, lookup: Lookup, scope: EventScope): LetResult {
  if (!l.memory) return computeFileLet(l, lookup, scope.facts);
  const result = loadMemoryLets().computeMemoryLet(l, lookup, scope);
  if (!result.ok && result.unreadable && isRestrictive(rule)) throw new FactError(`let ${l.name}: ${result.detail}`);
  return result;
}

let memoryLetsModule: typeof MemoryLetsModule | null = null;

/**
 * The store-reading lets, loaded when a rule with one is reached. The build turns this
 * require into dist/memory.cjs (with the store's reader), so events that read no memory never load it.
 */
function loadMemoryLets(): typeof MemoryLetsModule {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (memoryLetsModule ??= require('./memory-lets') as typeof MemoryLetsModule);
}

function hasExpressionLet(rule: CompiledRule): boolean {
  for (const l of rule.lets) if (l.kind === 'expr') return true;
  return false;
}

function checkOnlyIfExists(rule: CompiledRule, scope: EventScope, lookup: Lookup): Failure | null {
  if (rule.onlyIfExists === null) return null;
  const path = renderPathTemplate(rule.onlyIfExists, lookup, false);
  if (path.missing !== undefined) return { condition: 'only_if_exists', detail: `no value for {{${path.missing}}}` };
  if (path.refused !== undefined) return { condition: 'only_if_exists', detail: notOneName(path.refused, path.value) };
  if (scope.facts.stat(path.text) === null) return { condition: 'only_if_exists', detail: `${path.text} does not exist` };
  return null;
}

function checkRequiresAndFire(rule: CompiledRule, scope: EventScope, values: RuleValues, lookup: Lookup): RuleResult {
  const trace: RuleTrace = { id: rule.id, source: rule.source, status: 'fired' };
  const shown = { ...(values.lets ? Object.fromEntries(values.lets) : {}), ...shellTraceValues(values) };
  if (Object.keys(shown).length > 0) trace.values = shown;
  if (values.oversized) trace.error = values.oversized;
  if (rule.requires.length > 0) {
    const result = checkRequirements(rule.requires, lookup, scope.facts);
    if (result.missing !== undefined) {
      return { trace: { ...trace, status: 'not-matched', failed: { condition: 'require', detail: result.missing } }, hit: null };
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
  const outcome = override ? override.outcome : rule.outcome;
  let hit: RuleHit | null = null;
  if (outcome !== null) {
    const message = override ? override.message : renderTemplate(rule.message, lookup);
    hit = { id: rule.id, outcome, message: cutText(message), source: rule.source };
    if (values.caught) hit.paths = values.caught;
    if (override?.sandbox) hit.sandbox = true;
  }
  // A rule that could not check the event (values.unchecked) answers for it, and records nothing about it.
  if (!rule.records || override) return { trace, hit };
  const rendered = renderRecords(rule.id, rule.records, lookup, scope.privacy);
  if (rendered.dropped > 0) trace.dropped = rendered.dropped;
  return { trace, hit, records: rendered.records };
}

/** The result of a rule that does not apply, with the values it had worked out. */
export function notMatched(rule: CompiledRule, failed: Failure, lets?: Map<string, string>, values?: RuleValues): RuleResult {
  const trace: RuleTrace = { id: rule.id, source: rule.source, status: 'not-matched', failed };
  // Most rules fail an event-only condition: nothing to show, and nothing to build.
  if (lets === undefined && values?.written === undefined) return { trace, hit: null };
  const shown = { ...(lets ? Object.fromEntries(lets) : {}), ...(values ? shellTraceValues(values) : {}) };
  if (Object.keys(shown).length > 0) trace.values = shown;
  return { trace, hit: null };
}

function errored(rule: CompiledRule, err: unknown, scope: EventScope): RuleResult {
  if (err instanceof UnsafeRegexError) return stoppedPattern(rule, err, scope);
  let error: Diagnostic;
  if (err instanceof ExpressionError && err.timedOut) {
    error = diagnostic('deadline-exceeded', `rule "${rule.id}": the expression ran past deadline_ms: ${err.message}`, rule.source);
  } else if (err instanceof ExpressionError) {
    error = diagnostic('expression-error', `rule "${rule.id}": expression failed: ${err.message}`, rule.source);
  } else if (err instanceof FactError) {
    error = diagnostic('fact-error', `rule "${rule.id}": ${err.message}`, rule.source);
  } else {
    const message = err instanceof Error ? err.message : String(err);
    error = diagnostic('internal-error', `rule "${rule.id}": ${message}`, rule.source);
  }
  return { trace: { id: rule.id, source: rule.source, status: 'error', error }, hit: null };
}

/**
 * A pattern the watchdog stopped: the rule could not finish checking the event. One that
 * denies, asks or blocks takes the `oversized` outcome (a warning says why), so a pattern
 * that cannot finish never lets the call through; any other rule fails per on_error.
 */
function stoppedPattern(rule: CompiledRule, err: UnsafeRegexError, scope: EventScope): RuleResult {
  const outcome = oversizedOutcome(rule, scope.eventName, scope.oversizedSetting);
  if (!isRestrictive(rule)) return { trace: { id: rule.id, source: rule.source, status: 'error', error: diagnostic('regex-unsafe', `rule "${rule.id}": ${err.message}`, rule.source) }, hit: null };
  const consequence = outcome === 'ignore' ? 'the rule does not apply (oversized: ignore)' : `the rule answers ${outcome} (settings.oversized)`;
  const error: Diagnostic = { ...diagnostic('regex-unsafe', `rule "${rule.id}": ${err.message}; ${consequence}`, rule.source), severity: 'warning' };
  if (outcome === 'ignore') return { trace: { id: rule.id, source: rule.source, status: 'not-matched', failed: { condition: 'pattern', detail: err.message }, error }, hit: null };
  const message = cutText(oversizedMessage(rule.id, `its pattern did not finish on this input within ${err.timeoutMs} ms`));
  return { trace: { id: rule.id, source: rule.source, status: 'fired', error }, hit: { id: rule.id, outcome, message, source: rule.source } };
}
