import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import type { HookResponse } from '../../types';
import { portHolder, registerSession, request, stopServer } from './client';
import type { RunnerInput } from './project-answerer';
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

async function start(options: { alive?: (r: SessionRegistration) => boolean; idleMs?: number; checkMs?: number } = {}): Promise<void> {
  server = createSessionServer({ port: 0, token: TOKEN, build: 'b1', sessionsDir: path.join(tmp, 'sessions'), compiler: () => { throw new Error('no compiler in this test'); }, runHook, ...options, onStop: (why) => stopped.push(why) });
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

const reg = (session: string, projectRoot: string, env: Record<string, string> = {}): SessionRegistration => ({ session, projectRoot, configs: [], onError: 'closed', pid: process.pid, pidStart: null, env });
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
  // Not registered: served by the registered project that holds its folder, else 503.
  expect(JSON.parse((await post(event('s-x', `${a}/deep`))).body).systemMessage).toBe(`${a} A --on-error closed`);
  expect((await post(event('s-x', '/elsewhere'))).status).toBe(503);
  expect((await post('not json')).status).toBe(503);
  expect(seen.map((s) => s.env.CLAUDE_PROJECT_DIR)).toEqual([a, b, a]);
});

it('takes a registration only with a proof, and never moves a session to another project', async () => {
  await start();
  const r = reg('s1', '/p');
  expect((await post(JSON.stringify({ registration: r, proof: proofOf('b'.repeat(64), 'register', JSON.stringify(r)) }), '/hookpolicy/session')).status).toBe(403);
  expect((await post(JSON.stringify({ registration: { ...r, pid: -1 }, proof: 'x' }), '/hookpolicy/session')).status).toBe(400);
  expect(await registerSession(port, TOKEN, r)).toEqual({ ok: true });
  expect(await registerSession(port, TOKEN, { ...r, projectRoot: '/lax' })).toEqual({ ok: false, status: 409, reason: 'session s1 is registered for /p; a session keeps the project and policy it started with' });
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
