/**
 * dist/serve-worker.cjs: one session's evaluations inside the policy server, in a worker
 * thread of its own (engine/host/serve/session-worker.ts starts it). It is loaded from the
 * install that registered the session, so the session's events are judged by that
 * install's code, packs and packages, and its self-protection guards that install, as the
 * session's command hooks would. Everything that may take long (the policy's patterns and
 * expressions, the log's lock, a memory search) runs here, never on the server's own
 * thread: a worker past its deadline is stopped and replaced, and no other session waits.
 *
 * Messages in: `{ type: 'event', id, body }`, `{ type: 'unjudged', body, problem, onError }`
 * (an event the server answered without this worker: counted as the runner counts one).
 * Out: `{ type: 'ready', build }`, `{ type: 'answer', id, status, body, deadlineMs, onError }`,
 * `{ type: 'log', line }`.
 */
import { parentPort, workerData } from 'worker_threads';
import { ENGINE_VERSION } from '../engine/host/engine-version';
import { noteUnjudged } from '../engine/host/fail-open/unjudged';
import { createProjectAnswerer } from '../engine/host/serve/project-answerer';
import type { WorkerData, WorkerReply, WorkerRequest } from '../engine/host/serve/worker-protocol';
import { parseEvent, requireCompiler, runHook } from './hook';

const data = workerData as WorkerData;
const port = parentPort!;
const post = (message: WorkerReply) => port.postMessage(message);

const answerer = createProjectAnswerer({
  projectRoot: data.projectRoot,
  configs: data.configs,
  env: data.env,
  onError: data.onError,
  compiler: requireCompiler,
  runHook,
  cacheDirs: data.cacheDirs,
  log: (line) => post({ type: 'log', line }),
});

/** The policy's deadline_ms and on_error, as it builds now. */
function settings(): { deadlineMs: number | null; onError: 'open' | 'closed' | null } {
  const s = answerer.policy()?.settings;
  return { deadlineMs: s?.deadlineMs ?? null, onError: s?.onError ?? null };
}

port.on('message', (message: WorkerRequest) => {
  if (message.type === 'event') {
    void answerer.answer(message.body).then((answer) => post({ type: 'answer', id: message.id, ...answer, ...settings() }));
    return;
  }
  const event = parseEvent(message.body);
  for (const warning of noteUnjudged({
    env: data.env, dirs: data.cacheDirs, projectRoot: data.projectRoot, event, eventName: event?.hook_event_name ?? null,
    policy: () => answerer.policy(), problems: [message.problem], onError: message.onError, now: Date.now(),
  })) post({ type: 'log', line: warning.message });
});

// The policy is loaded (compiled on a cache miss) before the first event's deadline starts.
post({ type: 'ready', build: ENGINE_VERSION, ...settings() });
