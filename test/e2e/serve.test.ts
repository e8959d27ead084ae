/**
 * `policy serve` as Claude Code's http hooks reach it: the built CLI on an ephemeral
 * loopback port, events POSTed as JSON, exact answers checked.
 */
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as http from 'http';
import * as os from 'os';
import * as path from 'path';
import { linkHookpolicy } from '../support/install';
import { startPolicyServer, type PolicyServer } from '../support/policy-server';

const repo = path.join(__dirname, '..', '..');
const bin = path.join(repo, 'bin', 'policy.cjs');

let tmp: string;
let root: string;
let server: PolicyServer | null = null;
let url: URL;

beforeAll(() => {
  if (!fs.existsSync(path.join(repo, 'dist', 'cli.cjs'))) {
    execFileSync(process.execPath, [path.join(repo, 'scripts', 'build.mjs')], { stdio: 'inherit', env: { ...process.env, HOOKPOLICY_SKIP_TYPECHECK: '1' } });
  }
}, 120_000);

const policy = (message: string) => `version: 1
rules:
  - id: no-env-writes
    on: PreToolUse
    tools: Write
    paths: { deny: [".env"] }
    deny: "${message}"
  - id: tell-subagents
    on: SubagentStart
    context: "Read docs/rules.md first."
  - id: notes-first
    on: TeammateIdle
    block: "Write your notes first."
`;

beforeEach(async () => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-serve-')));
  root = path.join(tmp, 'p');
  fs.mkdirSync(path.join(root, '.claude'), { recursive: true });
  fs.writeFileSync(path.join(root, '.claude', 'policies.yaml'), policy('{{path}} holds secrets.'));
  server = await startPolicyServer({ projectDir: root, cacheDir: path.join(tmp, 'cache') });
  url = server.url;
});

afterEach(async () => {
  await server?.stop();
  server = null;
  fs.rmSync(tmp, { recursive: true, force: true });
});

const post = (body: unknown) => server!.post(body);

const write = (file: string) => ({ hook_event_name: 'PreToolUse', session_id: 's', cwd: root, tool_name: 'Write', tool_input: { file_path: `${root}/${file}`, content: '' } });

it('answers deny, context and nothing with the exact JSON the command runner prints', async () => {
  expect(await post(write('.env'))).toEqual({
    status: 200,
    body: '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":".env holds secrets."}}',
  });
  expect(await post({ hook_event_name: 'SubagentStart', cwd: root, agent_id: 'a1', agent_type: 'ba' })).toEqual({
    status: 200,
    body: '{"hookSpecificOutput":{"hookEventName":"SubagentStart","additionalContext":"Read docs/rules.md first."}}',
  });
  expect(await post(write('src/a.ts'))).toEqual({ status: 200, body: '' });
});

it('says visibly that an exit-2 block cannot be given over http', async () => {
  const answer = await post({ hook_event_name: 'TeammateIdle', cwd: root, teammate_name: 'murdock', team_name: 't' });
  expect(answer.status).toBe(200);
  const message = JSON.parse(answer.body).systemMessage as string;
  expect(message).toMatch(/^hookpolicy: TeammateIdle can only be blocked with exit code 2, which an http hook cannot give, so this block was NOT applied/);
  expect(message).toContain('Write your notes first.');
});

it('serves the edited policy on the very next request', async () => {
  await post(write('.env'));
  fs.writeFileSync(path.join(root, '.claude', 'policies.yaml'), policy('never write {{path}}'));
  const answer = await post(write('.env'));
  expect(JSON.parse(answer.body).hookSpecificOutput.permissionDecisionReason).toBe('never write .env');
});

it('records and reads the memory store as the command runner does', async () => {
  const recording = `${policy('x')}  - id: observe
    on: PostToolUse
    tools: Bash
    record: { kind: command, text: "{{command}}" }
  - id: count
    on: UserPromptSubmit
    let:
      n: { count: command, scope: session }
    context: "{{n}} commands"
`;
  fs.writeFileSync(path.join(root, '.claude', 'policies.yaml'), recording);
  const bash = (command: string) => ({ hook_event_name: 'PostToolUse', session_id: 's', cwd: root, tool_name: 'Bash', tool_input: { command }, tool_response: {} });
  expect(await post(bash('ls'))).toEqual({ status: 200, body: '' });
  expect(await post(bash('make'))).toEqual({ status: 200, body: '' });
  const journal = fs.readFileSync(path.join(root, '.claude', 'hookpolicy', 'memory', 'journal.jsonl'), 'utf8');
  expect(journal.trim().split('\n').map((l) => JSON.parse(l).text)).toEqual(['ls', 'make']);
  const answer = await post({ hook_event_name: 'UserPromptSubmit', session_id: 's', cwd: root, prompt: 'hi' });
  expect(JSON.parse(answer.body).hookSpecificOutput.additionalContext).toBe('2 commands');
});

it('answers a malformed body per on_error (open: a notice, no decision)', async () => {
  const answer = await post('not json');
  expect(answer.status).toBe(200);
  expect(JSON.parse(answer.body).systemMessage).toContain('event-malformed');
});

it('refuses other methods and stops cleanly on SIGTERM', async () => {
  const get = await new Promise<number>((resolve, reject) => {
    http.request({ host: url.hostname, port: url.port, path: '/policy-hook', method: 'PUT' }, (res) => { res.resume(); resolve(res.statusCode ?? 0); }).on('error', reject).end();
  });
  expect(get).toBe(405);
  const exited = new Promise<number | null>((resolve) => server!.child.once('exit', (code) => resolve(code)));
  server!.child.kill('SIGTERM');
  expect(await exited).toBe(0);
});

describe('policy init --mode http', () => {
  it('writes http entries where http can answer, a SessionStart entry that starts the server, command entries elsewhere', () => {
    const settingsFile = path.join(root, '.claude', 'settings.json');
    linkHookpolicy(root);
    const init = (args: string[]) => execFileSync(process.execPath, [bin, 'init', '--project-dir', root, ...args], { env: { ...process.env, HOME: tmp }, encoding: 'utf8' });
    const out = init(['--mode', 'http', '--port', '9123']);
    expect(out).toContain('TeammateIdle stays a command hook: it blocks only with exit code 2');
    expect(out).toContain('each session starts the policy server on 127.0.0.1:9123 at SessionStart (policy serve --ensure)');
    const hooks = JSON.parse(fs.readFileSync(settingsFile, 'utf8')).hooks;
    // The built-in self-protection rule routes every writing tool (engine/self-protection.ts).
    expect(hooks.PreToolUse).toEqual([{ matcher: 'Write|Edit|MultiEdit|NotebookEdit|Bash|PowerShell', hooks: [{ type: 'http', url: 'http://127.0.0.1:9123/policy-hook', timeout: expect.any(Number), onFailure: 'block' }] }]);
    expect(hooks.SubagentStart[0].hooks[0]).toMatchObject({ type: 'http', url: 'http://127.0.0.1:9123/policy-hook', onFailure: 'block' });
    expect(hooks.TeammateIdle[0].hooks[0]).toMatchObject({ type: 'command' });
    const ensureEntry = { type: 'command', command: expect.any(String), args: expect.arrayContaining(['${CLAUDE_PROJECT_DIR}/node_modules/hookpolicy/bin/policy.cjs', 'serve', '--ensure', '--port', '9123']), timeout: 30 };
    expect(hooks.SessionStart).toEqual([{ hooks: [ensureEntry] }]);
    expect(hooks.UserPromptSubmit).toEqual([{ hooks: [ensureEntry] }]);
    const check = execFileSync(process.execPath, [bin, 'init', '--project-dir', root, '--check', '--scope', 'project'], { env: { ...process.env, HOME: tmp }, encoding: 'utf8' });
    expect(check).toContain('in sync');
    // Running init again, in either mode, replaces its own entries instead of adding to them.
    init(['--mode', 'http', '--port', '9123']);
    expect(JSON.parse(fs.readFileSync(settingsFile, 'utf8')).hooks).toEqual(hooks);
    // Without --mode, init keeps the mode the settings have.
    expect(init(['--port', '9123'])).toContain('is up to date; nothing changed');
    expect(init([])).toContain('is up to date; nothing changed');
    init(['--mode', 'command']);
    const back = JSON.parse(fs.readFileSync(settingsFile, 'utf8')).hooks;
    expect(back.PreToolUse).toHaveLength(1);
    expect(back.PreToolUse[0].hooks.map((h: { type: string }) => h.type)).toEqual(['command']);
    expect(back.SessionStart).toBeUndefined();
    expect(back.UserPromptSubmit).toBeUndefined();
    expect(init([])).toContain('note: kept the command entries the settings already had; policy init --mode http for the fast path (no process per event)');
    expect(JSON.parse(fs.readFileSync(settingsFile, 'utf8')).hooks).toEqual(back);
  });

  it('a fail-closed policy: every http entry where Claude Code honours it says onFailure: block', () => {
    linkHookpolicy(root);
    fs.writeFileSync(path.join(root, '.claude', 'policies.yaml'), `settings:\n  on_error: closed\n${policy('x')}`);
    execFileSync(process.execPath, [bin, 'init', '--project-dir', root, '--mode', 'http', '--port', '9124'], { env: { ...process.env, HOME: tmp }, encoding: 'utf8' });
    const hooks = JSON.parse(fs.readFileSync(path.join(root, '.claude', 'settings.json'), 'utf8')).hooks;
    expect(hooks.PreToolUse[0].hooks).toEqual([{ type: 'http', url: 'http://127.0.0.1:9124/policy-hook', timeout: expect.any(Number), onFailure: 'block' }]);
    expect(hooks.SubagentStart[0].hooks[0].onFailure).toBe('block');
    expect(hooks.SessionStart[0].hooks[0].args.slice(-2)).toEqual(['--on-error', 'closed']);
  });
});

it('an event crafted against a team glob is answered within deadline_ms + 1 s, and the server goes on answering', async () => {
  fs.writeFileSync(path.join(root, '.claude', 'policies.yaml'), `version: 1
settings:
  on_error: closed
  deadline_ms: 1000
rules:
  - id: generated-code-lane
    on: PreToolUse
    tools: Edit
    paths: { allow: ["gen/**/a*a*a*a*a*a*a*a*a*a*a*b/**"] }
    deny: "{{path}} is outside the generated code."
  - id: no-env-writes
    on: PreToolUse
    tools: Write
    paths: { deny: [".env"] }
    deny: "{{path}} holds secrets."
`);
  const edit = { hook_event_name: 'PreToolUse', session_id: 's', cwd: root, tool_name: 'Edit', tool_input: { file_path: `${root}/gen/${'a'.repeat(48)}c/x.ts`, old_string: 'a', new_string: 'b' } };
  const t0 = Date.now();
  const answer = await post(edit);
  expect(Date.now() - t0).toBeLessThan(1000 + 1000 + 1000);
  expect(answer.status).toBe(200);
  // Refused: by the rule, or (a matcher that backtracks) by on_error: closed once the worker was stopped.
  expect(JSON.parse(answer.body).hookSpecificOutput.permissionDecision).toBe('deny');
  expect(JSON.parse((await post(write('.env'))).body).hookSpecificOutput.permissionDecisionReason).toBe('.env holds secrets.');
}, 60_000);
