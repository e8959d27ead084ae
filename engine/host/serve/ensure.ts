/**
 * `policy serve --ensure`, the SessionStart command hook of `policy init --mode http`:
 * makes sure this user's policy server of this build listens on the port the http entries
 * name (starting it when nothing does), and registers the session with it, so that the
 * session's http hooks are answered by its own project's policy.
 *
 * It never registers with, or sends anything to, a listener that cannot prove it holds
 * this user's token: that is another program, another user's server, or one put there to
 * answer in the policy's place (`foreign`, and so is one that takes the connection but
 * stays silent for the whole wait). On Linux the token is not enough: the listening
 * process itself must be a policy server this hook would have started, running an
 * install that holds what the hook's own holds (verify-server.ts). One that is
 * hookpolicy's server by its command line but fails that (started with NODE_OPTIONS, its
 * files changed since it started), or that holds the port and does not answer (stopped,
 * `kill -STOP`), is stopped and replaced. It runs at every SessionStart and every
 * UserPromptSubmit, so a server stopped mid-session is started again at the next prompt.
 */
import { toAbsolutePosix } from '../project-root';
import { portHolder, registerSession, stopServer, type PortHolder } from './client';
import { isAncestor, processStart } from './processes';
import { isSessionId, type SessionRegistration } from './registry';
import { serveState, serveToken } from './state';
import { judgeProcess, listenerPid, verifyServer, type Verifier } from './verify-server';

export interface EnsureOptions {
  port: number;
  /** The SessionStart event, as Claude Code wrote it on stdin. */
  stdin: string;
  env: Readonly<Record<string, string | undefined>>;
  cwd: string;
  /** --config files of the entries (as written there) and --on-error. */
  configs: string[];
  onError: 'open' | 'closed' | null;
  /** This engine's build: only a server of the same build may answer for it. */
  build: string;
  /** The hookpolicy package folder this hook runs from (a real path): the session's events are judged by its code. */
  install: string;
  /** The node running this hook (process.execPath). */
  node: string;
  /** Starts a server on the port, detached (the CLI spawns `policy serve --sessions`). */
  start: (stateDir: string) => void;
  /** How long to wait for a started server (default 10 s). */
  waitMs?: number;
}

export type EnsureOutcome =
  | { ok: true; started: boolean; pid: number; session: string }
  | { ok: false; reason: string; foreign: boolean; claudePid: number | null };

/**
 * @example await ensureServer({ port: 8707, stdin, env: process.env, cwd, configs: [], onError: 'closed', build, start })
 *   // { ok: true, started: true, pid: 4242, session: '5f0c...' }
 */
export async function ensureServer(o: EnsureOptions): Promise<EnsureOutcome> {
  const claudePid = claudeProcess(o.env);
  const fail = (reason: string): EnsureOutcome => ({ ok: false, reason, foreign: false, claudePid });
  const event = parseEvent(o.stdin);
  const session = event?.session_id;
  if (!isSessionId(session)) return fail('the SessionStart event names no session (session_id)');
  const state = serveState(o.env);
  if (state.dir === null) return fail(state.problem);
  let token: string;
  try {
    token = serveToken(state.dir);
  } catch (e) {
    return fail((e as Error).message);
  }
  const projectRoot = toAbsolutePosix(o.env.CLAUDE_PROJECT_DIR || (typeof event?.cwd === 'string' ? event.cwd : '') || o.cwd, o.cwd);
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(o.env)) if (typeof v === 'string') env[k] = v;
  const ownPid = claudePid ?? process.ppid;
  const registration: SessionRegistration = { session, projectRoot, configs: o.configs, onError: o.onError, pid: ownPid, pidStart: processStart(ownPid), env, install: o.install };
  const verifier: Verifier = { port: o.port, node: o.node, pathVariable: o.env.PATH ?? '', install: o.install };
  // A server that was stopping (idle) as this session started refuses or drops the registration: start again.
  for (let attempt = 1; ; attempt++) {
    const outcome = await attemptOnce(o, state.dir, token, registration, verifier);
    if (outcome.ok) return { ok: true, started: outcome.started, pid: outcome.pid, session };
    if (!outcome.retry || attempt >= 3) return { ok: false, reason: outcome.reason, foreign: outcome.foreign, claudePid };
    await new Promise((r) => setTimeout(r, 200));
  }
}

type Attempt = { ok: true; started: boolean; pid: number } | { ok: false; reason: string; foreign: boolean; retry: boolean };

/** How long a listener that /proc shows to be hookpolicy's server may stay silent before it is taken for stopped. */
const SILENT_SERVER_MS = 2000;

async function attemptOnce(o: EnsureOptions, stateDir: string, token: string, registration: SessionRegistration, verifier: Verifier): Promise<Attempt> {
  const fail = (reason: string, foreign = false, retry = false): Attempt => ({ ok: false, reason, foreign, retry });
  const waitMs = o.waitMs ?? 10_000;
  let holder = await portHolder(o.port, token, SILENT_SERVER_MS);
  // A server of ours that /proc shows cannot be trusted, or that holds the port and says nothing: replaced.
  const checked = await replaceSuspect(o.port, token, holder, verifier);
  if (checked.after !== null) holder = checked.after;
  // A listener that takes the connection and says nothing may be a server of ours on a loaded machine: ask again.
  // Still silent after the wait, it is treated as foreign: it may answer the http entries while it will not greet us.
  if (holder.kind === 'silent') holder = await waitFor(o.port, token, (h) => h.kind !== 'silent', waitMs);
  if (holder.kind === 'silent') return fail(`what listens on port ${o.port} does not answer: ${holder.why}`, true);
  if (holder.kind === 'ours' && holder.build !== o.build) {
    if (holder.sessions > 0) return fail(`port ${o.port} is held by this user's policy server of another hookpolicy build (${holder.build}, pid ${holder.pid}) while ${holder.sessions} session(s) use it; give this project another port (policy init --mode http --port N)`);
    await stopServer(o.port, token).catch(() => false);
    holder = await waitFor(o.port, token, (h) => h.kind !== 'ours' || h.build === o.build, 3000);
    if (holder.kind === 'silent') return fail(`what listens on port ${o.port} does not answer: ${holder.why}`, true);
    if (holder.kind === 'ours' && holder.build !== o.build) return fail(`this user's policy server of another build (${holder.build}, pid ${holder.pid}) on port ${o.port} did not stop`);
  }
  if (holder.kind === 'foreign') return fail(foreignReason(o.port, holder), true);
  let started = false;
  if (holder.kind === 'none') {
    o.start(stateDir);
    started = true;
    holder = await waitFor(o.port, token, (h) => h.kind !== 'none' && h.kind !== 'silent', waitMs);
    if (holder.kind === 'none') return fail(`the policy server did not start on port ${o.port} (its log: ${stateDir}/port-${o.port}/server.log)`);
    if (holder.kind === 'silent') return fail(`what listens on port ${o.port} does not answer: ${holder.why} (the server's log: ${stateDir}/port-${o.port}/server.log)`, true);
    if (holder.kind === 'foreign') return fail(foreignReason(o.port, holder), true);
    if (holder.build !== o.build) return fail(`port ${o.port} was taken by this user's policy server of another build (${holder.build}) meanwhile`);
  }
  const verdict = checked.trusted === holder.pid ? null : verifyServer(holder.pid, verifier);
  if (verdict?.kind === 'foreign' || verdict?.kind === 'suspect') return fail(verdict.why, true);
  let registered;
  try {
    registered = await registerSession(o.port, token, registration, 10_000);
  } catch (e) {
    return fail(`the policy server did not take the session: ${(e as Error).message}`, false, true);
  }
  if (!registered.ok) return fail(`the policy server did not take the session: ${registered.reason}`, false, registered.status === 503);
  return { ok: true, started, pid: holder.pid };
}

/**
 * Stops the listener on the port when /proc shows it is hookpolicy's server and it cannot
 * be trusted (verify-server.ts), or holds the port without answering. `after`: what holds
 * the port once it is stopped (null: nothing was stopped); `trusted`: the pid of a server
 * of ours that passed the checks.
 */
async function replaceSuspect(port: number, token: string, holder: PortHolder, verifier: Verifier): Promise<{ after: PortHolder | null; trusted: number | null }> {
  let pid: number | null = null;
  let why = '';
  if (holder.kind === 'ours') {
    const verdict = verifyServer(holder.pid, verifier);
    if (verdict.kind !== 'suspect') return { after: null, trusted: verdict.kind === 'trusted' ? holder.pid : null };
    pid = holder.pid;
    why = verdict.why;
  } else if (holder.kind === 'silent' || holder.kind === 'foreign') {
    const listener = listenerPid(port);
    const verdict = listener === null ? null : judgeProcess(listener, verifier);
    if (verdict?.kind === 'suspect') why = verdict.why;
    // Ours by every /proc check, yet it does not answer, or not with this user's token (made anew since): replaced too.
    else if (verdict?.kind === 'trusted') why = `hookpolicy's server pid ${listener} holds the port and ${holder.kind === 'silent' ? 'does not answer' : 'cannot prove this user\'s token'}`;
    else return { after: null, trusted: null };
    pid = listener;
  }
  if (pid === null) return { after: null, trusted: null };
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    return { after: null, trusted: null };
  }
  process.stderr.write(`hookpolicy: ${why}: stopped, a new server takes its place\n`);
  return { after: await waitFor(port, token, (h) => h.kind === 'none', 3000), trusted: null };
}

/** Claude Code's pid: $CLAUDE_PID when it is this hook's parent or an ancestor, else null. */
function claudeProcess(env: Readonly<Record<string, string | undefined>>): number | null {
  const pid = Number(env.CLAUDE_PID);
  return Number.isInteger(pid) && pid > 1 && isAncestor(pid) ? pid : null;
}

function foreignReason(port: number, holder: Extract<PortHolder, { kind: 'foreign' }>): string {
  const owner = holder.owner === null ? '' : holder.owner === process.getuid?.() ? ' (a process of this user)' : ` (uid ${holder.owner})`;
  return `something else listens on 127.0.0.1:${port}${owner}: ${holder.why}`;
}

async function waitFor(port: number, token: string, done: (h: PortHolder) => boolean, ms: number): Promise<PortHolder> {
  const until = Date.now() + ms;
  for (;;) {
    const h = await portHolder(port, token, 2000);
    if (done(h) || Date.now() >= until) return h;
    await new Promise((r) => setTimeout(r, 50));
  }
}

function parseEvent(stdin: string): { session_id?: unknown; cwd?: unknown } | null {
  try {
    const v = JSON.parse(stdin) as unknown;
    return v && typeof v === 'object' ? (v as { session_id?: unknown; cwd?: unknown }) : null;
  } catch {
    return null;
  }
}
