/**
 * An OTLP/HTTP receiver on 127.0.0.1 for the OpenTelemetry export tests (the Collector
 * itself cannot be installed here): it accepts OTLP/JSON on /v1/logs and /v1/traces as a
 * collector does, decodes the real payloads (resourceLogs > scopeLogs > logRecords,
 * resourceSpans > scopeSpans > spans, AnyValue {stringValue, intValue, ...}), and can be
 * told to answer an error status or be stopped and started again on its port.
 */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as zlib from 'node:zlib';

export type Decoded = string | number | boolean | null | Decoded[] | { [key: string]: Decoded };
export type DecodedAttributes = Record<string, Decoded>;

export interface ReceivedLog {
  resource: DecodedAttributes;
  scope: { name: string; version?: string };
  timeUnixNano: bigint;
  severityNumber: number;
  severityText: string;
  body: Decoded;
  eventName?: string;
  attributes: DecodedAttributes;
  traceId: string;
  spanId: string;
}

export interface ReceivedSpan {
  resource: DecodedAttributes;
  scope: { name: string; version?: string };
  name: string;
  kind: number;
  traceId: string;
  spanId: string;
  parentSpanId: string;
  startTimeUnixNano: bigint;
  endTimeUnixNano: bigint;
  attributes: DecodedAttributes;
  status: { code: number; message?: string };
}

export interface ReceivedRequest {
  path: string;
  status: number;
  headers: http.IncomingHttpHeaders;
}

export interface OtlpReceiver {
  /** The base URL (OTEL_EXPORTER_OTLP_ENDPOINT). */
  endpoint: string;
  port: number;
  /** Log records and spans of accepted requests only (a request answered 503 was not taken). */
  logs: ReceivedLog[];
  spans: ReceivedSpan[];
  requests: ReceivedRequest[];
  /** What to answer from now on (200 takes the payload). */
  answer(status: number): void;
  /** Resolves when `logs` and `spans` counts are reached, or after `ms` with what arrived. */
  waitFor(counts: { logs?: number; spans?: number }, ms: number): Promise<void>;
  /** Stops listening (a collector that is down); start() listens again on the same port. */
  stop(): Promise<void>;
  start(): Promise<void>;
}

/**
 * Starts a receiver; stop it in afterEach.
 * @example const r = await startOtlpReceiver(); ... env.OTEL_EXPORTER_OTLP_ENDPOINT = r.endpoint
 */
export async function startOtlpReceiver(options: { port?: number; listening?: boolean } = {}): Promise<OtlpReceiver> {
  let status = 200;
  let server: http.Server | null = null;
  const waiters = new Set<() => void>();
  const receiver: OtlpReceiver = {
    endpoint: '',
    port: options.port ?? 0,
    logs: [],
    spans: [],
    requests: [],
    answer(s) {
      status = s;
    },
    waitFor(counts, ms) {
      return new Promise((resolve) => {
        const done = () => receiver.logs.length >= (counts.logs ?? 0) && receiver.spans.length >= (counts.spans ?? 0);
        const check = () => {
          if (!done()) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          resolve();
        }, ms);
        waiters.add(check);
        check();
      });
    },
    async stop() {
      if (!server) return;
      const s = server;
      server = null;
      s.closeAllConnections();
      await new Promise((resolve) => s.close(resolve));
    },
    async start() {
      if (server) return;
      const s = http.createServer((req, res) => handle(req, res));
      await new Promise<void>((resolve, reject) => {
        s.once('error', reject);
        s.listen(receiver.port, '127.0.0.1', () => resolve());
      });
      server = s;
      receiver.port = (s.address() as AddressInfo).port;
      receiver.endpoint = `http://127.0.0.1:${receiver.port}`;
    },
  };

  function handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = (req.url ?? '').split('?')[0];
      const known = path === '/v1/logs' || path === '/v1/traces';
      const json = (req.headers['content-type'] ?? '').startsWith('application/json');
      let answer = !known ? 404 : req.method !== 'POST' ? 405 : !json ? 415 : status;
      if (answer === 200) {
        try {
          const raw = req.headers['content-encoding'] === 'gzip' ? zlib.gunzipSync(Buffer.concat(chunks)) : Buffer.concat(chunks);
          const payload = JSON.parse(raw.toString('utf8')) as Record<string, unknown>;
          if (path === '/v1/logs') receiver.logs.push(...decodeLogs(payload));
          else receiver.spans.push(...decodeSpans(payload));
        } catch {
          answer = 400;
        }
      }
      receiver.requests.push({ path, status: answer, headers: req.headers });
      res.statusCode = answer;
      res.setHeader('content-type', 'application/json');
      res.end(answer === 200 ? '{}' : JSON.stringify({ code: answer, message: 'receiver answers an error' }));
      for (const w of [...waiters]) w();
    });
  }

  if (options.listening !== false) await receiver.start();
  return receiver;
}

/** A free port on 127.0.0.1 nothing listens on (yet): a collector that is down. */
export { freePort } from './free-port';

type Json = Record<string, unknown>;

function decodeLogs(payload: Json): ReceivedLog[] {
  return list(payload.resourceLogs).flatMap((rl) => {
    const resource = decodeAttributes((rl.resource as Json | undefined)?.attributes);
    return list(rl.scopeLogs).flatMap((sl) => {
      const scope = decodeScope(sl.scope);
      return list(sl.logRecords).map((r): ReceivedLog => ({
        resource,
        scope,
        timeUnixNano: BigInt(String(r.timeUnixNano ?? 0)),
        severityNumber: Number(r.severityNumber ?? 0),
        severityText: String(r.severityText ?? ''),
        body: decodeValue(r.body),
        ...(typeof r.eventName === 'string' ? { eventName: r.eventName } : {}),
        attributes: decodeAttributes(r.attributes),
        traceId: String(r.traceId ?? ''),
        spanId: String(r.spanId ?? ''),
      }));
    });
  });
}

function decodeSpans(payload: Json): ReceivedSpan[] {
  return list(payload.resourceSpans).flatMap((rs) => {
    const resource = decodeAttributes((rs.resource as Json | undefined)?.attributes);
    return list(rs.scopeSpans).flatMap((ss) => {
      const scope = decodeScope(ss.scope);
      return list(ss.spans).map((s): ReceivedSpan => ({
        resource,
        scope,
        name: String(s.name),
        kind: Number(s.kind ?? 0),
        traceId: String(s.traceId ?? ''),
        spanId: String(s.spanId ?? ''),
        parentSpanId: String(s.parentSpanId ?? ''),
        startTimeUnixNano: BigInt(String(s.startTimeUnixNano ?? 0)),
        endTimeUnixNano: BigInt(String(s.endTimeUnixNano ?? 0)),
        attributes: decodeAttributes(s.attributes),
        status: { code: Number((s.status as Json | undefined)?.code ?? 0), ...(typeof (s.status as Json | undefined)?.message === 'string' ? { message: (s.status as Json).message as string } : {}) },
      }));
    });
  });
}

function decodeScope(scope: unknown): { name: string; version?: string } {
  const s = (scope ?? {}) as Json;
  return { name: String(s.name ?? ''), ...(typeof s.version === 'string' ? { version: s.version } : {}) };
}

/** OTLP's KeyValue list as a plain object. */
function decodeAttributes(attributes: unknown): DecodedAttributes {
  return Object.fromEntries(list(attributes).map((kv) => [String(kv.key), decodeValue(kv.value)]));
}

/** OTLP/JSON's AnyValue: exactly one of stringValue, boolValue, intValue (a string: int64), doubleValue, arrayValue, kvlistValue, bytesValue. */
export function decodeValue(value: unknown): Decoded {
  if (value === null || typeof value !== 'object') return null;
  const v = value as Json;
  if ('stringValue' in v) return String(v.stringValue);
  if ('boolValue' in v) return Boolean(v.boolValue);
  if ('intValue' in v) return Number(v.intValue);
  if ('doubleValue' in v) return Number(v.doubleValue);
  if ('arrayValue' in v) return list((v.arrayValue as Json | undefined)?.values).map(decodeValue);
  if ('kvlistValue' in v) return decodeAttributes((v.kvlistValue as Json | undefined)?.values);
  if ('bytesValue' in v) return String(v.bytesValue);
  return null;
}

function list(value: unknown): Json[] {
  return Array.isArray(value) ? (value as Json[]) : [];
}
