/**
 * The evaluate stage: one hook event and the compiled policy in, one Decision out, with
 * a trace of every rule considered (unless the caller says it will not read it: ctx.trace
 * false, as the runner and the policy server do). Pure: the world is reached only through
 * ctx.facts.
 */
import { diagnostic } from './diagnostics';
import { protocolFor, type EventProtocol } from './protocol';
import { candidateRules } from './rule-index';
import { isBuiltInRule } from './built-in-rule';
import type { CompiledPolicy, CompiledRule, Decision, EvaluationContext, HookEvent, RuleTrace } from './types';
import { isMainSession, resolveAgent } from './evaluate/agent';
import { brokenReports } from './evaluate/broken';
import { combineHits } from './evaluate/combine';
import { sandboxed } from './evaluate/sandbox';
import { checkAgents, checkPrompts, checkTools } from './evaluate/conditions';
import { shouldRecord } from './evaluate/log-categories';
import { evaluateRule, type RuleResult } from './evaluate/rule';
import { eventOnlyFailures, runTraces, type EventOnlyTable } from './evaluate/event-only';
import { EventScope } from './evaluate/scope';
import { identityGuardFor } from './evaluate/guard-identity';
import { GUARDED_EVENT_BYTES, inputLimits, oversizedMessage, oversizedOutcome } from './evaluate/oversized';
import { setMatchBudget } from './evaluate/regex';
import { DEFAULT_PRIVACY } from './memory/privacy';
import { callWithin, TIMED_OUT } from './evaluate/watchdog';

/**
 * Evaluates every candidate rule for `event` in policy order and combines the hits.
 * Never throws on odd events: a missing or mistyped field makes conditions fail.
 * @example (await evaluate(policy, { hook_event_name: 'PreToolUse', tool_name: 'Bash',
 *            tool_input: { command: 'rm -rf /' } }, ctx)).outcome // 'deny'
 */
export async function evaluate(policy: CompiledPolicy, event: HookEvent, ctx: EvaluationContext): Promise<Decision> {
  return evaluateNow(policy, event, ctx);
}

/**
 * evaluate, answering at once when no rule had to wait (no expression reached, no file
 * read that went asynchronous): the Decision itself, else a Promise of it. The runner
 * uses it to skip the promise round trips and the deadline race (~0.07 ms per event).
 * @example const d = evaluateNow(policy, event, ctx); if (!(d instanceof Promise)) d.outcome
 */
export function evaluateNow(policy: CompiledPolicy, event: HookEvent, ctx: EvaluationContext): Decision | Promise<Decision> {
  const input: HookEvent = event !== null && typeof event === 'object' ? event : { hook_event_name: '' };
  const agent = resolveAgent(policy.agents, input);
  const scope = new EventScope(input, agent, ctx, ctx.now ? policy.settings.deadlineMs : 0, isMainSession(policy.agents, input));
  scope.knownCommands = policy.settings.knownCommands;
  const limits = inputLimits(policy.settings);
  scope.maxInputBytes = limits.maxBytes;
  scope.oversizedSetting = limits.outcome;
  scope.privacy = policy.settings.memory?.privacy ?? DEFAULT_PRIVACY;
  scope.guarded = identityGuardFor(policy.rules, scope.tool);
  const decision: Decision = {
    event: scope.eventName,
    agent,
    tool: scope.tool,
    outcome: 'none',
    reason: null,
    decidedBy: [],
    hits: [],
    contexts: [],
    warnings: [],
    trace: [],
    bypass: null,
    errors: [],
  };
  const protocol = protocolFor(scope.eventName);
  if (policy.broken && policy.broken.length > 0) {
    decision.broken = brokenReports(policy.broken, protocol ? scope.eventName : null, scope.tool);
    for (const b of decision.broken) decision.errors.push(...b.diagnostics);
  }
  if (!protocol) {
    decision.errors.push(diagnostic('event-unknown', `Unknown event "${scope.eventName}": no rule applies`));
    return decision;
  }
  const run: Run = {
    policy, ctx, scope, decision, protocol,
    candidates: candidateRules(policy.index, scope.eventName, scope.tool),
    fixed: null,
    traced: ctx.trace !== false,
    start: ctx.now ? ctx.now() : 0,
    slow: false,
    next: 0,
  };
  const deadline = policy.settings.deadlineMs;
  const clocked = ctx.now !== undefined && deadline > 0;
  setMatchBudget(clocked && ctx.now ? { now: ctx.now, until: run.start + deadline } : null);
  // A large event is evaluated under a wall-clock watchdog: whatever the synchronous part
  // spends its time on (a parser, a pattern, a walk), it is stopped at deadline_ms.
  if (clocked && (ctx.inputBytes ?? 0) > GUARDED_EVENT_BYTES) {
    const settled = callWithin(deadline, () => evaluateFrom(run, 0));
    return settled === TIMED_OUT ? outOfTime(run) : settled;
  }
  return evaluateFrom(run, 0);
}

/**
 * The decision of an evaluation the watchdog stopped at deadline_ms: what the rules
 * already evaluated said, and for the rules not reached, the `oversized` outcome of each
 * that denies, asks or blocks (it could not say the call is fine).
 */
function outOfTime(run: Run): Decision {
  const { policy, scope, decision } = run;
  const deadline = policy.settings.deadlineMs;
  const why = `the event (${run.ctx.inputBytes} bytes) could not be checked within deadline_ms (${deadline} ms)`;
  const skipped: string[] = [];
  const outcomes = new Set<string>();
  for (let k = run.next; k < run.candidates.length; k++) {
    const rule = policy.rules[run.candidates[k]];
    if (isBypassed(run, rule)) continue;
    // The conditions that cost nothing still count: another agent's rule does not apply.
    const other = checkTools(rule, scope) ?? checkPrompts(rule, scope) ?? checkAgents(rule, scope);
    if (other) {
      trace(run, { id: rule.id, source: rule.source, status: 'not-matched', failed: other });
      continue;
    }
    const outcome = oversizedOutcome(rule, scope.eventName, scope.oversizedSetting);
    if (outcome === 'ignore') {
      trace(run, { id: rule.id, source: rule.source, status: 'not-matched', failed: { condition: 'deadline', detail: `${why}: not evaluated` } });
      continue;
    }
    skipped.push(rule.id);
    outcomes.add(outcome);
    trace(run, { id: rule.id, source: rule.source, status: 'fired', values: { 'not evaluated': why } });
    decision.hits.push({ id: rule.id, outcome, message: oversizedMessage(rule.id, why), source: rule.source });
  }
  const answered = skipped.length > 0
    ? `rules ${skipped.map((id) => `"${id}"`).join(', ')} answer ${[...outcomes].join(' or ')} (settings.oversized)`
    : 'no rule that denies, asks or blocks was left';
  decision.errors.push(diagnostic('input-oversized', `${why}; ${answered}`));
  Object.assign(decision, combineHits(decision.hits, run.protocol));
  // Out of time: the record lists the paths known without analysing anything more.
  if (shouldRecord(decision, policy)) decision.paths = scope.touchedForRecord(false);
  return decision;
}

/** One evaluation in progress: what evaluateFrom needs to go on after a rule that waited. */
interface Run {
  policy: CompiledPolicy;
  ctx: EvaluationContext;
  scope: EventScope;
  decision: Decision;
  protocol: EventProtocol;
  candidates: readonly number[];
  /** Which candidates the event's tool or agent rules out (looked up at the first rule evaluated). */
  fixed: EventOnlyTable | null;
  /** The caller reads the trace (ctx.trace is not false): each rule considered is traced. */
  traced: boolean;
  start: number;
  /** A rule read files or ran an expression: the clock is checked before each next rule. */
  slow: boolean;
  /** The candidate being evaluated: where an evaluation stopped by the watchdog was. */
  next: number;
}

/** Evaluates the candidates from position `k` on; goes asynchronous only at a rule that returns a Promise. */
function evaluateFrom(run: Run, k: number): Decision | Promise<Decision> {
  const { policy, ctx, scope, decision } = run;
  const now = ctx.now;
  const deadline = policy.settings.deadlineMs;
  const fixed = (run.fixed ??= eventOnlyFailures(policy.index, policy.rules, run.candidates, scope));
  for (; k < run.candidates.length; k++) {
    run.next = k;
    // A run of rules the event's tool or agent rules out, none with a bypass, built in or
    // reading the clock: traced in one go (the checks below would all pass them by).
    if (!run.slow && fixed.runEnd[k] > k) {
      const end = fixed.runEnd[k];
      // One builtin call for the whole run (a run on a 1,000-rule policy is hundreds long).
      if (run.traced) Array.prototype.push.apply(decision.trace, runTraces(fixed, k));
      run.next = end;
      k = end - 1;
      continue;
    }
    const rule = policy.rules[run.candidates[k]];
    // Only rules that read files or run expressions can take real time; the clock is read
    // after those, not between the sub-microsecond condition checks.
    if (run.slow && now && deadline > 0 && now() - run.start > deadline) {
      decision.errors.push(diagnostic('deadline-exceeded', `Evaluation took longer than ${deadline} ms; stopped before rule "${rule.id}"`));
      break;
    }
    if (isBypassed(run, rule)) continue;
    // The built-in guard is the last resort: a call the team's rules already refuse needs
    // no second refusal (nor its command parsed again).
    if (isBuiltInRule(rule) && alreadyStopped(decision)) {
      trace(run, { id: rule.id, source: rule.source, status: 'not-matched', failed: { condition: 'built-in', detail: 'a rule of the policy already refuses the call' } });
      continue;
    }
    const result = fixed.results[k] ?? evaluateRule(rule, scope);
    if (result instanceof Promise) {
      const next = k + 1;
      return result.then((settled) => {
        run.slow = true;
        record(run, settled);
        return evaluateFrom(run, stopsChain(rule, settled) ? skipRest(run, next, rule.id) : next);
      });
    }
    if (!run.slow) run.slow = rule.onlyIfExists !== null || rule.lets.length > 0 || rule.requires.length > 0;
    record(run, result);
    if (stopsChain(rule, result)) k = skipRest(run, k + 1, rule.id) - 1;
  }
  run.next = run.candidates.length;
  // A guarded file found with several names (guard-identity.ts) is said, whatever the outcome.
  if (scope.identity && scope.identity.warnings.length > 0) decision.errors.push(...scope.identity.warnings);
  Object.assign(decision, sandboxed({ ...decision, ...combineHits(decision.hits, run.protocol) }, scope.event, run.ctx, run.protocol));
  // Only a decision the log records needs them: a shell command may have to be analysed for its paths.
  if (shouldRecord(decision, policy)) decision.paths = scope.touchedForRecord(true);
  return decision;
}

function alreadyStopped(decision: Decision): boolean {
  for (const hit of decision.hits) if (hit.outcome === 'deny' || hit.outcome === 'block') return true;
  return false;
}

function record(run: Run, result: RuleResult): void {
  const { decision } = run;
  trace(run, result.trace);
  if (result.hit) decision.hits.push(result.hit);
  if (result.trace.error) decision.errors.push(result.trace.error);
  if (result.records && result.records.length > 0) (decision.records ??= []).push(...result.records);
  if (result.trace.dropped) decision.droppedRecords = (decision.droppedRecords ?? 0) + result.trace.dropped;
}

/** Adds one rule's entry to the decision's trace, when the caller reads it (ctx.trace). */
function trace(run: Run, entry: RuleTrace): void {
  if (run.traced) run.decision.trace.push(entry);
}

/** A `final` rule that fired with deny or block: later rules are not evaluated (they add no context, warning or record). */
function stopsChain(rule: CompiledRule, result: RuleResult): boolean {
  return rule.final === true && result.hit !== null && (result.hit.outcome === 'deny' || result.hit.outcome === 'block');
}

/** Traces the candidates from `from` on as not evaluated because `by` stopped the chain; returns where the loop ends. */
function skipRest(run: Run, from: number, by: string): number {
  for (let k = from; k < run.candidates.length; k++) {
    const rule = run.policy.rules[run.candidates[k]];
    trace(run, { id: rule.id, source: rule.source, status: 'not-matched', failed: { condition: 'final', detail: `not evaluated: rule "${by}" stopped the chain (final)` } });
  }
  return run.candidates.length;
}

/** Records the rule as bypassed when one of its switches' variables holds one of that switch's values. */
function isBypassed(run: Run, rule: CompiledRule): boolean {
  const { policy, ctx, decision } = run;
  let bypass = null;
  let value: string | undefined;
  for (const index of rule.bypasses) {
    const candidate = policy.settings.bypasses[index];
    value = candidate ? ctx.env[candidate.env] : undefined;
    if (candidate && value !== undefined && candidate.values.includes(value)) {
      bypass = candidate;
      break;
    }
  }
  if (!bypass || value === undefined) return false;
  trace(run, { id: rule.id, source: rule.source, status: 'bypassed' });
  if (decision.bypass) decision.bypass.rules.push(rule.id);
  else decision.bypass = { env: bypass.env, value, rules: [rule.id] };
  return true;
}
