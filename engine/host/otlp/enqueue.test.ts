import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { exportDecision, otlpTarget, type OtlpItem } from './enqueue';
import { DESTINATION_VAR } from '../outbox';
import type { CompiledOtlp } from '../../types';

const otlp = (o: Partial<CompiledOtlp> = {}): CompiledOtlp => ({ endpoint: null, headers: {}, allowedEnvVars: [], timeoutMs: null, ...o });

describe('otlpTarget: is export on, and where to', () => {
  it.each([
    ['nothing said, no variable', undefined, {}, null],
    ['the variables alone', undefined, { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318/' }, { logs: 'http://c:4318/v1/logs', traces: 'http://c:4318/v1/traces' }],
    ['a signal\'s own URL, used as it is', undefined, { OTEL_EXPORTER_OTLP_LOGS_ENDPOINT: 'http://l:1/custom' }, { logs: 'http://l:1/custom', traces: null }],
    ['both, the signal\'s own first', undefined, { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://t:2/x' }, { logs: 'http://c:4318/v1/logs', traces: 'http://t:2/x' }],
    ['false, though the variable is set', false, { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318' }, null],
    ['OTEL_SDK_DISABLED', otlp({ endpoint: 'http://p:4318' }), { OTEL_SDK_DISABLED: 'true' }, null],
    ['a mapping without endpoint, no variable: the SDK default', otlp(), {}, { logs: 'http://localhost:4318/v1/logs', traces: 'http://localhost:4318/v1/traces' }],
    ['the policy\'s endpoint over the variables', otlp({ endpoint: 'http://p:4318' }), { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318' }, { logs: 'http://p:4318/v1/logs', traces: 'http://p:4318/v1/traces' }],
    ['OTEL_TRACES_EXPORTER=none', undefined, { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_TRACES_EXPORTER: 'none' }, { logs: 'http://c:4318/v1/logs', traces: null }],
    ['both signals none', undefined, { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_TRACES_EXPORTER: 'none', OTEL_LOGS_EXPORTER: 'none' }, null],
    ['an empty variable is no variable', undefined, { OTEL_EXPORTER_OTLP_ENDPOINT: ' ' }, null],
  ] as const)('%s', (_, setting, env, expected) => {
    const target = otlpTarget({ otlp: setting as CompiledOtlp | false | undefined }, env);
    if (expected === null) expect(target).toBeNull();
    else expect(target).toMatchObject(expected);
  });

  it('timeout: the policy\'s, else OTEL_EXPORTER_OTLP_TIMEOUT, else 10 s', () => {
    expect(otlpTarget({ otlp: otlp({ timeoutMs: 700 }) }, { OTEL_EXPORTER_OTLP_TIMEOUT: '5' })?.timeoutMs).toBe(700);
    expect(otlpTarget({}, { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c', OTEL_EXPORTER_OTLP_TIMEOUT: '500' })?.timeoutMs).toBe(500);
    expect(otlpTarget({ otlp: otlp() }, { OTEL_EXPORTER_OTLP_TIMEOUT: '500' })?.timeoutMs).toBe(500);
    expect(otlpTarget({ otlp: otlp() }, {})?.timeoutMs).toBe(10_000);
    expect(otlpTarget({}, { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c', OTEL_EXPORTER_OTLP_TIMEOUT: 'x' })?.timeoutMs).toBe(10_000);
  });
});

describe('exportDecision', () => {
  const record = { time: '2026-11-24T00:00:00.000Z', session_id: 's', event: 'Stop', tool: null, agent: null, outcome: 'none', rules: [], reason: null, paths: [] };

  it('queues one item (no secret in it, nor where it goes) and starts the exporter once, the target in its environment', () => {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'otlp-outbox-'));
    const spawned: string[][] = [];
    const envs: NodeJS.ProcessEnv[] = [];
    const spawn = ((_: string, args: string[], options: { env: NodeJS.ProcessEnv }) => {
      spawned.push(args);
      envs.push(options.env);
      return { on: () => undefined, unref: () => undefined };
    }) as unknown as typeof import('child_process').spawn;
    const target = otlpTarget({ otlp: otlp({ headers: { authorization: 'Bearer ${T}' }, allowedEnvVars: ['T'] }) }, {})!;
    expect(exportDecision(target, record, '/home/me/shop/', { T: 'sekret' }, { folder, spawn, exporter: '/x/otlp-exporter.cjs' })).toBeNull();
    const files = fs.readdirSync(folder).filter((n) => n.endsWith('.rec'));
    expect(files).toHaveLength(1);
    const text = fs.readFileSync(path.join(folder, files[0]), 'utf8');
    expect(text).not.toContain('sekret');
    expect(JSON.parse(text) as OtlpItem).toEqual({ v: 1, id: expect.stringMatching(/^[0-9a-f]{32}$/), project: 'shop', record });
    expect(spawned).toEqual([['/x/otlp-exporter.cjs', folder]]);
    expect(JSON.parse(envs[0][DESTINATION_VAR] as string)).toEqual(target);
    fs.rmSync(folder, { recursive: true, force: true });
  });

  it('warns when an allowed header variable is unset in the hook\'s environment (the record is still queued)', () => {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'otlp-outbox-'));
    const spawn = (() => ({ on: () => undefined, unref: () => undefined })) as unknown as typeof import('child_process').spawn;
    const target = otlpTarget({ otlp: otlp({ headers: { authorization: 'Bearer ${T}' }, allowedEnvVars: ['T'] }) }, {})!;
    expect(exportDecision(target, record, '/p', {}, { folder, spawn })).toMatchObject({ code: 'log-error', severity: 'warning', message: expect.stringContaining('$T') });
    expect(fs.readdirSync(folder).filter((n) => n.endsWith('.rec'))).toHaveLength(1);
    fs.rmSync(folder, { recursive: true, force: true });
  });

  it('no private folder: a log-error warning, nothing spawned', () => {
    expect(exportDecision(otlpTarget({ otlp: otlp() }, {})!, record, '/p', {}, { folder: null })).toMatchObject({ code: 'log-error' });
  });
});
