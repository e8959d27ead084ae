/**
 * The policy server's side of a session's worker (cli/serve-worker-main.ts, a worker
 * thread loaded from the install that registered the session, started as the session
 * registers). The server's own thread only routes: every event is judged in the worker,
 * under a hard deadline. A worker that has not answered within the policy's deadline_ms +
 * `graceMs` (a pattern that backtracks, an expression that never ends, a lock that is never
 * released) is stopped and a new one takes its place; its pending events are answered per
 * on_error, exactly as the command runner answers a deadline it passed, and counted as
 * such by the new worker. The clock starts when the worker has loaded its policy (as the
 * runner's deadline starts after the policy is loaded), within `startMs` of its start. No
 * event of another session waits for it: each session has its own worker.
 */
import { Worker } from 'worker_threads';
import { diagnostic } from '../../diagnostics';
import { renderFailure } from '../../render';
import type { Diagnostic } from '../../types';
import { eventNameOf, httpAnswer, type HttpAnswer, type ProjectAnswerer } from './project-answerer';
import type { WorkerData, WorkerReply, WorkerRequest } from './worker-protocol';

export interface SessionWorkerOptions {
  /** The worker's script: `<install>/dist/serve-worker.cjs` of the session's install. */
  script: string;
  data: WorkerData;
  /** The server's build: a worker of another build is not used. */
  build: string;
  log?: (line: string) => void;
  /** How long past deadline_ms a worker may take before it is stopped (default 1000 ms). */
  graceMs?: number;
  /** deadline_ms until the worker has said its policy's (default 5000, the language's default). */
  deadlineMs?: number;
  /** Largest heap of a worker, in MB (default 1024): one session cannot take the machine's memory. */
  maxHeapMb?: number;
  /** How long a worker may take to load its policy (default 30 s: a first compile of a large policy). */
  startMs?: number;
}

/** The server's own limit for a policy that sets none (deadline_ms: 0). */
const NO_DEADLINE_MS = 30_000;

interface Pending {
  body: string;
  resolve: (answer: HttpAnswer) => void;
  timer: NodeJS.Timeout | null;
}

interface Running {
  worker: Worker;
  pending: Map<number, Pending>;
  /** Set once the worker has loaded its policy: the deadline runs from then. */
  ready: boolean;
  /** Stops the worker when it does not load its policy in time. */
  startTimer: NodeJS.Timeout;
}

/**
 * @example const w = createSessionWorker({ script: '/p/node_modules/hookpolicy/dist/serve-worker.cjs', data, build });
 *   await w.answer(body) // { status: 200, body: '{"hookSpecificOutput":...}' }
 */
export function createSessionWorker(options: SessionWorkerOptions): ProjectAnswerer {
  const log = options.log ?? (() => undefined);
  const graceMs = options.graceMs ?? 1000;
  let deadlineMs = options.deadlineMs ?? 5000;
  let onError: 'open' | 'closed' = options.data.onError ?? 'open';
  let running: Running | null = null;
  let nextId = 1;
  let closed = false;
  /** Events answered without a worker, to be counted by the next one. */
  const unjudged: WorkerRequest[] = [];

  const fail = (body: string, problem: Diagnostic): HttpAnswer => {
    const eventName = eventNameOf(body);
    return httpAnswer(renderFailure(eventName, [problem], onError), eventName);
  };

  /** Ends a worker: its pending events are answered per on_error with `problem`, and counted by the next worker. */
  const retire = (r: Running, problem: (body: string) => Diagnostic) => {
    if (running === r) running = null;
    clearTimeout(r.startTimer);
    void r.worker.terminate();
    for (const [, p] of r.pending) {
      if (p.timer) clearTimeout(p.timer);
      const d = problem(p.body);
      p.resolve(fail(p.body, d));
      unjudged.push({ type: 'unjudged', body: p.body, problem: d, onError });
    }
    r.pending.clear();
  };

  /** The hard deadline of one event, armed once the worker has loaded its policy. */
  const arm = (r: Running, p: Pending) => {
    // A policy without a deadline (deadline_ms: 0) still gets one here: the server must answer.
    const limit = (deadlineMs > 0 ? deadlineMs : NO_DEADLINE_MS) + graceMs;
    p.timer = setTimeout(() => {
      log(`a worker ran past deadline_ms (${deadlineMs} ms) + ${graceMs} ms: stopped, a new one takes its place`);
      retire(r, () => diagnostic('deadline-exceeded', `evaluating the event took longer than deadline_ms (${deadlineMs} ms); the policy server stopped it`));
    }, limit);
  };

  const settle = (m: { deadlineMs: number | null; onError: 'open' | 'closed' | null }) => {
    if (m.deadlineMs !== null) deadlineMs = m.deadlineMs;
    if (m.onError !== null) onError = options.data.onError ?? m.onError;
  };

  const start = (): Running => {
    const worker = new Worker(options.script, {
      workerData: options.data,
      env: { ...options.data.env },
      resourceLimits: { maxOldGenerationSizeMb: options.maxHeapMb ?? 1024 },
    });
    const startMs = options.startMs ?? 30_000;
    const r: Running = {
      worker,
      pending: new Map(),
      ready: false,
      startTimer: setTimeout(() => retire(r, () => diagnostic('internal-error', `the session's worker did not load its policy within ${startMs} ms: the event was not judged`)), startMs),
    };
    worker.on('message', (m: WorkerReply) => {
      if (m.type === 'log') return log(m.line);
      if (m.type === 'ready') {
        settle(m);
        if (m.build !== options.build) {
          const why = `the install ${options.script} is of hookpolicy build ${m.build}, this server of ${options.build} (it was replaced during the session: start a new session)`;
          log(why);
          return retire(r, () => diagnostic('internal-error', why));
        }
        clearTimeout(r.startTimer);
        r.ready = true;
        for (const p of r.pending.values()) arm(r, p);
        return;
      }
      const p = r.pending.get(m.id);
      if (!p) return;
      r.pending.delete(m.id);
      if (p.timer) clearTimeout(p.timer);
      settle(m);
      p.resolve({ status: m.status, body: m.body });
    });
    const gone = (why: string) => retire(r, () => diagnostic('internal-error', `the session's worker stopped (${why}): the event was not judged`));
    worker.on('error', (e) => {
      log(`worker error: ${e.message}`);
      gone(e.message);
    });
    worker.on('exit', (code) => gone(`exit ${code}`));
    for (const request of unjudged.splice(0)) worker.postMessage(request);
    return r;
  };

  // Started now, as the session registers: its first event does not wait for the worker to load.
  running = start();

  return {
    answer(body) {
      if (closed) return Promise.resolve(fail(body, diagnostic('internal-error', 'the policy server is stopping')));
      const r = running ?? (running = start());
      const id = nextId++;
      return new Promise<HttpAnswer>((resolve) => {
        const p: Pending = { body, resolve, timer: null };
        r.pending.set(id, p);
        if (r.ready) arm(r, p);
        r.worker.postMessage({ type: 'event', id, body } satisfies WorkerRequest);
      });
    },
    policy: () => null,
    close() {
      closed = true;
      if (running) retire(running, () => diagnostic('internal-error', 'the policy server is stopping'));
    },
  };
}
