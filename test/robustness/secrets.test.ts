/**
 * Secrets never reach the decision log: the JSONL line and the webhook payload are
 * redacted (engine/host/redact.ts), while the answer to Claude Code is left as it is.
 * A record carries no tool_input; secrets reach it through templated messages
 * ({{command}}, {{tool_input.content}}) and through runtime errors.
 */
import * as fs from 'node:fs';
import { compilePolicyFiles } from '../../engine/host/compile-entry';
import { recordDecision } from '../../engine/host/decision-log';
import { evaluate } from '../../engine/evaluate';
import { createFileFacts } from '../../engine/host/file-facts';
import type { WebhookEnvelope } from '../../engine/host/webhook';
import { startSink, type HttpSink } from '../support/http-sink';
import { ensureBuilt, makeSandbox, spawnHook, type Sandbox } from '../support/hook-process';

// Fake secrets, assembled at run time so that no scanner mistakes this file for a leak.
const SECRETS = {
  aws: `AKIA${'J'.repeat(16)}`,
  github: `ghp_${'k3'.repeat(18)}`,
  slack: `xoxp-${'2'.repeat(12)}-${'c'.repeat(12)}`,
  apiKeyValue: 'v4lue-of-the-api-key',
  tokenValue: 'T0KEN-value-123',
  bearer: 'b3arer0123456789abcdef',
  jwt: `eyJ${'a'.repeat(12)}.eyJ${'b'.repeat(12)}.${'c'.repeat(16)}`,
  pemBody: 'MIIEvQIBADANBgkqhkiG9w0BAQEFAASC',
  dotenvValue: 'postgres://admin:s3cret@db/prod',
  password: 'hunter2hunter2',
};

const COMMAND = [
  `export API_KEY=${SECRETS.apiKeyValue}`,
  `TOKEN=${SECRETS.tokenValue} aws s3 cp --access ${SECRETS.aws} x`,
  `curl -H "Authorization: Bearer ${SECRETS.bearer}" https://api/${SECRETS.github}`,
  `echo ${SECRETS.slack} ${SECRETS.jwt} password: ${SECRETS.password}`,
].join(' && ');
const DOTENV = `DATABASE_URL=${SECRETS.dotenvValue}\nSTRIPE_KEY=x\n-----BEGIN PRIVATE KEY-----\n${SECRETS.pemBody}\n-----END PRIVATE KEY-----\n`;

const policy = (url: string) => [
  'version: 1',
  'settings:',
  '  log:',
  '    file: logs/decisions.jsonl',
  `    webhook: { url: "${url}", timeout_ms: 2000 }`,
  'rules:',
  '  - id: no-curl',
  '    on: PreToolUse',
  '    tools: Bash',
  "    command: ['\\bcurl\\b']",
  '    deny: "Refused: {{command}}"',
  '  - id: quoted-template',
  '    on: PreToolUse',
  '    tools: Bash',
  "    command: ['\\bnpm\\b']",
  '    deny: "cmd={{command}}"',
  '  - id: env-written',
  '    on: PreToolUse',
  '    tools: Write',
  '    paths: { deny: [".env"] }',
  '    warn: "Writing {{path}}: {{tool_input.content}}"',
  '',
].join('\n');

let box: Sandbox;
let sink: HttpSink;

beforeAll(async () => {
  ensureBuilt();
  sink = await startSink();
  box = makeSandbox({ '.claude/policies.yaml': policy(sink.url) });
}, 120_000);
afterAll(async () => {
  await sink.close();
  box.remove();
});

function expectClean(text: string): void {
  for (const [name, secret] of Object.entries(SECRETS)) {
    expect({ name, leaked: text.includes(secret) }).toEqual({ name, leaked: false });
  }
}

describe('through the binary', () => {
  it('a deny whose reason quotes the command: the answer keeps it, the log and the webhook do not', async () => {
    const event = { hook_event_name: 'PreToolUse', session_id: 'sec-1', tool_name: 'Bash', tool_input: { command: COMMAND } };
    const run = await spawnHook(JSON.stringify(event), { projectDir: box.dir, cacheDir: box.cacheDir });
    expect(JSON.parse(run.stdout).hookSpecificOutput.permissionDecisionReason).toBe(`Refused: ${COMMAND}`);

    const line = fs.readFileSync(box.file('logs/decisions.jsonl'), 'utf8').trimEnd().split('\n')
      .find((l) => l.includes('"sec-1"'))!;
    expectClean(line);
    const reason = (JSON.parse(line) as { reason: string }).reason;
    expect(reason).toBe([
      'Refused: export API_KEY=[REDACTED]',
      'TOKEN=[REDACTED] aws s3 cp --access AKIA[REDACTED] x',
      'curl -H "Authorization: Bearer [REDACTED]" https://api/ghp_[REDACTED]',
      'echo xoxp-[REDACTED] eyJ[REDACTED] password: [REDACTED]',
    ].join(' && '));

    const [payload] = (await sink.waitFor(1, 5000)).filter((r) => r.body.includes('"sec-1"'));
    expectClean(payload.body);
    expect((JSON.parse(payload.body) as { reason: string }).reason).toBe(reason);
  });

  it('a message template that glues the command to a name (cmd={{command}}), and URL, .npmrc and flag credentials', async () => {
    const forms = {
      nested: 'hunter2-nested',
      query: 'q-access-token-0123',
      sig: 'sas-signature-4567',
      npmrc: 'npm-auth-token-89ab',
      mysql: 'mysql-pass-cdef',
      httpieAuth: 'xh-pass-0246',
    };
    const command = [
      `DB_PASSWORD=${forms.nested} npm test`,
      `wget "https://api.example.com/v1?access_token=${forms.query}&sv=1&sig=${forms.sig}"`,
      `npm config set //registry.npmjs.org/:_authToken ${forms.npmrc}`,
      `mysql -u root -p${forms.mysql} shop`,
      `wget --user=bob --password=x https://h/ ; xh -a bob:${forms.httpieAuth} https://h/`,
    ].join(' && ');
    const event = { hook_event_name: 'PreToolUse', session_id: 'sec-3', tool_name: 'Bash', tool_input: { command } };
    const run = await spawnHook(JSON.stringify(event), { projectDir: box.dir, cacheDir: box.cacheDir });
    expect(JSON.parse(run.stdout).hookSpecificOutput.permissionDecisionReason).toBe(`cmd=${command}`);
    const line = fs.readFileSync(box.file('logs/decisions.jsonl'), 'utf8').trimEnd().split('\n')
      .find((l) => l.includes('"sec-3"'))!;
    for (const [name, secret] of Object.entries(forms)) expect({ name, leaked: line.includes(secret) }).toEqual({ name, leaked: false });
    expect((JSON.parse(line) as { reason: string }).reason).toMatch(/^cmd=DB_PASSWORD=\[REDACTED\] npm test && /);
    const payload = (await sink.waitFor(3, 5000)).find((r) => r.body.includes('"sec-3"'))!;
    for (const secret of Object.values(forms)) expect(payload.body).not.toContain(secret);
  });

  it('.env content quoted in a warning is redacted in the log', async () => {
    const event = { hook_event_name: 'PreToolUse', session_id: 'sec-2', tool_name: 'Write', tool_input: { file_path: `${box.dir}/.env`, content: DOTENV } };
    const run = await spawnHook(JSON.stringify(event), { projectDir: box.dir, cacheDir: box.cacheDir });
    expect(JSON.parse(run.stdout).systemMessage).toContain(SECRETS.dotenvValue);
    const line = fs.readFileSync(box.file('logs/decisions.jsonl'), 'utf8').trimEnd().split('\n')
      .find((l) => l.includes('"sec-2"'))!;
    expectClean(line);
    const record = JSON.parse(line) as { warnings: string[]; paths: string[] };
    expect(record.paths).toEqual(['.env']);
    expect(record.warnings).toEqual([
      'Writing .env: DATABASE_URL=[REDACTED]\nSTRIPE_KEY=[REDACTED]\n-----BEGIN PRIVATE KEY-----[REDACTED]-----END PRIVATE KEY-----\n',
    ]);
    const payload = (await sink.waitFor(3, 5000)).find((r) => r.body.includes('"sec-2"'))!;
    expectClean(payload.body);
  });
});

describe('extra patterns (settings.log.redact), wired through recordDecision', () => {
  it('apply to the JSONL line and the webhook payload alike', async () => {
    const local = makeSandbox({
      '.claude/policies.yaml': 'version: 1\nrules:\n  - { id: r, on: Stop, block: "Customer {{customer}} ticket {{ticket}} is open." }\n',
    });
    try {
      const built = compilePolicyFiles([local.file('.claude/policies.yaml')]);
      const policy = built.policy!;
      // What compileSettings will emit once settings.log.redact is in the schema.
      Object.assign(policy.settings.log, {
        file: 'decisions.jsonl',
        webhook: { url: 'http://127.0.0.1:9/none', timeoutMs: 100, headers: {} },
        redact: ['Customer (\\d+)', 'TCK-\\d+'],
      });
      const event = { hook_event_name: 'Stop', customer: '4711', ticket: 'TCK-99' };
      const decision = await evaluate(policy, event, { projectRoot: local.dir, env: {}, facts: createFileFacts(local.dir), now: () => 0 });
      expect(decision.reason).toBe('Customer 4711 ticket TCK-99 is open.');

      const sent: string[] = [];
      const fakeSpawn = (() => ({
        on: () => undefined,
        unref: () => undefined,
        stdin: { on: () => undefined, end: (text: string) => sent.push(text) },
      })) as unknown as NonNullable<Parameters<typeof recordDecision>[0]['spawn']>;
      const problems = recordDecision({ decision, event, policy, projectRoot: local.dir, now: new Date(0), spawn: fakeSpawn, spool: null });
      expect(problems).toEqual([]);

      const line = JSON.parse(fs.readFileSync(local.file('decisions.jsonl'), 'utf8')) as { reason: string };
      expect(line.reason).toBe('Customer [REDACTED] ticket [REDACTED] is open.');
      const envelope = JSON.parse(sent[0]) as WebhookEnvelope;
      expect((envelope.record as { reason: string }).reason).toBe('Customer [REDACTED] ticket [REDACTED] is open.');
    } finally {
      local.remove();
    }
  });
});
