/**
 * The policy server of `policy init --mode http`, through the built CLI: `policy serve
 * --ensure` as Claude Code's SessionStart hook runs it (the event on stdin, $CLAUDE_PID
 * naming the process that started it), the server it starts detached, its answers next to
 * what `policy hook` prints for the same events, and who it refuses to trust.
 */
import { execFileSync, spawnSync } from 'child_process';
import * as fs from 'fs';
import * as http from 'http';
import * as net from 'net';
import { freePort } from '../support/free-port';
import * as os from 'os';
import * as path from 'path';
import { portHolder, request } from '../../engine/host/serve/client';
import { proofOf } from '../../engine/host/serve/state';
import { startClaudeStandIn, type ClaudeStandIn } from '../support/claude-stand-in';

const repo = path.join(__dirname, '..', '..');
const bin = path.join(repo, 'bin', 'policy.cjs');

beforeAll(() => {
  if (!fs.existsSync(path.join(repo, 'dist', 'cli.cjs'))) {
    execFileSync(process.execPath, [path.join(repo, 'scripts', 'build.mjs')], { stdio: 'inherit', env: { ...process.env, HOOKPOLICY_SKIP_TYPECHECK: '1' } });
  }
}, 120_000);

const POLICY = (message: string) => `version: 1
settings:
  on_error: closed
rules:
  - id: no-env-writes
    on: PreToolUse
    tools: Write
    paths: { deny: [".env"] }
    deny: "${message}"
  - id: tell-subagents
    on: SubagentStart
    context: "Read docs/rules.md first."
`;

let tmp: string;
let root: string;
let env: Record<string, string>;
let port: number;
const sessions: ClaudeStandIn[] = [];
const others: Array<{ close: () => void }> = [];


beforeEach(async () => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-serve-sessions-')));
  root = path.join(tmp, 'p');
  fs.mkdirSync(path.join(root, '.claude'), { recursive: true });
  fs.writeFileSync(path.join(root, '.claude', 'policies.yaml'), POLICY('{{path}} holds secrets.'));
  env = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !['CLAUDE_PROJECT_DIR', 'POLICY_CONFIG', 'CLAUDE_PID'].includes(k)) env[k] = v;
  env = { ...env, HOME: path.join(tmp, 'home'), HOOKPOLICY_CACHE_DIR: path.join(tmp, 'cache'), CLAUDE_PROJECT_DIR: root };
  port = await freePort();
});

afterEach(async () => {
  for (const s of sessions.splice(0)) await s.end();
  for (const o of others.splice(0)) o.close();
  try {
    execFileSync(process.execPath, [bin, 'serve', '--stop', '--port', String(port)], { env, encoding: 'utf8' });
  } catch {
    // Nothing of ours there.
  }
  fs.rmSync(tmp, { recursive: true, force: true });
});

interface Ensured {
  exit: number;
  stdout: string;
  stderr: string;
  /** The stand-in for Claude Code: it started the hook and lives on after it, until ended. */
  session: ClaudeStandIn;
}

/**
 * Runs the SessionStart hook (or, with a prompt, the UserPromptSubmit one) as Claude Code
 * would, as a child of a stand-in for Claude Code ($CLAUDE_PID): a new one, or the
 * session's own for a prompt.
 */
async function ensure(sessionId: string, args: string[] = ['--on-error', 'closed'], prompt?: string, claude = startClaudeStandIn()): Promise<Ensured> {
  if (!sessions.includes(claude)) sessions.push(claude);
  const common = { session_id: sessionId, cwd: root, transcript_path: path.join(tmp, 't.jsonl') };
  const event = JSON.stringify(prompt === undefined ? { ...common, hook_event_name: 'SessionStart', source: 'startup' } : { ...common, hook_event_name: 'UserPromptSubmit', prompt });
  const run = await claude.hook([process.execPath, bin, 'serve', '--ensure', '--port', String(port), '--idle', '1', ...args], event, env);
  return { ...run, session: claude };
}

/** How a stand-in ended: its signal, waited for. */
function endSignal(session: ClaudeStandIn): Promise<NodeJS.Signals | null> {
  const p = session.process;
  if (p.exitCode !== null || p.signalCode !== null) return Promise.resolve(p.signalCode);
  return new Promise((resolve) => p.once('exit', (_code, signal) => resolve(signal)));
}

function token(): string {
  return fs.readFileSync(path.join(tmp, 'cache', 'serve', 'token'), 'utf8').trim();
}

/** POSTs an event as the session's Claude Code does (from its process). */
async function post(claude: ClaudeStandIn, body: unknown): Promise<{ status: number; body: string }> {
  return claude.post(port, JSON.stringify(body));
}

/** What the command runner prints for the same event. */
function commandAnswer(body: unknown): string {
  return execFileSync(process.execPath, [bin, 'hook', '--on-error', 'closed'], { env: { ...env, HOOKPOLICY_CACHE_DIR: path.join(tmp, 'cache-command') }, input: JSON.stringify(body), encoding: 'utf8' }).trim();
}

const write = (session: string, file: string) => ({ session_id: session, hook_event_name: 'PreToolUse', cwd: root, tool_name: 'Write', tool_input: { file_path: `${root}/${file}`, content: '' } });

async function until(done: () => Promise<boolean>, ms = 15_000): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await done()) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return false;
}

it('the first session starts the server; its events get exactly what `policy hook` prints', async () => {
  const first = await ensure('s-1');
  expect([first.exit, first.stdout, first.stderr]).toEqual([0, '', '']);
  const holder = await portHolder(port, token());
  expect(holder).toMatchObject({ kind: 'ours', sessions: 1 });
  const events = [
    write('s-1', '.env'),
    write('s-1', 'src/a.ts'),
    { session_id: 's-1', hook_event_name: 'SubagentStart', cwd: root, agent_id: 'a1', agent_type: 'ba' },
  ];
  for (const e of events) {
    const answer = await post(first.session, e);
    expect(answer.status).toBe(200);
    expect(answer.body).toBe(commandAnswer(e));
  }
  expect(JSON.parse((await post(first.session, events[0])).body).hookSpecificOutput.permissionDecision).toBe('deny');
  // The same event from another process of the user (the agent's curl): refused, judged by nothing, recorded nowhere.
  expect(await request(port, 'POST', '/policy-hook', JSON.stringify(events[0]), 10_000)).toEqual({ status: 403, body: JSON.stringify({ error: 'events are taken only from the Claude Code process of a registered session' }) });
  // From a process that registered no session: the same.
  const stranger = startClaudeStandIn();
  sessions.push(stranger);
  expect((await post(stranger, { ...write('s-unknown', '.env'), cwd: '/elsewhere' })).status).toBe(403);
}, 60_000);

it('a second session shares the server; it stops once both have ended', async () => {
  const a = await ensure('s-a');
  const b = await ensure('s-b');
  expect([a.exit, b.exit]).toEqual([0, 0]);
  const holder = await portHolder(port, token());
  expect(holder).toMatchObject({ kind: 'ours', sessions: 2 });
  await a.session.end();
  await new Promise((r) => setTimeout(r, 3500));
  expect(await portHolder(port, token())).toMatchObject({ kind: 'ours', pid: (holder as { pid: number }).pid });
  await b.session.end();
  expect(await until(async () => (await portHolder(port, token())).kind === 'none')).toBe(true);
}, 60_000);

it('an edit of the policy is in the very next answer', async () => {
  const { session } = await ensure('s-1');
  expect(JSON.parse((await post(session, write('s-1', '.env'))).body).hookSpecificOutput.permissionDecisionReason).toBe('.env holds secrets.');
  fs.writeFileSync(path.join(root, '.claude', 'policies.yaml'), POLICY('never write {{path}}'));
  expect(JSON.parse((await post(session, write('s-1', '.env'))).body).hookSpecificOutput.permissionDecisionReason).toBe('never write .env');
}, 60_000);

/** A listener on the port that answers everything with an empty 200 (it would let every call through). */
async function impostor(answer: (url: string) => { status: number; body: string } = () => ({ status: 200, body: '{}' })): Promise<void> {
  const server = http.createServer((req, res) => {
    req.resume();
    const a = answer(req.url ?? '/');
    res.writeHead(a.status, { 'content-type': 'application/json' });
    res.end(a.body);
  });
  await new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
  others.push({ close: () => server.close() });
}

it('fail-closed: something else on the port ends the session, with the reason on stderr', async () => {
  // It answers the greeting as a server would, but cannot make the proof; and every event with {}.
  await impostor((url) => ({ status: 200, body: url.startsWith('/hookpolicy/hello') ? JSON.stringify({ pid: 1, build: 'any', sessions: 0, proof: '0'.repeat(64) }) : '{}' }));
  const result = await ensure('s-1');
  expect(result.exit).not.toBe(0);
  expect(await endSignal(result.session)).toBe('SIGTERM');
  expect(result.stderr).toMatch(/^hookpolicy: the policy server on 127\.0\.0\.1:\d+ cannot be used: something else listens on 127\.0\.0\.1:\d+( \(.*\))?: it cannot prove it holds this user's token\. This session is stopped: that listener would answer in the policy's place\.\n$/);
}, 60_000);

it('a listener that takes the connection and stays silent for the whole wait: treated as an impostor, the session ended', async () => {
  const silent = net.createServer(() => undefined);
  await new Promise<void>((r) => silent.listen(port, '127.0.0.1', r));
  others.push({ close: () => silent.close() });
  const result = await ensure('s-1');
  expect(result.exit).not.toBe(0);
  expect(await endSignal(result.session)).toBe('SIGTERM');
  expect(result.stderr).toMatch(/what listens on port \d+ does not answer: it took the connection but gave no answer.*This session is stopped/);
}, 60_000);

it('fail-open too: something else on the port ends the session, an impostor is not a policy that cannot decide', async () => {
  await impostor(() => ({ status: 404, body: '' }));
  const result = await ensure('s-1', []);
  expect(result.exit).not.toBe(0);
  expect(await endSignal(result.session)).toBe('SIGTERM');
  expect(result.stderr).toMatch(/^hookpolicy: the policy server on 127\.0\.0\.1:\d+ cannot be used: something else listens .*: it answered the greeting with HTTP 404, not as a policy server\. This session is stopped: that listener would answer in the policy's place\.\n$/);
}, 60_000);

it('a server stopped mid-session (the agent can pkill it) is started again by the next prompt, fail-open policy or not', async () => {
  for (const args of [['--on-error', 'closed'], []]) {
    const first = await ensure('s-1', args);
    expect(first.exit).toBe(0);
    const before = await portHolder(port, token());
    expect(before.kind).toBe('ours');
    process.kill((before as { pid: number }).pid, 'SIGKILL');
    expect(await until(async () => (await portHolder(port, token())).kind === 'none')).toBe(true);
    // While it is down, the http entries' onFailure: block refuses the calls; the prompt's own hook brings it back.
    expect((await post(first.session, write('s-1', '.env'))).status).toBe(0);
    const again = await ensure('s-1', args, 'go on', first.session);
    expect([again.exit, again.stdout, again.stderr]).toEqual([0, '', '']);
    const after = await portHolder(port, token());
    expect(after).toMatchObject({ kind: 'ours', sessions: 1 });
    expect((after as { pid: number }).pid).not.toBe((before as { pid: number }).pid);
    expect(JSON.parse((await post(first.session, write('s-1', '.env'))).body).hookSpecificOutput.permissionDecision).toBe('deny');
    await first.session.end();
    expect(await until(async () => (await portHolder(port, token())).kind === 'none')).toBe(true);
  }
}, 90_000);

it('this user\'s server of another build, still serving sessions: refused, but the session is not ended', async () => {
  const first = await ensure('s-0');
  expect(first.exit).toBe(0);
  execFileSync(process.execPath, [bin, 'serve', '--stop', '--port', String(port)], { env, encoding: 'utf8' });
  await until(async () => (await portHolder(port, token())).kind === 'none');
  const key = token();
  await impostor((url) => {
    const nonce = new URL(url, 'http://x').searchParams.get('nonce') ?? '';
    return { status: 200, body: JSON.stringify({ pid: 4242, build: '0.0.1+other', sessions: 2, proof: proofOf(key, 'server', `${nonce}\n0.0.1+other\n4242`) }) };
  });
  const result = await ensure('s-1');
  expect(result.exit).toBe(2);
  expect(result.stderr).toContain('port');
  expect(result.stderr).toContain('is held by this user\'s policy server of another hookpolicy build (0.0.1+other, pid 4242) while 2 session(s) use it');
  expect(result.session.process.exitCode).toBeNull();
}, 60_000);

it('--stop stops this user\'s server; a SessionStart event without a session id registers nothing', async () => {
  await ensure('s-1');
  const out = execFileSync(process.execPath, [bin, 'serve', '--stop', '--port', String(port)], { env, encoding: 'utf8' });
  expect(out).toMatch(/^policy serve: stopped the server on 127\.0\.0\.1:\d+ \(pid \d+, 1 session\(s\)\)\n$/);
  expect(await until(async () => (await portHolder(port, token())).kind === 'none')).toBe(true);
  const bad = await ensure('..');
  expect(bad.exit).toBe(2);
  expect(bad.stderr).toContain('the SessionStart event names no session (session_id)');
}, 60_000);

it('the hook loads dist/ensure.cjs, not the CLI; a shape of its own goes to the CLI, which reports a bad value', async () => {
  const debug = { ...env, HOOKPOLICY_DEBUG_CODE_CACHE: '1' };
  const event = JSON.stringify({ session_id: 's-1', cwd: root, transcript_path: path.join(tmp, 't.jsonl'), hook_event_name: 'UserPromptSubmit', prompt: 'hi' });
  const run = (args: string[]) => spawnSync(process.execPath, [bin, 'serve', '--ensure', '--port', String(port), '--idle', '1', ...args], { env: debug, input: event, encoding: 'utf8' });
  const fast = run(['--on-error', 'closed']);
  expect(fast.status).toBe(0);
  expect(fast.stderr).toMatch(/code cache (miss|hit) ensure\.cjs/);
  expect(fast.stderr).not.toContain('cli.cjs');
  expect((await portHolder(port, token())).kind).toBe('ours');
  const other = run(['--quiet']);
  expect(other.status).toBe(0);
  expect(other.stderr).toMatch(/code cache (miss|hit) cli\.cjs/);
  const bad = run(['--on-error', 'maybe']);
  expect([bad.status, bad.stderr]).toEqual([2, expect.stringContaining('policy serve: --on-error must be open or closed')]);
}, 60_000);
