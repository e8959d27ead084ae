/**
 * `policy init --mode http`: the planned runner entries turned into `type: "http"`
 * handlers that reach the policy server, for the events where an HTTP hook can say what
 * the command runner says, plus the SessionStart command hook that starts the server and
 * registers each session (`policy serve --ensure`). The others keep their command handler:
 * SessionStart and Setup accept no HTTP hooks, and the events that block only with exit
 * code 2 (TeammateIdle, TaskCompleted, WorktreeCreate...) have no HTTP equivalent, since
 * an HTTP hook cannot block through its status code. A fail-closed handler keeps its
 * `onFailure: "block"`: a server that is down, slow, or answers anything but a 2xx JSON
 * object then refuses the call (measured, Claude Code 2.1.330).
 */
import { protocolFor } from '../protocol';
import { commandHook, type RunnerCommand } from '../init/runner';

export { ensurePort, isEnsureHook } from '../init/runner';
import type { CommandHook, HooksConfig } from '../init/types';

export interface HttpHook {
  type: 'http';
  url: string;
  timeout?: number;
  onFailure?: 'block';
}

export interface HttpHookGroup {
  matcher?: string;
  hooks: Array<CommandHook | HttpHook>;
}

/** The path the daemon's entries use; it is how init recognises them again. */
export const HTTP_HOOK_PATH = '/policy-hook';

const NO_HTTP_EVENTS: ReadonlySet<string> = new Set(['SessionStart', 'Setup']);

/**
 * @example httpHookUrl(8707) // 'http://127.0.0.1:8707/policy-hook'
 */
export function httpHookUrl(port: number, host = '127.0.0.1'): string {
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}${HTTP_HOOK_PATH}`;
}

/**
 * True for a handler `policy init --mode http` wrote.
 * @example isRunnerHttpHook({ type: 'http', url: 'http://127.0.0.1:8707/policy-hook' }) // true
 */
export function isRunnerHttpHook(handler: unknown): boolean {
  if (!handler || typeof handler !== 'object') return false;
  const h = handler as Record<string, unknown>;
  if (h.type !== 'http' || typeof h.url !== 'string') return false;
  return /^https?:\/\/[^/]+\/policy-hook$/.test(h.url);
}

/**
 * Why an event must stay a command hook in http mode, or null when HTTP can carry it.
 * @example commandOnlyReason('TeammateIdle') // 'it blocks only with exit code 2, ...'
 */
export function commandOnlyReason(event: string): string | null {
  if (NO_HTTP_EVENTS.has(event)) return 'Claude Code accepts no http hooks for it';
  const p = protocolFor(event);
  if (p?.block === 'exit2') return 'it blocks only with exit code 2, which an http hook cannot give';
  return null;
}

/**
 * The hooks of a plan with every handler of an HTTP-capable event replaced by an http
 * handler to `url` (same matcher, `if` and timeout), and a note per event kept on command.
 * @example toHttpHooks({ Stop: [{ hooks: [cmd] }] }, 'http://127.0.0.1:8707/policy-hook').hooks.Stop
 *   // [{ hooks: [{ type: 'http', url: 'http://127.0.0.1:8707/policy-hook', timeout: 15 }] }]
 */
export function toHttpHooks(hooks: HooksConfig, url: string): { hooks: Record<string, HttpHookGroup[]>; notes: string[] } {
  const out: Record<string, HttpHookGroup[]> = {};
  const notes: string[] = [];
  for (const [event, groups] of Object.entries(hooks)) {
    const reason = commandOnlyReason(event);
    if (reason) {
      out[event] = groups;
      notes.push(`${event} stays a command hook: ${reason}`);
      continue;
    }
    out[event] = groups.map((g) => ({ ...g, hooks: g.hooks.map((h) => toHttp(h, url)) }));
  }
  return { hooks: out, notes };
}

function toHttp(handler: CommandHook, url: string): HttpHook & { if?: string } {
  const hook: HttpHook & { if?: string } = { type: 'http', url };
  if (handler.if !== undefined) hook.if = handler.if;
  if (handler.timeout !== undefined) hook.timeout = handler.timeout;
  if (handler.onFailure !== undefined) hook.onFailure = handler.onFailure;
  return hook;
}

/** Seconds Claude Code waits for the SessionStart hook: a server's first start compiles the policy. */
const ENSURE_TIMEOUT = 30;

/**
 * The SessionStart command hook that starts the server on `port` and registers the
 * session: the runner's own program and bin, `serve --ensure --port N` and the runner's
 * --config / --on-error arguments.
 * @example ensureHook({ argv: ['node', '/p/bin/policy.cjs'], hookArgs: ['--on-error', 'closed'], form: 'exec' }, 8707)
 *   // { type: 'command', command: 'node', args: ['/p/bin/policy.cjs', 'serve', '--ensure', '--port', '8707', '--on-error', 'closed'], timeout: 30 }
 */
export function ensureHook(runner: RunnerCommand, port: number): CommandHook {
  return { ...commandHook([...runner.argv, 'serve', '--ensure', '--port', String(port), ...runner.hookArgs], runner.form), timeout: ENSURE_TIMEOUT };
}

/**
 * The hooks with the ensure hook added to SessionStart, in a group of its own with no
 * matcher (every source: startup, resume, clear, compact registers its session).
 * @example withEnsureHook({}, hook).SessionStart // [{ hooks: [hook] }]
 */
export function withEnsureHook<T extends Record<string, Array<{ matcher?: string; hooks: unknown[] }>>>(hooks: T, hook: CommandHook): T {
  const sessionStart = [...(hooks.SessionStart ?? []), { hooks: [hook] }];
  return { ...hooks, SessionStart: sessionStart };
}
