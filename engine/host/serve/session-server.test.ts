import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import type { HookResponse } from '../../types';
import { spawn, type ChildProcess } from 'child_process';
import { portHolder, registerSession, request, stopServer } from './client';
import { createPeerCheck, type PeerCheck } from './peers';
import { createProjectAnswerer, type RunnerInput } from './project-answerer';
import type { SessionRegistration } from './registry';
import { createSessionServer, type SessionServer } from './session-server';
import { proofOf } from './state';

const TOKEN = 'a'.repeat(64);
let tmp: string;
let server: SessionServer | null = null;
let port: number;
let seen: RunnerInput[];
let stopped: string[];

// The runner stands in as an echo: which project, env and argv an event was answered with.
const runHook = async (input: RunnerInput) => {
  seen.push(input);
  const response: HookResponse = { stdout: `${JSON.stringify({ systemMessage: `${input.cwd} ${input.env.MARK ?? '-'} ${input.argv.join(' ')}` })}\n`, stderr: '', exitCode: 0 };
  return { response, decision: null };
};

// In process, the project's answerer with the echo runner (the server itself starts a worker from the session's install).
const answerer = (r: SessionRegistration) => createProjectAnswerer({ projectRoot: r.projectRoot, configs: r.configs, env: r.env, onError: r.onError, compiler: () => { throw new Error('no compiler in this test'); }, runHook });

async function start(options: { alive?: (r: SessionRegistration) => boolean; idleMs?: number; checkMs?: number; peers?: PeerCheck | null } = {}): Promise<void> {
  server = createSessionServer({ port: 0, token: TOKEN, build: 'b1', sessionsDir: path.join(tmp, 'sessions'), answerer, peers: null, ...options, onStop: (why) => stopped.push(why) });
  port = (await server.listen()).port;
}

beforeEach(() => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'hookpolicy-session-server-')));
  seen = [];
  stopped = [];
});
afterEach(async () => {
  await server?.close();
  server = null;
  fs.rmSync(tmp, { recursive: true, force: true });
});

/** Waits until `done` holds (the server's timers run on a loaded machine too), at most 10 s. */
async function until(done: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !done(); i++) await new Promise((r) => setTimeout(r, 20));
}

const reg = (session: string, projectRoot: string, env: Record<string, string> = {}, pid = process.pid): SessionRegistration => ({ session, projectRoot, configs: [], onError: 'closed', pid, pidStart: null, env, install: '/i/node_modules/hookpolicy' });
const event = (session: string, cwd: string) => JSON.stringify({ session_id: session, hook_event_name: 'PreToolUse', cwd, tool_name: 'Write', tool_input: { file_path: `${cwd}/a`, content: '' } });
const post = (body: string, where = '/policy-hook') => request(port, 'POST', where, body, 5000);

it('proves it holds the token; a holder of another token cannot tell it from a stranger', async () => {
  await start();
  expect(await portHolder(port, TOKEN)).toEqual({ kind: 'ours', pid: process.pid, build: 'b1', sessions: 0 });
  const other = await portHolder(port, 'b'.repeat(64));
  expect(other).toMatchObject({ kind: 'foreign', why: 'it cannot prove it holds this user\'s token' });
  expect((await request(port, 'GET', '/hookpolicy/hello?nonce=xyz', null, 5000)).status).toBe(400);
});

it('answers each registered session with its own project and environment, 503 for one nobody registered', async () => {
  await start();
  const a = path.join(tmp, 'a');
  const b = path.join(tmp, 'b');
  expect(await registerSession(port, TOKEN, reg('s-a', a, { MARK: 'A' }))).toEqual({ ok: true });
  expect(await registerSession(port, TOKEN, reg('s-b', b, { MARK: 'B' }))).toEqual({ ok: true });
  expect(await post(event('s-a', a))).toEqual({ status: 200, body: JSON.stringify({ systemMessage: `${a} A --on-error closed` }) });
  expect(await post(event('s-b', `${b}/sub`))).toEqual({ status: 200, body: JSON.stringify({ systemMessage: `${b} B --on-error closed` }) });
  // Not registered: 503, whatever folder it names (which any process could write).
  expect((await post(event('s-x', `${a}/deep`))).status).toBe(503);
  expect((await post('not json')).status).toBe(503);
  expect(seen.map((s) => s.env.CLAUDE_PROJECT_DIR)).toEqual([a, b]);
});

const linuxOnly = process.platform === 'linux' ? it : it.skip;

linuxOnly('takes an event only from the Claude Code process of the session it names (/proc), never from another process of the user', async () => {
  const children: ChildProcess[] = [];
  try {
    await start({ peers: createPeerCheck() });
    const a = path.join(tmp, 'a');
    const b = path.join(tmp, 'b');
    // This test process stands in for session s-a's Claude Code; s-b's is another process, which posts nothing.
    const other = spawn('sleep', ['30']);
    children.push(other);
    expect(await registerSession(port, TOKEN, reg('s-a', a, { MARK: 'A' }))).toEqual({ ok: true });
    expect(await registerSession(port, TOKEN, reg('s-b', b, { MARK: 'B' }, other.pid!))).toEqual({ ok: true });
    expect(await post(event('s-a', a))).toEqual({ status: 200, body: JSON.stringify({ systemMessage: `${a} A --on-error closed` }) });
    // Posting as s-b from a process that is not s-b's Claude Code (the agent's curl): refused, never run.
    expect(await post(event('s-b', b))).toEqual({ status: 403, body: JSON.stringify({ error: 'session s-b belongs to another Claude Code process' }) });
    // A session id this Claude Code never registered: its own first session answers.
    expect(JSON.parse((await post(event('s-new', a))).body).systemMessage).toBe(`${a} A --on-error closed`);
    expect(seen.map((s) => s.env.MARK)).toEqual(['A', 'A']);
    // A child of this process (as the agent's Bash is a child of Claude Code) holds its own socket: refused.
    const curl = spawn(process.execPath, ['-e', `
      const http = require('http');
      const req = http.request({ host: '127.0.0.1', port: ${port}, path: '/policy-hook', method: 'POST' }, (res) => {
        let b = ''; res.on('data', (d) => { b += d; }); res.on('end', () => process.stdout.write(res.statusCode + ' ' + b));
      });
      req.end(${JSON.stringify(event('s-a', a))});`], { stdio: ['ignore', 'pipe', 'inherit'] });
    children.push(curl);
    const out = await new Promise<string>((resolve) => {
      let text = '';
      curl.stdout!.on('data', (d) => { text += d; });
      curl.on('exit', () => resolve(text));
    });
    expect(out).toBe(`403 ${JSON.stringify({ error: 'events are taken only from the Claude Code process of a registered session' })}`);
    expect(seen).toHaveLength(2);
  } finally {
    for (const c of children) c.kill('SIGKILL');
  }
});

it('takes a registration only with a proof, and never moves a session to another project or environment', async () => {
  await start();
  const r = reg('s1', '/p');
  expect((await post(JSON.stringify({ registration: r, proof: proofOf('b'.repeat(64), 'register', JSON.stringify(r)) }), '/hookpolicy/session')).status).toBe(403);
  expect((await post(JSON.stringify({ registration: { ...r, pid: -1 }, proof: 'x' }), '/hookpolicy/session')).status).toBe(400);
  expect(await registerSession(port, TOKEN, r)).toEqual({ ok: true });
  expect(await registerSession(port, TOKEN, { ...r, projectRoot: '/lax' })).toEqual({ ok: false, status: 409, reason: 'session s1 is registered for /p; a session keeps the project, policy, install and Claude Code it started with' });
  // Registered again with its lanes switched off: taken, without the new environment.
  expect(await registerSession(port, TOKEN, { ...r, env: { MARK: 'off' } })).toEqual({ ok: true });
  expect(JSON.parse((await post(event('s1', '/p'))).body).systemMessage).toBe('/p - --on-error closed');
  expect((await portHolder(port, TOKEN))).toMatchObject({ kind: 'ours', sessions: 1 });
});

it('stops on a fresh proof only', async () => {
  await start();
  const at = Date.now() - 120_000;
  expect((await post(JSON.stringify({ at, proof: proofOf(TOKEN, 'stop', String(at)) }), '/hookpolicy/stop')).status).toBe(403);
  expect((await post(JSON.stringify({ at: Date.now(), proof: 'x' }), '/hookpolicy/stop')).status).toBe(403);
  expect(stopped).toEqual([]);
  expect(await stopServer(port, TOKEN)).toBe(true);
  await until(() => stopped.length > 0);
  expect(stopped).toEqual(['asked to stop']);
  await expect(portHolder(port, TOKEN)).resolves.toEqual({ kind: 'none' });
});

it('drops sessions whose Claude Code has exited and stops once none is left', async () => {
  let running = true;
  await start({ alive: () => running, idleMs: 100, checkMs: 20 });
  await registerSession(port, TOKEN, reg('s1', '/p'));
  await new Promise((r) => setTimeout(r, 250));
  expect(stopped).toEqual([]);
  running = false;
  await until(() => stopped.length > 0);
  expect(server!.registry.list()).toEqual([]);
  expect(stopped).toEqual(['no session left']);
});

it('stops when no session registers at all', async () => {
  await start({ idleMs: 100, checkMs: 20 });
  await until(() => stopped.length > 0);
  expect(stopped).toEqual(['no session left']);
});
