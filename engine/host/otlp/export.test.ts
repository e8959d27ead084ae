/**
 * The exporter against a real OTLP/HTTP receiver on 127.0.0.1 (test/support/otlp-receiver.ts):
 * what the SDK puts on the wire for one decision, and what counts as delivered.
 */
import * as os from 'os';
import { freePort, startOtlpReceiver, type OtlpReceiver } from '../../../test/support/otlp-receiver';
import { deliverInChild } from '../../../test/support/otlp-deliver';
import type { OtlpItem, OtlpTarget } from './enqueue';
import type { OtlpDecisionRecord } from '../../otlp/record-attributes';

let receiver: OtlpReceiver | undefined;
afterEach(async () => {
  await receiver?.stop();
  receiver = undefined;
});

const record: OtlpDecisionRecord = {
  time: '2026-11-24T00:10:00.250Z',
  prev: 'ab'.repeat(32),
  session_id: 's-1',
  event: 'PreToolUse',
  tool: 'Write',
  agent: 'lynch',
  outcome: 'deny',
  rules: ['no-env'],
  reason: '.env holds secrets.',
  paths: ['.env'],
  policy: ['.claude/policies.yaml'],
  duration_ms: 12.5,
};

function target(endpoint: string, extra: Partial<OtlpTarget> = {}): OtlpTarget {
  return { logs: `${endpoint}/v1/logs`, traces: `${endpoint}/v1/traces`, headers: {}, allowedEnvVars: [], timeoutMs: 2000, ...extra };
}

const item = (_t: OtlpTarget, r: OtlpDecisionRecord = record, rest: Partial<OtlpItem> = {}): string => JSON.stringify({ v: 1, project: 'shop', record: r, ...rest });

describe('OtlpExporter', () => {
  it('exports a decision as one log record and one span, linked, with the resource attributes', async () => {
    receiver = await startOtlpReceiver();
    const t = target(receiver.endpoint);
    const result = await deliverInChild(t, [item(t)], { OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment.name=ci' });
    expect(result).toEqual({ deliveries: ['sent'], requeued: [] });
    expect(receiver.logs).toHaveLength(1);
    expect(receiver.spans).toHaveLength(1);
    const [log] = receiver.logs;
    const [span] = receiver.spans;
    expect(log.resource).toMatchObject({
      'service.name': 'hookpolicy', 'host.name': os.hostname(), 'user.name': os.userInfo().username,
      'user.id': String(os.userInfo().uid), 'deployment.environment.name': 'ci', 'telemetry.sdk.language': 'nodejs',
    });
    expect(typeof log.resource['service.version']).toBe('string');
    expect(log).toMatchObject({
      severityNumber: 13, severityText: 'WARN', body: 'deny PreToolUse Write: .env holds secrets.', eventName: 'hookpolicy.decision',
      scope: { name: 'hookpolicy' },
    });
    expect(log.attributes).toEqual({
      'hookpolicy.project': 'shop', 'session.id': 's-1', 'hookpolicy.event': 'PreToolUse', 'hookpolicy.tool': 'Write',
      'hookpolicy.agent': 'lynch', 'hookpolicy.outcome': 'deny', 'hookpolicy.rule': 'no-env', 'hookpolicy.rules': ['no-env'],
      'hookpolicy.paths': ['.env'], 'hookpolicy.reason': '.env holds secrets.', 'hookpolicy.policy': ['.claude/policies.yaml'],
      'hookpolicy.duration_ms': 12.5, 'hookpolicy.prev': 'ab'.repeat(32),
    });
    expect(log.timeUnixNano).toBe(BigInt(Date.parse(record.time)) * 1_000_000n);
    expect(span).toMatchObject({ name: 'PreToolUse Write', kind: 1, parentSpanId: '', status: { code: 0 } });
    expect(span.attributes).toEqual(log.attributes);
    expect(span.endTimeUnixNano).toBe(BigInt(Date.parse(record.time)) * 1_000_000n);
    expect(Number(span.endTimeUnixNano - span.startTimeUnixNano) / 1e6).toBeCloseTo(12.5, 3);
    expect(span.resource).toEqual(log.resource);
    // The log record names the span of its hook execution.
    expect(log.traceId).toMatch(/^[0-9a-f]{32}$/);
    expect([log.traceId, log.spanId]).toEqual([span.traceId, span.spanId]);
  });

  it('reports retry while the collector answers 503 or is down, and sent once it takes the batch', async () => {
    receiver = await startOtlpReceiver();
    receiver.answer(503);
    const t = target(receiver.endpoint, { timeoutMs: 300 });
    expect((await deliverInChild(t, [item(t), item(t, { ...record, session_id: 's-2' })])).deliveries).toEqual(['retry', 'retry']);
    await receiver.stop();
    expect((await deliverInChild(t, [item(t)])).deliveries).toEqual(['retry']);
    await receiver.start();
    receiver.answer(200);
    expect((await deliverInChild(t, [item(t)])).deliveries).toEqual(['sent']);
    expect([receiver.logs.length, receiver.spans.length]).toEqual([1, 1]);
  });

  it('sets aside a batch the collector refuses for good (400); a 500 or 401 is tried again', async () => {
    receiver = await startOtlpReceiver();
    const t = target(receiver.endpoint, { timeoutMs: 300 });
    for (const [status, expected] of [[400, 'rejected'], [413, 'rejected'], [500, 'retry'], [401, 'retry'], [429, 'retry']] as const) {
      receiver.answer(status);
      expect([status, (await deliverInChild(t, [item(t)])).deliveries]).toEqual([status, [expected]]);
    }
  });

  it('queues the half not taken again: logs accepted, traces refused', async () => {
    receiver = await startOtlpReceiver();
    const down = `http://127.0.0.1:${await freePort()}`;
    const t = target(receiver.endpoint, { traces: `${down}/v1/traces`, timeoutMs: 300 });
    const { deliveries, requeued } = await deliverInChild(t, [item(t)]);
    expect(deliveries).toEqual(['sent']);
    expect(receiver.logs).toHaveLength(1);
    expect(requeued.map((r) => JSON.parse(r) as OtlpItem).map((r) => r.signals)).toEqual([['traces']]);
    // The rest alone sends no second log record.
    expect((await deliverInChild(t, requeued)).deliveries).toEqual(['retry']);
    expect(receiver.logs).toHaveLength(1);
  });

  it('one span per decision: identical records get their own ids; the same item sent again keeps its ids', async () => {
    receiver = await startOtlpReceiver();
    const t = target(receiver.endpoint);
    const a = item(t, record, { id: 'a'.repeat(32) });
    const b = item(t, record, { id: 'b'.repeat(32) });
    expect((await deliverInChild(t, [a, b])).deliveries).toEqual(['sent', 'sent']);
    expect((await deliverInChild(t, [a])).deliveries).toEqual(['sent']);
    expect(receiver.spans.map((s) => s.traceId)).toEqual(['a'.repeat(32), 'b'.repeat(32), 'a'.repeat(32)]);
    expect(new Set(receiver.spans.map((s) => s.spanId)).size).toBe(2);
    expect(receiver.logs.map((l) => l.spanId)).toEqual(receiver.spans.map((s) => s.spanId));
  });

  it('sets aside what is not an item: it would never be sent', async () => {
    expect((await deliverInChild(target('http://x'), ['{', '{"v":1}', JSON.stringify({ v: 1, project: 'p', record: { time: 'no' } })])).deliveries).toEqual(['rejected', 'rejected', 'rejected']);
  });

  it('sends to its own target only: an item naming another endpoint, headers and variables goes where the exporter was told', async () => {
    receiver = await startOtlpReceiver();
    const elsewhere = await startOtlpReceiver();
    try {
      const planted = JSON.stringify({ v: 1, project: 'p', record, target: { ...target(elsewhere.endpoint), headers: { authorization: 'Bearer ${OTLP_TOKEN}' }, allowedEnvVars: ['OTLP_TOKEN'] } });
      expect((await deliverInChild(target(receiver.endpoint), [planted], { OTLP_TOKEN: 'sekret' })).deliveries).toEqual(['sent']);
      expect([elsewhere.requests, receiver.logs.length]).toEqual([[], 1]);
      expect(receiver.requests.map((r) => r.headers.authorization)).toEqual([undefined, undefined]);
    } finally {
      await elsewhere.stop();
    }
  });

  it('ERROR severity and an error status for a decision with errors; INFO for an allow', async () => {
    receiver = await startOtlpReceiver();
    const t = target(receiver.endpoint);
    const failed = { ...record, outcome: 'none', rules: [], reason: null, errors: ['fact-error: cannot read'], fail_open: true };
    const allowed = { ...record, outcome: 'allow', session_id: 's-3' };
    expect((await deliverInChild(t, [item(t, failed), item(t, allowed)])).deliveries).toEqual(['sent', 'sent']);
    const bySession = (s: string) => receiver!.logs.find((l) => l.attributes['session.id'] === s)!;
    expect(bySession('s-1')).toMatchObject({ severityNumber: 17, severityText: 'ERROR', body: 'none PreToolUse Write: fact-error: cannot read' });
    expect(bySession('s-1').attributes['hookpolicy.fail_open']).toBe(true);
    expect(bySession('s-3')).toMatchObject({ severityNumber: 9, severityText: 'INFO' });
    expect(receiver.spans.find((s) => s.attributes['session.id'] === 's-1')!.status).toEqual({ code: 2, message: 'fact-error: cannot read' });
  });

  it('sends the headers, their allowed $NAME references filled in from the exporter\'s environment, others as written', async () => {
    receiver = await startOtlpReceiver();
    const headers = { authorization: 'Bearer ${OTLP_TOKEN}', 'x-home': '$HOME' };
    const t = target(receiver.endpoint, { headers, allowedEnvVars: ['OTLP_TOKEN'] });
    expect((await deliverInChild(t, [item(t)], { OTLP_TOKEN: 'sekret', HOME: '/home/x' })).deliveries).toEqual(['sent']);
    expect(receiver.requests.map((r) => [r.headers.authorization, r.headers['x-home']])).toEqual([['Bearer sekret', '$HOME'], ['Bearer sekret', '$HOME']]);
  });

  it('keeps the records while an allowed variable is unset: no export without its credentials', async () => {
    receiver = await startOtlpReceiver();
    const t = target(receiver.endpoint, { headers: { authorization: 'Bearer ${OTLP_TOKEN}' }, allowedEnvVars: ['OTLP_TOKEN'] });
    expect((await deliverInChild(t, [item(t)], {})).deliveries).toEqual(['retry']);
    expect(receiver.requests).toEqual([]);
  });
});
