/**
 * OpenTelemetry export end to end: the built runner (bin/policy.cjs hook) as a child process
 * with the event on stdin, an OTLP/HTTP receiver on 127.0.0.1 that decodes the real
 * payloads, and the detached exporter (dist/otlp-exporter.cjs) between them. The runner
 * never waits for the collector; records wait in the outbox while it is down or failing
 * and arrive exactly once.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { execFileSync } from 'node:child_process';
import { freePort, startOtlpReceiver, type OtlpReceiver } from '../support/otlp-receiver';
import { makeSandbox, outboxFolders, spawnHook, type Sandbox, type SpawnResult } from '../support/hook-process';
import { REPO_ROOT } from '../support/run-hook';
import { runCli } from '../support/run-cli';

const DENY = '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":".env holds secrets."}}\n';

/** The policy of docs/operations.md's OpenTelemetry example, with the receiver's endpoint. */
function docPolicy(endpoint: string): string {
  const doc = fs.readFileSync(path.join(REPO_ROOT, 'docs', 'operations.md'), 'utf8');
  const section = doc.slice(doc.indexOf('## OpenTelemetry'));
  const yaml = /```yaml\n([\s\S]*?)```/.exec(section);
  if (!yaml) throw new Error('docs/operations.md: no yaml example under ## OpenTelemetry');
  return yaml[1].replace('http://collector.example.com:4318', endpoint);
}

const ENV_POLICY = [
  'version: 1',
  'settings:',
  '  log:',
  '    file: logs/decisions.jsonl',
  'rules:',
  '  - id: no-env',
  '    on: PreToolUse',
  '    tools: Write',
  '    paths: { deny: [".env"] }',
  '    deny: "{{path}} holds secrets."',
  '',
].join('\n');

let box: Sandbox | undefined;
let receiver: OtlpReceiver | undefined;

beforeAll(() => {
  // The exporter bundle is new: build when it (or the runner) is missing.
  if (!['hook.cjs', 'otlp-exporter.cjs', 'compile.cjs'].every((b) => fs.existsSync(path.join(REPO_ROOT, 'dist', b)))) {
    execFileSync(process.execPath, [path.join(REPO_ROOT, 'scripts', 'build.mjs')], { stdio: 'inherit', env: { ...process.env, HOOKPOLICY_SKIP_TYPECHECK: '1' } });
  }
}, 120_000);

afterEach(async () => {
  if (box) stopDrainer(box);
  await receiver?.stop();
  box?.remove();
  box = undefined;
  receiver = undefined;
});

const outboxRoot = (b: Sandbox) => path.join(b.cacheDir, 'otlp-outbox');
/** The outbox of the sandbox's one target: its folder under otlp-outbox/, once a runner made it. */
const outbox = (b: Sandbox) => outboxFolders(b.cacheDir).find((f) => path.dirname(f) === outboxRoot(b)) ?? path.join(outboxRoot(b), 'none-yet');
const waiting = (b: Sandbox) => (fs.existsSync(outbox(b)) ? fs.readdirSync(outbox(b)).filter((n) => /\.rec(\.\d+\.sending)?$/.test(n)) : []);

/** The drainer's pid, from the outbox's lock, or null. */
function drainerPid(b: Sandbox): number | null {
  try {
    const pid = Number(fs.readFileSync(path.join(outbox(b), 'sender.lock'), 'utf8'));
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

/** Ends the drainer this test's runners started (by its pid, from the lock). */
function stopDrainer(b: Sandbox): void {
  const pid = drainerPid(b);
  if (pid === null) return;
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}

function writeEvent(b: Sandbox, session: string): string {
  return JSON.stringify({ hook_event_name: 'PreToolUse', session_id: session, cwd: b.dir, tool_name: 'Write', tool_input: { file_path: `${b.dir}/.env`, content: 'x' } });
}

async function run(b: Sandbox, session: string, env: Record<string, string>): Promise<SpawnResult & { ms: number }> {
  const started = Date.now();
  const r = await spawnHook(writeEvent(b, session), { projectDir: b.dir, cacheDir: b.cacheDir, env });
  return { ...r, ms: r.endedAt - started };
}

const logLines = (b: Sandbox) => fs.readFileSync(b.file('logs/decisions.jsonl'), 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

describe('decisions exported to an OTLP receiver', () => {
  it('OTEL_EXPORTER_OTLP_ENDPOINT: a log record and a span per decision, with their attributes', async () => {
    receiver = await startOtlpReceiver();
    box = makeSandbox({ '.claude/policies.yaml': ENV_POLICY });
    const env = { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint, OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment.name=test' };
    const r = await run(box, 's-otel', env);
    expect(r).toMatchObject({ stdout: DENY, stderr: '', exitCode: 0 });
    await receiver.waitFor({ logs: 1, spans: 1 }, 15_000);
    const [line] = logLines(box);
    expect(receiver.logs).toHaveLength(1);
    expect(receiver.spans).toHaveLength(1);
    const [log] = receiver.logs;
    const [span] = receiver.spans;
    expect(log.resource).toMatchObject({
      'service.name': 'hookpolicy', 'host.name': os.hostname(), 'user.name': os.userInfo().username,
      'user.id': String(os.userInfo().uid), 'deployment.environment.name': 'test',
    });
    expect(log.resource['service.version']).toBe((JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string }).version);
    expect(log).toMatchObject({ severityNumber: 13, severityText: 'WARN', body: 'deny PreToolUse Write: .env holds secrets.', eventName: 'hookpolicy.decision' });
    expect(log.attributes).toMatchObject({
      'hookpolicy.project': path.basename(box.dir),
      'session.id': 's-otel',
      'hookpolicy.event': 'PreToolUse',
      'hookpolicy.tool': 'Write',
      'hookpolicy.outcome': 'deny',
      'hookpolicy.rule': 'no-env',
      'hookpolicy.rules': ['no-env'],
      'hookpolicy.paths': ['.env'],
      'hookpolicy.reason': '.env holds secrets.',
      'hookpolicy.policy': line.policy,
      'hookpolicy.duration_ms': line.duration_ms,
    });
    // The remote copy anchors the log's hash chain: the line's `prev`, when the log carries one.
    expect(line.prev).toMatch(/^[0-9a-f]{64}$/);
    expect(log.attributes['hookpolicy.prev']).toBe(line.prev);
    expect(log.timeUnixNano).toBe(BigInt(Date.parse(line.time as string)) * 1_000_000n);
    // The span is the hook execution: it ends at the record's time and lasts duration_ms.
    expect(span).toMatchObject({ name: 'PreToolUse Write', kind: 1, status: { code: 0 } });
    expect(span.attributes).toEqual(log.attributes);
    expect(span.resource).toEqual(log.resource);
    expect(span.endTimeUnixNano).toBe(log.timeUnixNano);
    expect(Number(span.endTimeUnixNano - span.startTimeUnixNano) / 1e6).toBeCloseTo(line.duration_ms as number, 3);
    expect(typeof line.duration_ms === 'number' && line.duration_ms > 0).toBe(true);
    expect([log.traceId, log.spanId]).toEqual([span.traceId, span.spanId]);
  });

  it('the policy of docs/operations.md: log.otlp alone (no file log, no variable) exports, with its headers from the environment', async () => {
    receiver = await startOtlpReceiver();
    box = makeSandbox({ '.claude/policies.yaml': docPolicy(receiver.endpoint) });
    const r = await run(box, 's-doc', { OTLP_TOKEN: 'tok-123' });
    expect(r).toMatchObject({ stdout: DENY, stderr: '', exitCode: 0 });
    await receiver.waitFor({ logs: 1, spans: 1 }, 15_000);
    expect(receiver.logs.map((l) => l.attributes['session.id'])).toEqual(['s-doc']);
    expect(receiver.spans.map((s) => s.attributes['hookpolicy.rule'])).toEqual(['no-env']);
    expect(receiver.requests.map((q) => [q.path, q.headers.authorization]).sort()).toEqual([['/v1/logs', 'Bearer tok-123'], ['/v1/traces', 'Bearer tok-123']]);
    expect(fs.existsSync(box.file('logs'))).toBe(false);
  });

  it('the SDK reads the other standard variables in the exporter: OTEL_EXPORTER_OTLP_HEADERS, OTEL_SERVICE_NAME', async () => {
    receiver = await startOtlpReceiver();
    box = makeSandbox({ '.claude/policies.yaml': ENV_POLICY });
    const env = { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint, OTEL_EXPORTER_OTLP_HEADERS: 'x-team=payments,authorization=Basic%20dGVhbQ==', OTEL_SERVICE_NAME: 'guard-ci' };
    expect(await run(box, 's-std', env)).toMatchObject({ stdout: DENY, exitCode: 0 });
    await receiver.waitFor({ logs: 1, spans: 1 }, 15_000);
    expect(receiver.requests.map((q) => [q.path, q.headers['x-team'], q.headers.authorization]).sort())
      .toEqual([['/v1/logs', 'payments', 'Basic dGVhbQ=='], ['/v1/traces', 'payments', 'Basic dGVhbQ==']]);
    expect(receiver.logs[0].resource['service.name']).toBe('guard-ci');
    expect(receiver.spans[0].resource['service.name']).toBe('guard-ci');
  });

  it('the variable alone exports the decisions log.record asks for, in a policy that logs nowhere', async () => {
    receiver = await startOtlpReceiver();
    box = makeSandbox({ '.claude/policies.yaml': ENV_POLICY.replace('settings:\n  log:\n    file: logs/decisions.jsonl\n', '') });
    expect(await run(box, 's-bare', { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint })).toMatchObject({ stdout: DENY, stderr: '', exitCode: 0 });
    await receiver.waitFor({ logs: 1, spans: 1 }, 15_000);
    expect(receiver.logs.map((l) => [l.attributes['session.id'], l.attributes['hookpolicy.rule']])).toEqual([['s-bare', 'no-env']]);
    expect(fs.existsSync(box.file('logs'))).toBe(false);
  });

  it('log.otlp: false keeps export off though OTEL_EXPORTER_OTLP_ENDPOINT is set; so does OTEL_SDK_DISABLED', async () => {
    receiver = await startOtlpReceiver();
    box = makeSandbox({ '.claude/policies.yaml': ENV_POLICY.replace('    file: logs/decisions.jsonl', '    file: logs/decisions.jsonl\n    otlp: false') });
    expect(await run(box, 's-off', { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint })).toMatchObject({ stdout: DENY, exitCode: 0 });
    box.write('.claude/policies.yaml', ENV_POLICY);
    expect(await run(box, 's-disabled', { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint, OTEL_SDK_DISABLED: 'true' })).toMatchObject({ stdout: DENY, exitCode: 0 });
    await sleep(1500);
    expect(logLines(box)).toHaveLength(2);
    expect(waiting(box)).toEqual([]);
    expect(receiver.requests).toEqual([]);
  });

  it('a fail-open (the policy broken after it was built) is exported as ERROR with hookpolicy.fail_open', async () => {
    receiver = await startOtlpReceiver();
    box = makeSandbox({ '.claude/policies.yaml': ENV_POLICY });
    const env = { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint };
    expect(await run(box, 's-built', env)).toMatchObject({ stdout: DENY, exitCode: 0 });
    box.write('.claude/policies.yaml', `${ENV_POLICY}  - id: [broken\n`);
    const r = await run(box, 's-broken', env);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).not.toContain('"deny"');
    await receiver.waitFor({ logs: 2, spans: 2 }, 15_000);
    const failed = receiver.logs.find((l) => l.attributes['session.id'] === 's-broken');
    expect(failed).toMatchObject({ severityNumber: 17, severityText: 'ERROR' });
    expect(failed!.attributes).toMatchObject({ 'hookpolicy.fail_open': true, 'hookpolicy.outcome': 'none' });
    expect((failed!.attributes['hookpolicy.errors'] as string[]).length).toBeGreaterThan(0);
    expect(receiver.spans.find((s) => s.attributes['session.id'] === 's-broken')!.status.code).toBe(2);
  });
});

describe('policy explain tells whether a decision would be exported, and where', () => {
  it('on through the variable, through log.otlp, off with log.otlp: false', () => {
    box = makeSandbox({ '.claude/policies.yaml': ENV_POLICY });
    const event = box.write('event.json', writeEvent(box, 's'));
    const explain = (env: Record<string, string>, json = false) => runCli(['explain', event, ...(json ? ['--json'] : [])], { cwd: box!.dir, env: { CLAUDE_PROJECT_DIR: box!.dir, ...env } });
    const byEnv = explain({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c.example:4318' });
    expect(byEnv.code).toBe(0);
    expect(byEnv.stdout).toContain('  exported to OpenTelemetry (environment): logs http://c.example:4318/v1/logs, traces http://c.example:4318/v1/traces\n');
    expect(JSON.parse(explain({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c.example:4318', OTEL_TRACES_EXPORTER: 'none' }, true).stdout).otlp)
      .toEqual({ logs: 'http://c.example:4318/v1/logs', traces: null, from: 'environment' });
    expect(explain({}).stdout).not.toContain('OpenTelemetry');
    box.write('.claude/policies.yaml', ENV_POLICY.replace('    file: logs/decisions.jsonl', '    otlp: { endpoint: "http://p.example:4318" }'));
    expect(explain({}).stdout).toContain('  exported to OpenTelemetry (log.otlp): logs http://p.example:4318/v1/logs, traces http://p.example:4318/v1/traces\n');
    box.write('.claude/policies.yaml', ENV_POLICY.replace('    file: logs/decisions.jsonl', '    otlp: false'));
    expect(explain({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c.example:4318' }).stdout).not.toContain('OpenTelemetry');
  });
});

describe('the collector down or failing: the runner does not wait, nothing is lost, nothing arrives twice', () => {
  const RUNS = 4;
  // A short export timeout and backoff, so the test sees the retries within seconds.
  const fastRetry = (endpoint: string) => ({ OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_EXPORTER_OTLP_TIMEOUT: '500', HOOKPOLICY_OTLP_BACKOFF_MS: '200,400' });

  async function runAll(b: Sandbox, env: Record<string, string>): Promise<Array<SpawnResult & { ms: number }>> {
    const results: Array<SpawnResult & { ms: number }> = [];
    for (let i = 0; i < RUNS; i++) results.push(await run(b, `s-${i}`, env));
    return results;
  }

  function expectExactlyOnce(r: OtlpReceiver): void {
    const sessions = Array.from({ length: RUNS }, (_, i) => `s-${i}`);
    expect(r.logs.map((l) => l.attributes['session.id']).sort()).toEqual(sessions);
    expect(r.spans.map((s) => s.attributes['session.id']).sort()).toEqual(sessions);
  }

  it('down: every answer as usual and at once; the records wait and arrive once the collector listens', async () => {
    const port = await freePort();
    receiver = await startOtlpReceiver({ port, listening: false });
    box = makeSandbox({ '.claude/policies.yaml': ENV_POLICY });
    const env = fastRetry(`http://127.0.0.1:${port}`);
    // The same events with export off: the time the runner takes without it.
    const baseline = await run(box, 'baseline', {});
    const results = await runAll(box, env);
    for (const r of results) {
      expect(r).toMatchObject({ stdout: DENY, stderr: '', exitCode: 0 });
      // Not waiting for a connection, let alone the export timeout and its retries.
      expect(r.ms).toBeLessThan(baseline.ms + 1500);
    }
    expect(logLines(box)).toHaveLength(RUNS + 1);
    await sleep(800);
    expect(waiting(box).length).toBeGreaterThan(0);
    await receiver.start();
    await receiver.waitFor({ logs: RUNS, spans: RUNS }, 20_000);
    await sleep(1500); // Long enough for a duplicate to show.
    expectExactlyOnce(receiver);
    expect(waiting(box)).toEqual([]);
  }, 60_000);

  it('503 then 200: refused batches stay spooled and are sent once the collector takes them', async () => {
    receiver = await startOtlpReceiver();
    receiver.answer(503);
    box = makeSandbox({ '.claude/policies.yaml': ENV_POLICY });
    const results = await runAll(box, fastRetry(receiver.endpoint));
    for (const r of results) expect(r).toMatchObject({ stdout: DENY, stderr: '', exitCode: 0 });
    const deadline = Date.now() + 10_000;
    while (receiver.requests.filter((q) => q.status === 503).length < 4 && Date.now() < deadline) await sleep(100);
    expect(receiver.requests.filter((q) => q.status === 503).length).toBeGreaterThanOrEqual(4);
    expect(receiver.logs).toEqual([]);
    expect(waiting(box).length).toBeGreaterThan(0);
    receiver.answer(200);
    await receiver.waitFor({ logs: RUNS, spans: RUNS }, 20_000);
    await sleep(1500);
    expectExactlyOnce(receiver);
    expect(waiting(box)).toEqual([]);
  }, 60_000);

  it('a burst of 20 runners at once while the collector answers 503: every decision arrives once when it recovers', async () => {
    receiver = await startOtlpReceiver();
    receiver.answer(503);
    box = makeSandbox({ '.claude/policies.yaml': ENV_POLICY });
    const env = fastRetry(receiver.endpoint);
    const b = box;
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => run(b, `burst-${i}`, env)));
    for (const r of results) expect(r).toMatchObject({ stdout: DENY, stderr: '', exitCode: 0 });
    await sleep(1000);
    receiver.answer(200);
    await receiver.waitFor({ logs: 20, spans: 20 }, 20_000);
    await sleep(1500);
    const sessions = Array.from({ length: 20 }, (_, i) => `burst-${i}`).sort();
    expect(receiver.logs.map((l) => l.attributes['session.id']).sort()).toEqual(sessions);
    expect(receiver.spans.map((l) => l.attributes['session.id']).sort()).toEqual(sessions);
    expect(waiting(box)).toEqual([]);
  }, 60_000);

  it('the drainer killed (as the agent could): its records stay spooled and a later event starts a new one', async () => {
    const port = await freePort();
    receiver = await startOtlpReceiver({ port, listening: false });
    box = makeSandbox({ '.claude/policies.yaml': ENV_POLICY });
    const env = fastRetry(`http://127.0.0.1:${port}`);
    expect(await run(box, 's-0', env)).toMatchObject({ stdout: DENY, exitCode: 0 });
    let pid: number | null = null;
    for (let i = 0; i < 50 && pid === null; i++, await sleep(100)) pid = drainerPid(box);
    expect(pid).not.toBeNull();
    process.kill(pid!, 'SIGKILL');
    await sleep(300);
    expect(waiting(box).length).toBe(1);
    await receiver.start();
    // The dead drainer's lock names a pid that is gone: the next event starts a new one at once.
    let i = 1;
    expect(await run(box, `s-${i++}`, env)).toMatchObject({ stdout: DENY, exitCode: 0 });
    await receiver.waitFor({ logs: 2, spans: 2 }, 10_000);
    expect(receiver.logs.map((l) => l.attributes['session.id']).sort()).toEqual(['s-0', 's-1']);
    while (i < RUNS) expect(await run(box, `s-${i++}`, env)).toMatchObject({ stdout: DENY, exitCode: 0 });
    await receiver.waitFor({ logs: i, spans: i }, 20_000);
    await sleep(1500);
    const sessions = receiver.logs.map((l) => l.attributes['session.id'] as string);
    expect(sessions).toContain('s-0');
    expect(new Set(sessions).size).toBe(sessions.length);
    expect(receiver.spans.length).toBe(sessions.length);
    expect(waiting(box)).toEqual([]);
  }, 90_000);
});

describe('the confined agent against the export', () => {
  it('cannot switch it off nor forge or drop spooled records: each try is refused, and the refusal itself is exported', async () => {
    receiver = await startOtlpReceiver();
    box = makeSandbox({ '.claude/policies.yaml': ENV_POLICY });
    const env = { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint };
    const box_ = box;
    const tries: Array<[string, Record<string, unknown>]> = [
      ['Write', { file_path: box_.file('.claude/policies.yaml'), content: 'version: 1\nsettings:\n  log:\n    otlp: false\n' }],
      // Claude Code's settings can give the next session's hooks an environment: the way to OTEL_SDK_DISABLED.
      ['Write', { file_path: box_.file('.claude/settings.local.json'), content: '{"env":{"OTEL_SDK_DISABLED":"true"}}' }],
      ['Write', { file_path: path.join(outboxRoot(box_), 'forged.rec'), content: '{}' }],
      ['Bash', { command: `echo '{}' > ${outboxRoot(box_)}/forged.rec` }],
      ['Bash', { command: `rm -rf ${outboxRoot(box_)}` }],
    ];
    for (const [i, [tool, input]] of tries.entries()) {
      const event = JSON.stringify({ hook_event_name: 'PreToolUse', session_id: `try-${i}`, cwd: box_.dir, tool_name: tool, tool_input: input });
      const r = await spawnHook(event, { projectDir: box_.dir, cacheDir: box_.cacheDir, env });
      expect(r.exitCode).toBe(0);
      expect((JSON.parse(r.stdout) as { hookSpecificOutput: { permissionDecision: string } }).hookSpecificOutput.permissionDecision).toBe('deny');
    }
    await receiver.waitFor({ logs: tries.length, spans: tries.length }, 15_000);
    expect(receiver.logs.map((l) => [l.attributes['session.id'], l.attributes['hookpolicy.outcome'], l.severityText]).sort())
      .toEqual(tries.map((_, i) => [`try-${i}`, 'deny', 'WARN']));
  });
});
