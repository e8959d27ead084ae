/**
 * A decision record as OpenTelemetry sees it: the attributes, severity, body and span
 * timing of one OTLP log record and one span. Pure data, no SDK: the exporter process
 * (engine/host/otlp/export.ts) hands these to the SDK. Names follow the semantic
 * conventions where one exists (session.id, service.*, host.name, user.*), `hookpolicy.*`
 * otherwise; docs/operations.md#opentelemetry lists them.
 */
import type { DecisionRecord } from '../types';

/**
 * The decision-log line the export reads, as it comes back from the outbox (JSON): the
 * runner's record, read loosely where a line from elsewhere may differ (`policy` absent,
 * any outcome text, `fail_open` any boolean).
 */
export type OtlpDecisionRecord = Omit<DecisionRecord, 'policy' | 'outcome' | 'fail_open'> & { policy?: string[]; outcome: string; fail_open?: boolean };

/** An attribute value as OpenTelemetry takes it. */
export type OtlpAttributeValue = string | number | boolean | string[];
export type OtlpAttributes = Record<string, OtlpAttributeValue>;

/** The semantic-conventions names used (checked against @opentelemetry/semantic-conventions by the tests). */
export const SEMCONV = {
  serviceName: 'service.name',
  serviceVersion: 'service.version',
  hostName: 'host.name',
  userName: 'user.name',
  userId: 'user.id',
  sessionId: 'session.id',
} as const;

/** Ours, on every log record and span. */
export const ATTR = {
  project: 'hookpolicy.project',
  agent: 'hookpolicy.agent',
  rule: 'hookpolicy.rule',
  rules: 'hookpolicy.rules',
  outcome: 'hookpolicy.outcome',
  event: 'hookpolicy.event',
  tool: 'hookpolicy.tool',
  paths: 'hookpolicy.paths',
  reason: 'hookpolicy.reason',
  warnings: 'hookpolicy.warnings',
  errors: 'hookpolicy.errors',
  bypass: 'hookpolicy.bypass',
  policy: 'hookpolicy.policy',
  durationMs: 'hookpolicy.duration_ms',
  prev: 'hookpolicy.prev',
  failOpen: 'hookpolicy.fail_open',
  command: 'hookpolicy.command',
} as const;

/** OpenTelemetry's severity numbers for the three levels a decision takes. */
export const SEVERITY = {
  INFO: 9,
  WARN: 13,
  ERROR: 17,
} as const;

/**
 * The log record's and the span's attributes: only what the record holds (no empty
 * strings, no empty lists). `project` is the project folder's name.
 * @example decisionAttributes(record, 'shop')['hookpolicy.rule'] // 'no-env-writes'
 */
export function decisionAttributes(record: OtlpDecisionRecord, project: string): OtlpAttributes {
  const attributes: OtlpAttributes = { [ATTR.project]: project, [ATTR.event]: record.event, [ATTR.outcome]: record.outcome };
  const text = (name: string, value: string | null | undefined) => {
    if (typeof value === 'string' && value !== '') attributes[name] = value;
  };
  const list = (name: string, value: readonly string[] | undefined) => {
    if (Array.isArray(value) && value.length > 0) attributes[name] = value.map(String);
  };
  text(SEMCONV.sessionId, record.session_id);
  text(ATTR.agent, record.agent);
  text(ATTR.tool, record.tool);
  text(ATTR.rule, record.rules[0]);
  list(ATTR.rules, record.rules);
  list(ATTR.paths, record.paths);
  text(ATTR.reason, record.reason);
  list(ATTR.warnings, record.warnings);
  list(ATTR.errors, record.errors);
  if (record.bypass) text(ATTR.bypass, `${record.bypass.env}=${record.bypass.value}`);
  list(ATTR.policy, record.policy);
  if (typeof record.duration_ms === 'number' && Number.isFinite(record.duration_ms)) attributes[ATTR.durationMs] = record.duration_ms;
  text(ATTR.prev, record.prev);
  if (record.fail_open === true) attributes[ATTR.failOpen] = true;
  text(ATTR.command, record.command);
  return attributes;
}

/**
 * deny and block are WARN, a decision with errors (a guard that failed open or closed)
 * ERROR, anything else INFO.
 * @example decisionSeverity({ outcome: 'deny', ... }) // { number: 13, text: 'WARN' }
 */
export function decisionSeverity(record: Pick<OtlpDecisionRecord, 'outcome' | 'errors'>): { number: number; text: keyof typeof SEVERITY } {
  if (record.errors && record.errors.length > 0) return { number: SEVERITY.ERROR, text: 'ERROR' };
  if (record.outcome === 'deny' || record.outcome === 'block') return { number: SEVERITY.WARN, text: 'WARN' };
  return { number: SEVERITY.INFO, text: 'INFO' };
}

/**
 * The log record's body: one line a person reads in a log view.
 * @example decisionBody(record) // 'deny PreToolUse Write: .env holds secrets.'
 */
export function decisionBody(record: OtlpDecisionRecord): string {
  const head = [record.outcome, record.event, record.tool].filter((s): s is string => typeof s === 'string' && s !== '').join(' ');
  const why = record.reason ?? record.errors?.[0] ?? null;
  return why ? `${head}: ${why}` : head;
}

/**
 * The span of the hook execution: named by event and tool (a low-cardinality name), ending
 * at the record's time and starting `duration_ms` earlier (zero long without one).
 * @example decisionSpan(record) // { name: 'PreToolUse Write', startMs: 1700000000000 - 3.2, endMs: 1700000000000 }
 */
export function decisionSpan(record: OtlpDecisionRecord): { name: string; startMs: number; endMs: number; error: string | null } {
  const endMs = Date.parse(record.time);
  const duration = typeof record.duration_ms === 'number' && record.duration_ms > 0 ? record.duration_ms : 0;
  return {
    name: record.tool ? `${record.event} ${record.tool}` : record.event,
    startMs: endMs - duration,
    endMs,
    error: record.errors?.[0] ?? null,
  };
}

/**
 * True when a parsed JSON value has the shape of a decision record (what the exporter
 * accepts from its outbox).
 * @example isDecisionRecord({ time: '2026-01-01T00:00:00.000Z', event: 'Stop', outcome: 'none', rules: [], paths: [] }) // true
 */
export function isDecisionRecord(value: unknown): value is OtlpDecisionRecord {
  if (value === null || typeof value !== 'object') return false;
  const r = value as Record<string, unknown>;
  return typeof r.time === 'string' && !Number.isNaN(Date.parse(r.time)) && typeof r.event === 'string'
    && typeof r.outcome === 'string' && Array.isArray(r.rules) && Array.isArray(r.paths);
}
