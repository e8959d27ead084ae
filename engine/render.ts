/**
 * Render: a Decision (or a failure to reach one) becomes what the runner writes back to
 * Claude Code, as the event's row in protocol.ts allows. Nothing is pretended: an
 * outcome the event cannot produce, a context that cannot reach the model and every
 * runtime problem are reported as warnings (systemMessage where shown, stderr always).
 */
import { outcomeSupportOf, protocolOrDefault, type EventProtocol } from './protocol';
import { formatDiagnostic } from './diagnostics';
import type { BrokenRuleReport, Decision, Diagnostic, HookResponse, Outcome } from './types';
import type { HostRender } from './hosts/types';
import { PREFIX, describeProblems } from './render/messages';
import { emptyOutput, showsSystemMessage, writeOutput, type Output } from './render/output';

export interface RenderOptions {
  onError: 'open' | 'closed';
  /**
   * A host other than Claude Code (engine/hosts/): its rows say what it honours, its writer
   * writes the answer, and an outcome it cannot honour becomes the strictest one it can.
   */
  host?: HostRender;
}

/**
 * The response for a decision: permission decision, block, contexts and warnings through
 * the channels of the decision's event.
 * @example renderResponse({ ...decision, event: 'Stop', outcome: 'block', reason: 'tests fail' }, { onError: 'open' })
 *   // { stdout: '{"decision":"block","reason":"tests fail"}\n', stderr: '', exitCode: 0 }
 */
export function renderResponse(decision: Decision, options: RenderOptions): HookResponse {
  const p = options.host ? options.host.protocol(decision.event) : protocolOrDefault(decision.event);
  const out: Output = emptyOutput();
  applyOutcome(out, p, decision, options.host);
  // A sandboxed command: no permission decision of ours (Claude Code's own flow judges the new command), only the new input.
  if (decision.sandbox) out.updatedInput = decision.sandbox.input;
  applyContexts(out, p, decision);
  out.warnings = [...decision.warnings];
  if (decision.warnings.length > 0 && !showsSystemMessage(p)) {
    for (const id of ruleIds(decision, 'warn')) out.problems.push(`${PREFIX}rule ${id}: warn cannot be shown on ${p.event}; it went to stderr only`);
  }
  const broken = decision.broken ?? [];
  // The broken rules' diagnostics are in errors too (for the log); they are said per rule.
  const ofBroken = new Set(broken.flatMap((b) => b.diagnostics.map(formatDiagnostic)));
  for (const d of decision.errors.filter((e) => e.severity === 'warning' && !ofBroken.has(formatDiagnostic(e)))) out.problems.push(describeProblems([d]));
  const errors = decision.errors.filter((e) => e.severity === 'error' && (ofBroken.size === 0 || !ofBroken.has(formatDiagnostic(e))));
  applyErrors(out, p, errors, broken, options.onError);
  return options.host ? options.host.write(p, out) : writeOutput(p, out);
}

/**
 * The response when the runner could not decide at all (malformed stdin, broken policy,
 * deadline): on_error decides, and the failure is always visible. eventName is null when
 * stdin was unreadable.
 * @example renderFailure('PreToolUse', [diagnostic('no-policy', 'no policy file')], 'closed')
 *   // permissionDecision "deny", reason "hookpolicy: error no-policy: no policy file (failing closed: ...)"
 */
export function renderFailure(eventName: string | null, problems: Diagnostic[], onError: 'open' | 'closed', host?: HostRender): HookResponse {
  const p = host ? host.protocol(eventName ?? 'the event') : protocolOrDefault(eventName ?? 'the event');
  const out: Output = emptyOutput();
  const errors = problems.filter((d) => d.severity === 'error');
  const warnings = problems.filter((d) => d.severity === 'warning');
  for (const d of warnings) out.problems.push(describeProblems([d]));
  if (errors.length > 0) {
    const unchecked = 'the event was not checked';
    if (onError === 'open') {
      out.problems.push(describeProblems(errors, `failing open: ${unchecked}`));
    } else if (canStop(p)) {
      const text = describeProblems(errors, `failing closed: ${unchecked}`);
      stop(out, p, text);
      out.problems.push(text);
    } else {
      const name = eventName ?? 'an unreadable event';
      out.problems.push(describeProblems(errors, `failing closed, but ${name} cannot be blocked: ${unchecked}`));
    }
  }
  return host ? host.write(p, out) : writeOutput(p, out);
}

function applyOutcome(out: Output, p: EventProtocol, decision: Decision, host?: HostRender): void {
  const outcome = decision.outcome;
  if (outcome === 'none') return;
  if (!outcomeSupportOf(p, outcome).supported) {
    if (host) return applyInstead(out, p, decision, host);
    const hint = outcome === 'deny' && p.block ? ' (use block)' : '';
    for (const id of ruleIds(decision, outcome)) {
      out.problems.push(`${PREFIX}rule ${id}: ${outcome} is not supported on ${p.event}, so it was not applied${hint}`);
    }
    return;
  }
  const reason = decision.reason ?? `${PREFIX}${outcome} by rule ${ruleIds(decision, outcome).join(', ')}`;
  if (outcome === 'block') stop(out, p, reason);
  else out.permission = { decision: outcome, reason: decision.reason };
}

/**
 * An outcome the host cannot honour on this event becomes the strictest one it can: an ask
 * is denied (or blocked) where the host cannot ask, an allow says nothing (the host's own
 * permission flow decides), a deny becomes a block where the host has no permission
 * decision; and the user is told. Nothing here can turn a refusal into silence: a deny or
 * an ask with nothing to become is reported as not applied, as for Claude Code.
 */
function applyInstead(out: Output, p: EventProtocol, decision: Decision, host: HostRender): void {
  const outcome = decision.outcome as Outcome;
  const ids = ruleIds(decision, outcome).join(', ');
  const reason = decision.reason ?? `${PREFIX}${outcome} by rule ${ids}`;
  const canDeny = outcomeSupportOf(p, 'deny').supported;
  const canBlock = outcomeSupportOf(p, 'block').supported;
  const said = `${PREFIX}rule ${ids}: ${host.title} cannot ${outcome} on ${p.event}`;
  if (outcome === 'allow') {
    out.problems.push(`${said}; it says nothing, and ${host.title}'s own permission flow decides`);
  } else if ((outcome === 'ask' || outcome === 'block') && canDeny) {
    out.permission = { decision: 'deny', reason };
    out.problems.push(`${said}; denied instead`);
  } else if ((outcome === 'ask' || outcome === 'deny') && canBlock) {
    stop(out, p, reason);
    out.problems.push(`${said}; blocked instead`);
  } else {
    out.problems.push(`${said}, so it was not applied`);
  }
}

function applyContexts(out: Output, p: EventProtocol, decision: Decision): void {
  if (decision.contexts.length === 0) return;
  if (outcomeSupportOf(p, 'context').supported) {
    out.contexts = [...decision.contexts];
    return;
  }
  for (const id of ruleIds(decision, 'context')) out.problems.push(`${PREFIX}rule ${id}: context cannot reach the model on ${p.event}`);
}

/**
 * Runtime errors and the broken rules that could have judged the event: on_error decides,
 * visibly. Broken rules that could not have judged it are only reported.
 */
function applyErrors(out: Output, p: EventProtocol, errors: Diagnostic[], broken: readonly BrokenRuleReport[], onError: 'open' | 'closed'): void {
  const judged: Array<(consequence: string) => string> = [];
  if (errors.length > 0) judged.push((consequence) => describeProblems(errors, consequence));
  for (const b of broken) {
    const what = b.kind === 'rule' ? `rule "${b.name}" was left out` : b.kind === 'part' ? `${b.name} was left out` : 'this file was left out';
    if (b.covers) judged.push((consequence) => describeProblems(b.diagnostics, `${what}: ${consequence}`));
    else out.problems.push(describeProblems(b.diagnostics, `${what}; it could not have judged this event`));
  }
  if (judged.length === 0) return;
  if (onError === 'open') {
    for (const line of judged) out.problems.push(line('failing open'));
    return;
  }
  if (!canStop(p)) {
    for (const line of judged) out.problems.push(line(`failing closed, but ${p.event} cannot be blocked`));
    return;
  }
  const text = judged.map((line) => line('failing closed')).join('\n');
  const earlier = out.permission?.decision === 'deny' ? out.permission.reason : out.block;
  stop(out, p, earlier ? `${earlier}\n${text}` : text);
  out.problems.push(text);
}

/** Writes a refusal: a permission deny where the event has one, else its block channel. */
function stop(out: Output, p: EventProtocol, reason: string): void {
  if (p.permission) out.permission = { decision: 'deny', reason };
  else out.block = reason;
}

function canStop(p: EventProtocol): boolean {
  return !p.unsupported && (p.permission !== null || p.block !== null);
}

/** Ids of the rules that fired with an outcome; a placeholder when the decision names none. */
function ruleIds(decision: Decision, outcome: Outcome): string[] {
  const ids = decision.hits.filter((h) => h.outcome === outcome).map((h) => h.id);
  const decided = decision.decidedBy.filter((h) => h.outcome === outcome).map((h) => h.id);
  const all = [...new Set([...decided, ...ids])];
  return all.length > 0 ? all : ['(unnamed)'];
}
