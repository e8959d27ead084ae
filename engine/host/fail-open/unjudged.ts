/**
 * What the runner does when it answered without judging an event: the line in the
 * per-user counter (record.ts) and, when the policy is known (or was, last time it built),
 * a decision record with `fail_open: true` and the errors wherever that policy logs (its
 * file, webhook, team database, OTLP), so the project's own log and the team's tools show it.
 */
import { diagnostic, formatDiagnostic } from '../../diagnostics';
import { protocolFor } from '../../protocol';
import type { CompiledPolicy, Decision, Diagnostic, HookEvent } from '../../types';
import { recordDecision } from '../decision-log';
import { failOpenRecord, recordFailOpen } from './record';

export interface UnjudgedAnswer {
  env: Readonly<Record<string, string | undefined>>;
  /** The cache folders (tests); defaults to cacheDirectories(env). */
  dirs?: string[];
  projectRoot: string;
  /** The event, or null when stdin held none. */
  event: HookEvent | null;
  /** The event's name even when the event itself is unknown (null: none). */
  eventName: string | null;
  /** The policy in force, or the last one built for these files; null when none is known. */
  policy: () => CompiledPolicy | null;
  problems: Diagnostic[];
  onError: 'open' | 'closed';
  now: number;
  /** The webhook sender script (tests); defaults as recordDecision's. */
  webhookSender?: string;
}

/**
 * Counts an answer given without judging the event, when it could have stopped something:
 * an event that cannot be blocked lets nothing through by failing. Returns `log-error`
 * warnings; never throws.
 * @example noteUnjudged({ env, projectRoot: '/p', event, eventName: 'PreToolUse', policy: () => null, problems, onError: 'open', now: Date.now() }) // []
 */
export function noteUnjudged(answer: UnjudgedAnswer): Diagnostic[] {
  const first = answer.problems.find((d) => d.severity === 'error');
  if (!first) return [];
  const protocol = answer.eventName === null ? undefined : protocolFor(answer.eventName);
  if (protocol && protocol.block === null) return [];
  const event = answer.event;
  const tool = event && typeof event.tool_name === 'string' ? event.tool_name : null;
  const session = event && typeof event.session_id === 'string' ? event.session_id : null;
  const warnings: Diagnostic[] = [];
  const problem = recordFailOpen(failOpenRecord({
    project: answer.projectRoot, session_id: session, event: answer.eventName, tool,
    code: first.code, message: first.message, on_error: answer.onError,
  }, answer.now), { env: answer.env, dirs: answer.dirs });
  if (problem) warnings.push(diagnostic('log-error', `cannot count a fail-open: ${problem}`));
  if (answer.onError !== 'open') return warnings;
  let policy: CompiledPolicy | null = null;
  try {
    policy = answer.policy();
  } catch {
    // No policy to read log settings from: the counter above holds the fail-open.
  }
  if (!policy) return warnings;
  // A decision with its errors (log.record's `error`), wherever the policy logs: file, webhook, team database, OTLP.
  const decision: Decision = {
    event: answer.eventName ?? '(unreadable)', agent: event && typeof event.agent_type === 'string' ? event.agent_type : null, tool,
    outcome: 'none', reason: null, decidedBy: [], hits: [], contexts: [], warnings: [], trace: [], bypass: null,
    errors: answer.problems.filter((d) => d.severity === 'error'),
  };
  try {
    warnings.push(...recordDecision({
      decision, event: event ?? { hook_event_name: decision.event }, policy, projectRoot: answer.projectRoot, now: new Date(answer.now),
      env: answer.env, webhookSender: answer.webhookSender, failOpen: true,
    }));
  } catch (e) {
    warnings.push(diagnostic('log-error', `cannot log a fail-open: ${(e as Error).message}`));
  }
  return warnings;
}

/**
 * What left a judged event unchecked in part, as the renderer applies on_error to it:
 * runtime errors (an expression that threw, a file that could not be read) and broken
 * rules that could have judged the event. [] when nothing, or when a rule stopped the call
 * anyway (deny, block) or the user is asked: only a call on_error let through (or stopped)
 * in the rules' place counts.
 * @example uncheckedProblems(decisionWithExpressionError) // [expression-error]
 */
export function uncheckedProblems(decision: Decision): Diagnostic[] {
  if (decision.outcome !== 'none' && decision.outcome !== 'allow') return [];
  const broken = decision.broken ?? [];
  const ofBroken = new Set(broken.flatMap((b) => b.diagnostics.map(formatDiagnostic)));
  const errors = decision.errors.filter((e) => e.severity === 'error' && !ofBroken.has(formatDiagnostic(e)));
  return [...errors, ...broken.filter((b) => b.covers).flatMap((b) => b.diagnostics.filter((d) => d.severity === 'error'))];
}
