/**
 * Webhook header values from the environment (issue 16, point 5), through the built runner
 * and the real sender, to a real HTTP server on 127.0.0.1: `${NAME}` of a variable
 * `allowed_env_vars` lists is filled in by the sender when it POSTs, so the secret is sent
 * but never written to the spool, the decision log or the policy; an unlisted one is sent as
 * written; an allowed one that is unset sends nothing and warns.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ensureBuilt } from '../support/hook-process';
import { startSink, type HttpSink } from '../support/http-sink';
import { runCli } from '../support/run-cli';
import { makeProject, REPO_ROOT, type TempProject } from '../support/run-hook';

beforeAll(() => ensureBuilt(), 120_000);

const SECRET = 'hp-test-9f3c1a7e5b2d4c6f8a0e';
const made: TempProject[] = [];
let sink: HttpSink | undefined;
afterEach(async () => {
  await sink?.close();
  sink = undefined;
});
afterAll(() => made.forEach((p) => p.remove()));

function policy(url: string, headers: string, allowed = '[HP_WEBHOOK_TOKEN]'): string {
  return `version: 1
settings:
  log:
    file: .claude/decisions.jsonl
    webhook:
      url: "${url}"
      headers: ${headers}
      allowed_env_vars: ${allowed}
rules:
  - id: no-env
    on: PreToolUse
    tools: Write
    paths: { deny: [".env"] }
    deny: "no .env"
`;
}

function project(text: string): TempProject {
  const p = makeProject(text);
  made.push(p);
  return p;
}

const writeEnv = (p: TempProject) => ({ hook_event_name: 'PreToolUse', session_id: 's1', cwd: p.dir, tool_name: 'Write', tool_input: { file_path: p.file('.env'), content: 'x' } });

/** Every file under `dir` whose text contains `needle`. */
function filesHolding(dir: string, needle: string): string[] {
  const found: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath ?? (entry as unknown as { path: string }).path, entry.name);
    let bytes: Buffer;
    try {
      bytes = fs.readFileSync(file);
    } catch {
      continue; // Claimed (renamed) or deleted by the sender meanwhile.
    }
    if (bytes.includes(needle)) found.push(file);
  }
  return found;
}

async function until<T>(probe: () => T | undefined, ms: number): Promise<T | undefined> {
  const end = Date.now() + ms;
  for (;;) {
    const v = probe();
    if (v !== undefined || Date.now() > end) return v;
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** The ```yaml example under docs/language.md's "Webhook headers from the environment". */
function languageExample(): string {
  const doc = fs.readFileSync(path.join(REPO_ROOT, 'docs', 'language.md'), 'utf8');
  const section = doc.slice(doc.indexOf('\n### Webhook headers from the environment\n'));
  return /```yaml\n([\s\S]*?)```/.exec(section)?.[1] ?? '';
}

describe('docs/language.md, Webhook headers from the environment', () => {
  it('the example, pointed at a real server, sends the token from the environment and lints clean', async () => {
    sink = await startSink();
    const example = languageExample();
    expect(example).toContain('"https://hooks.example.com/decisions"');
    const p = project(`version: 1\n${example.replace('"https://hooks.example.com/decisions"', `"${sink.url}"`)}rules:\n  - { id: no-env, on: PreToolUse, tools: Write, paths: { deny: [".env"] }, deny: "no .env" }\n`);
    const run = p.run(writeEnv(p), { env: { HP_WEBHOOK_TOKEN: SECRET } });
    expect(run.stderr).toBe('');
    const [request] = await sink.waitFor(1, 5000);
    expect([request.headers.authorization, request.headers['x-team']]).toEqual([`Bearer ${SECRET}`, 'payments']);
    const lint = runCli(['lint', '--format', 'json'], { cwd: p.dir, env: { CLAUDE_PROJECT_DIR: p.dir, HOME: p.dir } });
    expect((JSON.parse(lint.stdout) as Array<{ code: string }>).filter((d) => d.code.startsWith('webhook-'))).toEqual([]);
  }, 15_000);
});

describe('docs/operations.md, Webhooks', () => {
  it('the team example, pointed at a real server, sends the token from the environment and lints clean', async () => {
    sink = await startSink();
    const doc = fs.readFileSync(path.join(REPO_ROOT, 'docs', 'operations.md'), 'utf8');
    const example = /```yaml\n([\s\S]*?)```/.exec(doc.slice(doc.indexOf('\n## Webhooks\n')))?.[1] ?? '';
    expect(example).toContain('"https://hooks.example.com/hookpolicy"');
    const p = project(example.replace('"https://hooks.example.com/hookpolicy"', `"${sink.url}"`));
    const run = p.run(writeEnv(p), { env: { HP_WEBHOOK_TOKEN: SECRET } });
    expect(run.stderr).toBe('');
    const [request] = await sink.waitFor(1, 5000);
    expect(request.headers.authorization).toBe(`Bearer ${SECRET}`);
    expect(JSON.parse(request.body)).toMatchObject({ outcome: 'deny', rules: ['no-env'], reason: '.env holds secrets.' });
    const lint = runCli(['lint', '--format', 'json'], { cwd: p.dir, env: { CLAUDE_PROJECT_DIR: p.dir, HOME: p.dir } });
    expect((JSON.parse(lint.stdout) as Array<{ code: string }>).filter((d) => d.code.startsWith('webhook-'))).toEqual([]);
  }, 15_000);
});

describe('webhook headers from the environment', () => {
  it('sends the variable\'s value; the spool and the log hold only the reference', async () => {
    // The first POST is refused (503): the record waits in the spool, where it is read, then is sent again.
    sink = await startSink({ status: (i) => (i === 0 ? 503 : 200) });
    const p = project(policy(sink.url, '{ Authorization: "Bearer ${HP_WEBHOOK_TOKEN}", X-Team: red }'));
    const run = p.run(writeEnv(p), { env: { HP_WEBHOOK_TOKEN: SECRET } });
    expect(run.exitCode).toBe(0);
    expect(run.stderr).toBe('');
    const waiting = await until(() => {
      const spooled = filesHolding(p.cacheDir, '${HP_WEBHOOK_TOKEN}');
      return spooled.length > 0 ? spooled : undefined;
    }, 3000);
    expect(waiting).toBeDefined();
    const requests = await sink.waitFor(2, 8000);
    expect(requests.map((r) => [r.headers.authorization, r.headers['x-team']])).toEqual([[`Bearer ${SECRET}`, 'red'], [`Bearer ${SECRET}`, 'red']]);
    expect(JSON.parse(requests[1].body)).toMatchObject({ outcome: 'deny', rules: ['no-env'] });
    expect(filesHolding(p.cacheDir, SECRET)).toEqual([]);
    expect(filesHolding(p.dir, SECRET)).toEqual([]);
  }, 20_000);

  it('a variable allowed_env_vars does not list is sent as written, even when it is set', async () => {
    sink = await startSink();
    const p = project(policy(sink.url, '{ Authorization: "Bearer ${HP_WEBHOOK_TOKEN}" }', '[]'));
    p.run(writeEnv(p), { env: { HP_WEBHOOK_TOKEN: SECRET } });
    const [request] = await sink.waitFor(1, 5000);
    expect(request.headers.authorization).toBe('Bearer ${HP_WEBHOOK_TOKEN}');
  }, 15_000);

  it('an allowed variable that is unset: the decision stands, nothing is sent, the runner warns', async () => {
    sink = await startSink();
    const p = project(policy(sink.url, '{ Authorization: "Bearer ${HP_WEBHOOK_TOKEN}" }'));
    const run = p.run(writeEnv(p), { env: { HP_WEBHOOK_TOKEN: undefined } });
    expect((run.json as { hookSpecificOutput: { permissionDecision: string } }).hookSpecificOutput.permissionDecision).toBe('deny');
    expect(run.stderr).toContain('warning webhook-env-unset: the webhook\'s headers name $HP_WEBHOOK_TOKEN, which is not set in the hook\'s environment: the record was not sent');
    expect(await sink.waitFor(1, 1500)).toEqual([]);
    expect(p.readJsonl('.claude/decisions.jsonl')).toHaveLength(1);
  }, 15_000);

  it('policy lint: the unlisted reference at its $, a literal token at its value', () => {
    const p = project(policy('http://127.0.0.1:9/x', '{ Authorization: "Bearer ${HP_TOKEN}", X-Api-Key: "k-3f9a0c1d2e4b5a6c7d8e" }', '[HP_WEBHOOK_TOKEN]'));
    const run = runCli(['lint', '--format', 'json'], { cwd: p.dir, env: { CLAUDE_PROJECT_DIR: p.dir, HOME: p.dir } });
    const found = JSON.parse(run.stdout) as Array<{ code: string; line: number; column: number }>;
    // Line 7: `      headers: { Authorization: "Bearer ${HP_TOKEN}", X-Api-Key: "k-..." }`.
    expect(found.filter((d) => d.code.startsWith('webhook-')).map((d) => `${d.line}:${d.column} ${d.code}`))
      .toEqual(['7:41 webhook-env-not-allowed', '7:66 webhook-header-secret']);
    expect(run.code).toBe(0);
  });
});
