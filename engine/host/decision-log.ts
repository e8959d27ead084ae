/**
 * The decision log: one JSON line per recorded decision, appended with a single
 * O_APPEND write so concurrent runners never interleave inside a line, and optionally
 * POSTed to a webhook by a detached child process.
 */
import * as fs from 'fs';
import * as path from 'path';
import { diagnostic, formatDiagnostic } from '../diagnostics';
import type { CompiledPolicy, Decision, DecisionRecord, Diagnostic, HookEvent, JsonValue } from '../types';

export type { DecisionRecord } from '../types';
import { sendWebhook, type SendWebhookOptions } from './webhook';
import { webhookEnvProblem } from './webhook-headers';
import { isoTime } from './iso-time';
import { loggedCommand } from './logged-command';
import { LogRefusedError, openLogForAppend } from './log-file';
import { appendChainedLine } from './log-chain/append';
import type { DecisionAppender } from './log-chain/appender';
import { noticeText } from '../decision-log/notice';
import { exportDecision, otlpTarget } from './otlp/enqueue';
import { redactPatterns, redactRecord, redactText } from './redact';
import { renderWebhookBody } from '../render/webhook-body';
import { loggedHits, shouldRecord } from '../evaluate/log-categories';
import { databaseUrl } from './postgres/config';
import { shipToPostgres } from './postgres/ship';

export { logCategories, shouldRecord } from '../evaluate/log-categories';


/**
 * The log line for a decision.
 * @example buildDecisionRecord(decision, event, policy, new Date()).rules // ['no-env-writes']
 */
export function buildDecisionRecord(decision: Decision, event: HookEvent, policy: CompiledPolicy, now: Date): DecisionRecord {
  const hits = loggedHits(decision.hits, policy);
  const decided = loggedHits(decision.decidedBy, policy);
  const ruled = decision.outcome === 'none' ? hits : decided;
  const record: DecisionRecord = {
    time: isoTime(now.getTime()),
    session_id: typeof event.session_id === 'string' ? event.session_id : null,
    event: decision.event,
    tool: decision.tool,
    agent: decision.agent,
    outcome: decision.outcome,
    rules: ruled.map((h) => h.id),
    reason: decided.length > 0 ? decision.reason : null,
    // Every path the call touches, not only those a rule matched (an allow covers all or none).
    paths: decision.paths ?? [...new Set(ruled.flatMap((h) => h.paths ?? []))],
    policy: policy.sources.map((s) => s.file),
  };
  const command = loggedCommand(event, redactPatterns(policy.settings.log));
  if (command !== null) record.command = command;
  const contexts = hits.filter((h) => h.outcome === 'context').map((h) => h.message);
  const warnings = hits.filter((h) => h.outcome === 'warn').map((h) => h.message);
  if (contexts.length > 0) record.contexts = contexts;
  if (warnings.length > 0) record.warnings = warnings;
  if (decision.bypass) record.bypass = decision.bypass;
  if (decision.errors.length > 0) record.errors = decision.errors.map(formatDiagnostic);
  return record;
}

/**
 * Appends one record to the JSONL file (relative paths are under the project root;
 * missing folders are created), chained: the line carries `prev`, the hash of the line
 * before it (log-chain/, under a lock beside the log), and `record.prev` is set to it so
 * that exports made after it carry the same link. What is at the log's path when it is not
 * a plain file of one link (a FIFO, a symlink, a second name) is set aside and a new log
 * begun (never followed, never written): a `log-notice` warning says so, as it does when
 * the log had lost lines at its end. Returns a `log-error` warning instead of throwing (a
 * folder leading out of the project, a file that cannot be written); `log-lock` when the
 * line was appended without the lock.
 */
export function appendDecisionRecord(file: string, projectRoot: string, record: DecisionRecord): Diagnostic | null {
  const target = path.resolve(projectRoot, file);
  let fd: number | null = null;
  try {
    try {
      // Never blocks, follows no symlink, appends only to a regular file of the project (log-file.ts).
      fd = openLogForAppend(target, projectRoot, { readable: true, keepLinked: true });
    } catch (e) {
      // What is at the path is set aside under the lock; a folder leading out is refused here.
      if (!(e instanceof LogRefusedError) || e.atPath === null) throw e;
    }
    const { prev: _unchained, ...unchained } = record;
    const { prev, unlocked, notices } = appendChainedLine(fd, target, JSON.stringify(unchained), { projectRoot });
    record.prev = prev;
    if (unlocked) return diagnostic('log-lock', `appended without the decision log's lock: ${unlocked}`, { file: target });
    return notices.length > 0 ? diagnostic('log-notice', notices.map(noticeText).join('; '), { file: target }) : null;
  } catch (e) {
    return diagnostic('log-error', `cannot write the decision log: ${(e as Error).message}`, { file: target });
  } finally {
    if (fd !== null) fs.closeSync(fd);
  }
}

export interface RecordDecisionOptions {
  decision: Decision;
  event: HookEvent;
  policy: CompiledPolicy;
  projectRoot: string;
  now: Date;
  /** The webhook sender script (see webhook.ts). */
  webhookSender?: string;
  spawn?: SendWebhookOptions['spawn'];
  /** The environment, for the cache folder that holds the webhook spool. */
  env?: SendWebhookOptions['env'];
  /** The webhook spool folder itself (tests); null: one sender per record. */
  spool?: SendWebhookOptions['spool'];
  /** The runner's time for the event so far, in ms: the handler metric `policy stats` shows. */
  durationMs?: number;
  /** The runner let the event through unjudged (fail-open/): the record says so with `fail_open`. */
  failOpen?: boolean;
  /**
   * A long-lived process's appender for `log.file` (log-chain/appender.ts), used instead of
   * opening the log for this one record; it must be the one for this project's log.
   */
  appender?: DecisionAppender;
  /** Warnings that come after the call returned (a record the appender queued, and its exports). */
  onLateProblem?: (problem: Diagnostic) => void;
}

/**
 * Records a decision where the policy's `log` settings say, when `log.record` asks for
 * it. Returns `log-error` warnings; the decision itself is never changed.
 * @example recordDecision({ decision, event, policy, projectRoot: '/p', now: new Date() }) // []
 */
export function recordDecision(options: RecordDecisionOptions): Diagnostic[] {
  const { decision, event, policy, projectRoot } = options;
  const log = policy.settings.log;
  const otlp = otlpTarget(log, options.env ?? {});
  // A team database (HOOKPOLICY_DATABASE_URL) records the decisions log.record asks for, with or without log.file.
  if (!shouldRecord(decision, policy, otlp !== null || databaseUrl(options.env ?? {}) !== null)) return [];
  const built = buildDecisionRecord(decision, event, policy, options.now);
  if (options.durationMs !== undefined) built.duration_ms = Math.round(options.durationMs * 100) / 100;
  if (options.failOpen) built.fail_open = true;
  const record = redactRecord(built, redactPatterns(log));
  const problems: Diagnostic[] = [];
  // The appender of another log (the policy's log.file changed since it was made) is not used.
  if (log.file && options.appender?.file === path.resolve(projectRoot, log.file)) {
    const appended = options.appender.append(record);
    if (!appended.written) {
      // Queued behind another process's lock: the exports follow once it is written, with its prev.
      void appended.done.then((problem) => {
        for (const p of [...(problem ? [problem] : []), ...exportRecord(record, options, otlp)]) options.onLateProblem?.(p);
      });
      return problems;
    }
    if (appended.problem) problems.push(appended.problem);
  } else if (log.file) {
    const problem = appendDecisionRecord(log.file, projectRoot, record);
    if (problem) problems.push(problem);
  }
  return [...problems, ...exportRecord(record, options, otlp)];
}

/** The record's copies elsewhere (webhook, team database, OpenTelemetry), each queued for its detached sender. */
function exportRecord(record: DecisionRecord, options: RecordDecisionOptions, otlp: ReturnType<typeof otlpTarget>): Diagnostic[] {
  const { event, policy, projectRoot } = options;
  const log = policy.settings.log;
  const problems: Diagnostic[] = [];
  // A variable the headers read is unset: the sender this runner starts would lack it too.
  const unset = log.webhook && options.env ? webhookEnvProblem(log.webhook, options.env) : null;
  if (unset) problems.push(unset);
  if (log.webhook && !unset) {
    const { body, ...webhook } = log.webhook;
    const payload = body ? webhookBody(body, record, event, projectRoot, redactPatterns(log)) : record;
    const problem = sendWebhook(webhook, payload, { senderPath: options.webhookSender, spawn: options.spawn, env: options.env, spool: options.spool });
    if (problem) problems.push(problem);
  }
  // The team database, when HOOKPOLICY_DATABASE_URL is set: queued here, shipped by a detached process.
  const shipped = shipToPostgres(options.env ?? {}, projectRoot, [{ type: 'decision', record }], { spawn: options.spawn });
  if (shipped) problems.push(shipped);
  // OpenTelemetry (log.otlp, OTEL_EXPORTER_OTLP_*): queued here, exported by a detached process.
  const exported = otlp ? exportDecision(otlp, record, projectRoot, options.env ?? {}, { spawn: options.spawn }) : null;
  if (exported) problems.push(exported);
  return problems;
}

/**
 * `log.webhook.body` rendered over a (redacted) record and the event's command. Each value
 * is redacted before it is placed and the whole body after, so a template that glues a
 * value to a name (`"cmd={{command}}"`) cannot carry a secret out.
 * @example webhookBody({ status: 'denied', agentName: '{{agent}}' }, record, event, '/p', []) // { status: 'denied', agentName: 'lynch' }
 */
export function webhookBody(body: { [key: string]: JsonValue }, record: DecisionRecord, event: HookEvent, projectRoot: string, patterns: readonly string[]): JsonValue {
  const input = event.tool_input;
  const command = input !== null && typeof input === 'object' ? (input as Record<string, unknown>).command : undefined;
  const values = new Map<string, string>([
    ['outcome', record.outcome],
    ['rule', record.rules[0] ?? ''],
    ['rules', record.rules.join(', ')],
    ['reason', record.reason ?? ''],
    ['agent', record.agent ?? ''],
    ['tool', record.tool ?? ''],
    ['event', record.event],
    ['path', record.paths[0] ?? ''],
    ['paths', record.paths.join(', ')],
    ['command', typeof command === 'string' ? redactText(command, patterns) : ''],
    ['session', record.session_id ?? ''],
    ['time', record.time],
    ['project', path.basename(projectRoot.replace(/[\\/]+$/, ''))],
    ['cwd', typeof event.cwd === 'string' ? redactText(event.cwd, patterns) : ''],
  ]);
  return redactRecord(renderWebhookBody(body, (name) => values.get(name)), patterns);
}
