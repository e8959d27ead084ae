/**
 * docs/operations.md's organisation example, run: it lints clean, and a denied write through
 * the built runner reaches a real OTLP receiver and a real webhook server on 127.0.0.1,
 * each with its token from the environment, never from the policy.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { startSink, type HttpSink } from '../support/http-sink';
import { ensureBuilt, makeSandbox, spawnHook, type Sandbox } from '../support/hook-process';
import { startOtlpReceiver, type OtlpReceiver } from '../support/otlp-receiver';
import { runCli } from '../support/run-cli';

const DOC = fs.readFileSync(path.join(__dirname, '..', '..', 'docs', 'operations.md'), 'utf8');

/** The YAML block of the section "An organisation, end to end", unindented. */
function organisationPolicy(): string {
  const section = DOC.slice(DOC.indexOf('## An organisation, end to end'), DOC.indexOf('## OpenTelemetry'));
  const block = /```yaml\n([\s\S]*?)\n\s*```/.exec(section);
  if (!block) throw new Error('no yaml example in the section');
  const lines = block[1].split('\n');
  const indent = Math.min(...lines.filter((l) => l.trim() !== '').map((l) => l.length - l.trimStart().length));
  return `${lines.map((l) => l.slice(indent)).join('\n')}\n`;
}

let box: Sandbox | undefined;
let receiver: OtlpReceiver | undefined;
let sink: HttpSink | undefined;
beforeAll(() => ensureBuilt(), 120_000);
afterEach(async () => {
  await receiver?.stop();
  await sink?.close();
  box?.remove();
});

it('the organisation example lints clean', () => {
  // Registered as the managed drop-in registers it; here in the project's settings.
  box = makeSandbox({ '.claude/policies.yaml': organisationPolicy() });
  const init = runCli(['init', '--scope', 'local', '--project-dir', box.dir], { cwd: box.dir });
  expect(init.code).toBe(0);
  const r = runCli(['lint', '--project-dir', box.dir], { cwd: box.dir });
  expect([r.code, r.stdout + r.stderr]).toEqual([0, expect.not.stringMatching(/error|warning/)]);
});

it('a denied write reaches the collector and the webhook, each with its token from the environment', async () => {
  receiver = await startOtlpReceiver();
  sink = await startSink();
  const policy = organisationPolicy()
    .replace('https://otel.example.com:4318', receiver.endpoint)
    .replace('https://hooks.example.com/hookpolicy', sink.url);
  box = makeSandbox({ '.claude/policies.yaml': policy });
  const event = JSON.stringify({
    hook_event_name: 'PreToolUse', session_id: 'org-1', cwd: box.dir, tool_name: 'Write',
    tool_input: { file_path: box.file('deploy/prod/app.yaml'), content: 'replicas: 0\n' },
  });
  const env = { HP_OTLP_TOKEN: 'otlp-secret-1', HP_WEBHOOK_TOKEN: 'webhook-secret-2' };
  const r = await spawnHook(event, { projectDir: box.dir, cacheDir: box.cacheDir, env });
  expect(r.exitCode).toBe(0);
  expect(JSON.parse(r.stdout).hookSpecificOutput).toMatchObject({ permissionDecision: 'deny', permissionDecisionReason: 'deploy/prod/app.yaml is changed through the release pipeline, not by an agent.' });

  await receiver.waitFor({ logs: 1, spans: 1 }, 15_000);
  expect(receiver.logs.map((l) => [l.attributes['hookpolicy.rule'], l.attributes['hookpolicy.outcome']])).toEqual([['no-prod-config', 'deny']]);
  const taken = receiver.requests.filter((q) => q.status === 200);
  expect(taken.length).toBeGreaterThan(0);
  expect(taken.map((q) => q.headers.authorization)).toEqual(taken.map(() => 'Bearer otlp-secret-1'));

  const [posted] = await sink.waitFor(1, 15_000);
  expect(posted.headers.authorization).toBe('Bearer webhook-secret-2');
  expect(JSON.parse(posted.body)).toMatchObject({ outcome: 'deny', rules: ['no-prod-config'], session_id: 'org-1' });

  // The tokens are in no file the runner wrote: not the log, not the cache and its outboxes.
  const written = [box.dir, box.cacheDir].flatMap((dir) => files(dir)).map((f) => fs.readFileSync(f, 'latin1'));
  expect(written.some((t) => t.includes('otlp-secret-1') || t.includes('webhook-secret-2'))).toBe(false);
}, 40_000);

function files(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(path.join(dir, e.name)) : e.isFile() ? [path.join(dir, e.name)] : []));
}
