/**
 * What the runner does when it answered without judging an event: the line in the
 * per-user counter (record.ts) and, when the policy is known (or was, last time it built)
 * and keeps a decision log, a `fail_open` record there too, so the project's own log shows it.
 */
import { diagnostic, formatDiagnostic } from '../../diagnostics';
import { protocolFor } from '../../protocol';
import type { CompiledPolicy, Diagnostic, HookEvent } from '../../types';
import { appendDecisionRecord, type DecisionRecord } from '../decision-log';
import { isoTime } from '../iso-time';
import { redactPatterns, redactRecord } from '../redact';
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
    // No policy to read a log file from: the counter above holds the fail-open.
  }
  const file = policy?.settings.log.file;
  if (!policy || !file) return warnings;
  const record: DecisionRecord = {
    time: isoTime(answer.now), session_id: session, event: answer.eventName ?? '(unreadable)', tool, agent: null,
    outcome: 'none', rules: [], reason: null, paths: [],
    errors: answer.problems.filter((d) => d.severity === 'error').map(formatDiagnostic),
    policy: policy.sources.map((s) => s.file), fail_open: true,
  };
  const logged = appendDecisionRecord(file, answer.projectRoot, redactRecord(record, redactPatterns(policy.settings.log)));
  if (logged) warnings.push(logged);
  return warnings;
}
