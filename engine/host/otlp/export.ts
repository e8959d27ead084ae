/**
 * The exporter's side (dist/otlp-exporter.cjs only; never the runner): outbox items
 * (enqueue.ts) become OTLP log records and spans through the OpenTelemetry JS SDK and go
 * to the collector over OTLP/HTTP. A batch counts as delivered only when the exporter's
 * own export callback says the collector accepted it; otherwise it stays in the outbox
 * and the drainer tries again after a backoff.
 */
import { createHash } from 'crypto';
import * as os from 'os';
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { ExportResultCode, type ExportResult } from '@opentelemetry/core';
import { OTLPLogExporter } from '@opentelemetry/exporter-logs-otlp-http';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { defaultResource, detectResources, envDetector, resourceFromAttributes, type Resource } from '@opentelemetry/resources';
import { LoggerProvider, type LogRecordProcessor, type ReadableLogRecord } from '@opentelemetry/sdk-logs';
import { TracerProvider, type ReadableSpan, type SpanProcessor } from '@opentelemetry/sdk-trace';
import { decisionAttributes, decisionBody, decisionSeverity, decisionSpan, isDecisionRecord, SEMCONV } from '../../otlp/record-attributes';
import { PACKAGE_VERSION } from '../engine-version';
import { expandHeaderEnv } from '../../render/header-env';
import type { OtlpItem, OtlpTarget } from './enqueue';
import type { Delivery } from '../outbox';

const SCOPE = 'hookpolicy';

type Env = Readonly<Record<string, string | undefined>>;

export interface OtlpExporterOptions {
  /** Where header values' allowed `$NAME` references are read (the process's environment). */
  env: Env;
  /** Where every item goes: the runner's, from the policy (an item's own say is never read). */
  target: OtlpTarget;
  /** Queues an item again (the part of a half-sent one still to send). */
  requeue: (text: string) => void;
}

/**
 * The resource every record and span carries: service.name = hookpolicy (OTEL_SERVICE_NAME
 * wins), service.version, host.name, user.name and user.id, and OTEL_RESOURCE_ATTRIBUTES
 * (both read by the SDK's env detector from this process's environment).
 * @example otlpResource().attributes['service.name'] // 'hookpolicy'
 */
export function otlpResource(): Resource {
  let user: { username: string; uid: number } | null = null;
  try {
    user = os.userInfo();
  } catch {
    // No passwd entry (a container's arbitrary uid): the resource goes without.
  }
  const ours = resourceFromAttributes({
    [SEMCONV.serviceName]: SCOPE,
    [SEMCONV.serviceVersion]: PACKAGE_VERSION,
    [SEMCONV.hostName]: os.hostname(),
    ...(user ? { [SEMCONV.userName]: user.username, ...(user.uid >= 0 ? { [SEMCONV.userId]: String(user.uid) } : {}) } : {}),
  });
  // A later merge wins: the variables over ours over the SDK's defaults.
  return defaultResource().merge(ours).merge(detectResources({ detectors: [envDetector] }));
}

/**
 * Exports outbox items to the exporter's target: one Delivery per text. The items' log
 * records go in one export call and their spans in another. An item whose logs were
 * accepted but whose span was not is queued again for its span alone (and the other way
 * round), so nothing reaches the collector twice.
 */
export class OtlpExporter {
  private readonly resource: Resource;
  private readonly logExporters = new Map<string, OTLPLogExporter>();
  private readonly traceExporters = new Map<string, OTLPTraceExporter>();

  constructor(private readonly options: OtlpExporterOptions) {
    this.resource = otlpResource();
  }

  /** Delivers outbox texts; see the class comment. */
  async deliver(texts: string[]): Promise<Delivery[]> {
    const deliveries: Delivery[] = texts.map(() => 'rejected');
    const { target } = this.options;
    const items: Array<{ index: number; item: OtlpItem }> = [];
    texts.forEach((text, index) => {
      const item = parseItem(text);
      // Not an item this exporter can ever send: set aside, not retried forever.
      if (item) items.push({ index, item });
    });
    if (items.length === 0) return deliveries;
    const wants = (i: OtlpItem, s: 'logs' | 'traces') => target[s] !== null && (i.signals ?? ['logs', 'traces']).includes(s);
    const logItems = items.filter(({ item }) => wants(item, 'logs'));
    const spanItems = items.filter(({ item }) => wants(item, 'traces'));
    const [logs, traces] = await Promise.all([
      logItems.length > 0 ? this.exportLogs(target, logItems.map((e) => e.item)) : 'sent' as const,
      spanItems.length > 0 ? this.exportSpans(target, spanItems.map((e) => e.item)) : 'sent' as const,
    ]);
    const state = { logs, traces };
    for (const { index, item } of items) {
      const signals = (['logs', 'traces'] as const).filter((s) => wants(item, s));
      const left = signals.filter((s) => state[s] === 'retry');
      const refused = signals.some((s) => state[s] === 'rejected');
      // Nothing to try again: sent, or set aside when the collector refused a part for good.
      if (left.length === 0) deliveries[index] = refused ? 'rejected' : 'sent';
      else deliveries[index] = left.length === signals.length ? 'retry' : this.requeue({ ...item, signals: left });
    }
    return deliveries;
  }

  /** Ends the exporters (their HTTP agents). */
  async shutdown(): Promise<void> {
    await Promise.all([...this.logExporters.values(), ...this.traceExporters.values()].map((e) => e.shutdown().catch(() => undefined)));
  }

  private requeue(rest: OtlpItem): Delivery {
    try {
      this.options.requeue(JSON.stringify(rest));
      return 'sent';
    } catch {
      // Cannot queue the rest alone: the whole item again (its other half may arrive twice).
      return 'retry';
    }
  }

  private async exportLogs(target: OtlpTarget, items: OtlpItem[]): Promise<Delivery> {
    const collected: ReadableLogRecord[] = [];
    const provider = new LoggerProvider({ resource: this.resource, processors: [logCollector((r) => collected.push(r))] });
    const logger = provider.getLogger(SCOPE, PACKAGE_VERSION);
    for (const item of items) {
      const { record } = item;
      const severity = decisionSeverity(record);
      // The span's ids, so a log view links the record to its hook execution.
      const context = trace.setSpanContext(ROOT_CONTEXT, { ...spanContextOf(item), isRemote: false });
      logger.emit({
        timestamp: new Date(record.time),
        severityNumber: severity.number,
        severityText: severity.text,
        body: decisionBody(record),
        attributes: decisionAttributes(record, item.project),
        eventName: 'hookpolicy.decision',
        context,
      });
    }
    const exporter = cached(this.logExporters, target, target.logs, (config) => new OTLPLogExporter(config), this.options.env);
    return exporter === null ? 'retry' : exportThrough(exporter, collected);
  }

  private async exportSpans(target: OtlpTarget, items: OtlpItem[]): Promise<Delivery> {
    const collected: ReadableSpan[] = [];
    // Each span gets its item's ids (spanContextOf): its log record points at it, and a
    // retried span is the same span.
    let next = { traceId: '', spanId: '' };
    const idGenerator = { generateTraceId: () => next.traceId, generateSpanId: () => next.spanId };
    const provider = new TracerProvider({ resource: this.resource, idGenerator, spanProcessors: [spanCollector((s) => collected.push(s))] });
    const tracer = provider.getTracer(SCOPE, PACKAGE_VERSION);
    for (const item of items) {
      const { record } = item;
      const timing = decisionSpan(record);
      next = spanContextOf(item);
      const span = tracer.startSpan(timing.name, { kind: SpanKind.INTERNAL, startTime: timing.startMs, attributes: decisionAttributes(record, item.project), root: true }, ROOT_CONTEXT);
      if (timing.error) span.setStatus({ code: SpanStatusCode.ERROR, message: timing.error });
      span.end(timing.endMs);
    }
    const exporter = cached(this.traceExporters, target, target.traces, (config) => new OTLPTraceExporter(config), this.options.env);
    return exporter === null ? 'retry' : exportThrough(exporter, collected);
  }
}

/** A processor that hands every emitted log record to `take` and exports nothing itself. */
function logCollector(take: (r: ReadableLogRecord) => void): LogRecordProcessor {
  return {
    onEmit: (r) => take(r),
    forceFlush: () => Promise.resolve(),
    shutdown: () => Promise.resolve(),
  };
}

function spanCollector(take: (s: ReadableSpan) => void): SpanProcessor {
  return {
    onStart: () => undefined,
    onEnd: take,
    forceFlush: () => Promise.resolve(),
    shutdown: () => Promise.resolve(),
  };
}

/** Statuses that say the payload itself is wrong: sending it again cannot help. */
const REFUSED_FOR_GOOD = new Set([400, 413, 415]);

/**
 * The exporter's own verdict on one export: sent only when the collector accepted it (2xx);
 * rejected when it refused the payload for good (400, 413, 415); retry for anything else
 * (no connection, a timeout, 5xx, 429, 401/403 until the credentials are fixed).
 */
function exportThrough<T>(exporter: { export(items: T[], done: (r: ExportResult) => void): void }, items: T[]): Promise<Delivery> {
  if (items.length === 0) return Promise.resolve('sent');
  return new Promise((resolve) => {
    try {
      exporter.export(items, (result) => {
        if (result.code === ExportResultCode.SUCCESS) return resolve('sent');
        const status = (result.error as { code?: unknown } | undefined)?.code;
        resolve(typeof status === 'number' && REFUSED_FOR_GOOD.has(status) ? 'rejected' : 'retry');
      });
    } catch {
      resolve('retry');
    }
  });
}

function cached<E>(cache: Map<string, E>, target: OtlpTarget, url: string | null, make: (config: { url: string; headers: Record<string, string>; timeoutMillis: number }) => E, env: Env): E | null {
  const key = JSON.stringify([url, target.headers, target.allowedEnvVars, target.timeoutMs]);
  let exporter = cache.get(key);
  if (!exporter) {
    // An allowed variable unset here: no export without the credentials; the records wait.
    const headers = expandHeaderEnv(target.headers, target.allowedEnvVars ?? [], (name) => env[name]).headers;
    if (headers === null) return null;
    exporter = make({ url: url ?? '', headers, timeoutMillis: target.timeoutMs });
    cache.set(key, exporter);
  }
  return exporter;
}

/**
 * A trace and span id for an item, from the random id the runner gave it (or, for an item
 * without one, its record): the same item always gets the same ids, so its log record and
 * its span, sent apart or retried, name one span.
 */
function spanContextOf(item: OtlpItem): { traceId: string; spanId: string; traceFlags: number } {
  const r = item.record;
  const id = typeof item.id === 'string' && /^[0-9a-f]{32}$/.test(item.id) ? item.id : null;
  const seed = id ?? JSON.stringify([r.time, r.session_id, r.event, r.tool, r.agent, r.outcome, r.rules, r.paths, r.prev ?? null, item.project, r.duration_ms ?? null]);
  const hash = createHash('sha256').update(seed).digest('hex');
  return { traceId: id ?? hash.slice(0, 32), spanId: hash.slice(32, 48), traceFlags: 1 };
}

function parseItem(text: string): OtlpItem | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (value === null || typeof value !== 'object') return null;
  const item = value as Partial<OtlpItem> & { target?: unknown };
  if (item.v !== 1 || !isDecisionRecord(item.record) || typeof item.project !== 'string') return null;
  // Whatever an item says about where it goes is not read.
  const { target: _ignored, ...rest } = item;
  return rest as OtlpItem;
}
