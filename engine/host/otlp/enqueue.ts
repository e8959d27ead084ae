/**
 * The runner's side of the OpenTelemetry export: whether export is on for this event, and
 * one small JSON item per recorded decision queued in the `otlp-outbox` (engine/host/outbox;
 * one folder per target) for the detached exporter (dist/otlp-exporter.cjs), which is given
 * the target (endpoints, headers, allowed variables) by the runner that starts it: an item
 * says nothing about where it goes. Nothing here loads the SDK: the runner writes one file,
 * looks at one lock, and goes on.
 */
import * as path from 'path';
import { diagnostic } from '../../diagnostics';
import type { CompiledLog, Diagnostic } from '../../types';
import type { OtlpDecisionRecord } from '../../otlp/record-attributes';
import { destinationOutbox, drainerEnv, sendThroughOutbox, type StartDrainerOptions } from '../outbox';
import { unsetHeaderEnv } from '../../render/header-env';

/** The outbox folder's name under the cache folder. */
export const OTLP_OUTBOX = 'otlp-outbox';
/** The SDK's default collector, for `log.otlp` without an endpoint and no variable to say one. */
export const DEFAULT_OTLP_ENDPOINT = 'http://localhost:4318';
export const DEFAULT_OTLP_TIMEOUT_MS = 10_000;

/** Where and how one record is exported: resolved by the runner, read by the exporter. */
export interface OtlpTarget {
  /** The OTLP/HTTP logs URL (…/v1/logs); null: no logs. */
  logs: string | null;
  /** The OTLP/HTTP traces URL (…/v1/traces); null: no spans. */
  traces: string | null;
  /** `log.otlp.headers`, their `$NAME` references left for the exporter to fill in from its environment. */
  headers: Record<string, string>;
  /** The variables the headers may read (`log.otlp.allowed_env_vars`). */
  allowedEnvVars: string[];
  timeoutMs: number;
}

/** One outbox item: the record, not where it goes (the exporter's target, from the runner). */
export interface OtlpItem {
  v: 1;
  /** 32 random hex digits, the span's trace id: one per decision, the same on every retry. */
  id?: string;
  /** The project folder's name (hookpolicy.project). */
  project: string;
  record: OtlpDecisionRecord;
  /** Which signals are still to be sent (absent: both); an item half sent is queued again with the rest. */
  signals?: Array<'logs' | 'traces'>;
}

type Env = Readonly<Record<string, string | undefined>>;

/**
 * Where decisions go, or null when export is off. On when the policy says `log.otlp: {…}`
 * (its endpoint, else the variables, else localhost:4318), or when the policy says nothing
 * and OTEL_EXPORTER_OTLP_ENDPOINT, _LOGS_ENDPOINT or _TRACES_ENDPOINT is set. Off with
 * `log.otlp: false`, OTEL_SDK_DISABLED=true, or neither a setting nor a variable.
 * OTEL_LOGS_EXPORTER=none / OTEL_TRACES_EXPORTER=none leave that signal out; the timeout is
 * `timeout_ms`, else OTEL_EXPORTER_OTLP_TIMEOUT, else 10 s.
 * @example otlpTarget({ otlp: undefined, ... }, { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318' })?.logs // 'http://c:4318/v1/logs'
 */
export function otlpTarget(log: Pick<CompiledLog, 'otlp'>, env: Env): OtlpTarget | null {
  const setting = log.otlp;
  if (setting === false || value(env, 'OTEL_SDK_DISABLED')?.toLowerCase() === 'true') return null;
  const base = setting?.endpoint ?? value(env, 'OTEL_EXPORTER_OTLP_ENDPOINT');
  const signal = (name: 'LOGS' | 'TRACES', resource: string): string | null => {
    if (value(env, `OTEL_${name}_EXPORTER`)?.toLowerCase() === 'none') return null;
    // A policy's endpoint is the base of both signals; the variables follow the spec (a signal's own URL as it is).
    if (setting?.endpoint) return withResource(setting.endpoint, resource);
    const own = value(env, `OTEL_EXPORTER_OTLP_${name}_ENDPOINT`);
    if (own) return own;
    if (base) return withResource(base, resource);
    return setting ? withResource(DEFAULT_OTLP_ENDPOINT, resource) : null;
  };
  const logs = signal('LOGS', 'v1/logs');
  const traces = signal('TRACES', 'v1/traces');
  if (logs === null && traces === null) return null;
  const envTimeout = Number(value(env, 'OTEL_EXPORTER_OTLP_TIMEOUT'));
  const timeoutMs = setting?.timeoutMs ?? (envTimeout > 0 ? Math.min(envTimeout, 60_000) : DEFAULT_OTLP_TIMEOUT_MS);
  return { logs, traces, headers: setting?.headers ?? {}, allowedEnvVars: setting?.allowedEnvVars ?? [], timeoutMs };
}

export interface ExportDecisionOptions extends Pick<StartDrainerOptions, 'spawn'> {
  /** The exporter script; defaults to otlp-exporter.cjs beside the running bundle. */
  exporter?: string;
  /** The outbox folder itself (tests); default: `otlp-outbox/<the target's key>` in the first trusted cache folder. */
  folder?: string | null;
}

/**
 * True for a target as the runner passes it to the exporter.
 * @example isOtlpTarget({ logs: 'http://c:4318/v1/logs', traces: null, headers: {}, allowedEnvVars: [], timeoutMs: 10000 }) // true
 */
export function isOtlpTarget(value: unknown): value is OtlpTarget {
  if (value === null || typeof value !== 'object') return false;
  const t = value as Record<string, unknown>;
  const url = (x: unknown) => x === null || typeof x === 'string';
  const headers = t.headers !== null && typeof t.headers === 'object' && !Array.isArray(t.headers) && Object.values(t.headers as object).every((h) => typeof h === 'string');
  return url(t.logs) && url(t.traces) && headers && Array.isArray(t.allowedEnvVars) && t.allowedEnvVars.every((n) => typeof n === 'string') && typeof t.timeoutMs === 'number';
}

/**
 * Queues the record for export and starts the exporter when none is alive. Returns a
 * `log-error` warning when it cannot (no private cache folder, a failed write).
 * @example exportDecision(target, record, '/home/me/shop', { env: process.env }) // null
 */
export function exportDecision(target: OtlpTarget, record: OtlpDecisionRecord, projectRoot: string, env: Env, options: ExportDecisionOptions = {}): Diagnostic | null {
  const folder = options.folder !== undefined ? options.folder : destinationOutbox(env, OTLP_OUTBOX, target);
  if (folder === null) {
    // Without a folder only this user can write, a record cannot wait for the collector.
    return diagnostic('log-error', 'cannot export the decision to OpenTelemetry: no cache folder only this user can write (set HOOKPOLICY_CACHE_DIR)');
  }
  const item: OtlpItem = { v: 1, id: crypto().randomBytes(16).toString('hex'), project: path.basename(projectRoot.replace(/[\\/]+$/, '')), record };
  const problem = sendThroughOutbox(folder, JSON.stringify(item), options.exporter ?? path.join(__dirname, 'otlp-exporter.cjs'), { spawn: options.spawn, env: drainerEnv(target) });
  return problem ?? headerEnvProblem(target, env);
}

/**
 * A `log-error` warning when an allowed variable the headers name has no value here: the
 * exporter this runner starts would have none either, and keeps the records until it has.
 */
function headerEnvProblem(target: OtlpTarget, env: Env): Diagnostic | null {
  const unset = unsetHeaderEnv(target.headers, target.allowedEnvVars, (name) => env[name]);
  if (unset.length === 0) return null;
  return diagnostic('log-error', `log.otlp.headers name ${unset.map((n) => `$${n}`).join(', ')}, not set in the hook's environment: the records wait in the OpenTelemetry outbox until it is`);
}

function value(env: Env, name: string): string | undefined {
  const v = env[name]?.trim();
  return v ? v : undefined;
}

/** `base` + `/v1/logs`, one slash between them. */
function withResource(base: string, resource: string): string {
  return `${base.replace(/\/+$/, '')}/${resource}`;
}

/** node:crypto, loaded by the first event that needs it (~2 ms a runner that logs nothing never pays). */
function crypto(): typeof import('crypto') {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('crypto') as typeof import('crypto');
}
