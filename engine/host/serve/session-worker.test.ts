import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { createSessionWorker } from './session-worker';

// A worker that speaks the protocol (worker-protocol.ts): it hangs on an event whose body says
// "hang" (a loop no timer can stop), exits on "crash", and answers anything else at once.
const SCRIPT = `
const { parentPort, workerData } = require('worker_threads');
parentPort.on('message', (m) => {
  if (m.type === 'unjudged') return parentPort.postMessage({ type: 'log', line: 'counted ' + m.problem.code + ' ' + m.onError });
  if (m.body.includes('hang')) for (;;) {}
  if (m.body.includes('crash')) process.exit(3);
  parentPort.postMessage({ type: 'answer', id: m.id, status: 200, body: JSON.stringify({ worker: workerData.env.MARK }), deadlineMs: 300, onError: 'closed' });
});
parentPort.postMessage({ type: 'ready', build: workerData.env.BUILD, deadlineMs: 300, onError: 'closed' });
`;

let tmp: string;
let script: string;
const workers: Array<{ close(): void }> = [];

beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hookpolicy-session-worker-'));
  script = path.join(tmp, 'worker.cjs');
  fs.writeFileSync(script, SCRIPT);
});
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));
afterEach(() => {
  for (const w of workers.splice(0)) w.close();
});

function worker(mark: string, logs: string[], build = 'b1') {
  const w = createSessionWorker({ script, data: { projectRoot: '/p', configs: [], onError: null, env: { MARK: mark, BUILD: build } }, build: 'b1', graceMs: 300, log: (l) => logs.push(l) });
  workers.push(w);
  return w;
}

const event = (what: string) => JSON.stringify({ hook_event_name: 'PreToolUse', session_id: 's', tool_name: 'Write', tool_input: { file_path: what } });

async function until(done: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !done(); i++) await new Promise((r) => setTimeout(r, 20));
}

it('stops a worker past deadline_ms + grace, answers per on_error, and a new worker counts and goes on', async () => {
  const logs: string[] = [];
  const w = worker('A', logs);
  expect(await w.answer(event('a'))).toEqual({ status: 200, body: JSON.stringify({ worker: 'A' }) });
  const t0 = Date.now();
  const hung = await w.answer(event('hang'));
  expect(Date.now() - t0).toBeLessThan(300 + 300 + 500);
  const output = JSON.parse(hung.body) as { hookSpecificOutput: { permissionDecision: string; permissionDecisionReason: string } };
  // on_error: closed (the policy's, as the worker said): refused, with the reason.
  expect(output.hookSpecificOutput.permissionDecision).toBe('deny');
  expect(output.hookSpecificOutput.permissionDecisionReason).toContain('evaluating the event took longer than deadline_ms (300 ms); the policy server stopped it');
  expect(logs).toContain('a worker ran past deadline_ms (300 ms) + 300 ms: stopped, a new one takes its place');
  expect(await w.answer(event('b'))).toEqual({ status: 200, body: JSON.stringify({ worker: 'A' }) });
  await until(() => logs.includes('counted deadline-exceeded closed'));
  expect(logs).toContain('counted deadline-exceeded closed');
});

it('a session whose worker hangs delays no other session', async () => {
  const a = worker('A', []);
  const b = worker('B', []);
  const slow = a.answer(event('hang'));
  const t0 = Date.now();
  expect(await b.answer(event('x'))).toEqual({ status: 200, body: JSON.stringify({ worker: 'B' }) });
  expect(Date.now() - t0).toBeLessThan(250);
  expect((await slow).status).toBe(200);
});

it('a worker that dies, or is of another build, judges nothing: its events are answered per on_error', async () => {
  const logs: string[] = [];
  const crashed = JSON.parse((await worker('A', logs).answer(event('crash'))).body) as { hookSpecificOutput: { permissionDecision: string; permissionDecisionReason: string } };
  expect(crashed.hookSpecificOutput.permissionDecision).toBe('deny');
  expect(crashed.hookSpecificOutput.permissionDecisionReason).toContain("the session's worker stopped (exit 3): the event was not judged");
  const other = JSON.parse((await worker('A', logs, 'b2').answer(event('a'))).body) as { hookSpecificOutput: { permissionDecisionReason: string } };
  expect(other.hookSpecificOutput.permissionDecisionReason).toContain('is of hookpolicy build b2, this server of b1');
});
