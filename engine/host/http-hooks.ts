/**
 * `policy init --mode http`: the planned runner entries turned into `type: "http"`
 * handlers that reach the policy server, for the events where an HTTP hook can say what
 * the command runner says, plus the SessionStart command hook that starts the server and
 * registers each session (`policy serve --ensure`). The others keep their command handler:
 * SessionStart and Setup accept no HTTP hooks, and the events that block only with exit
 * code 2 (TeammateIdle, TaskCompleted, WorktreeCreate...) have no HTTP equivalent, since
 * an HTTP hook cannot block through its status code. UserPromptSubmit keeps its command
 * handler too, beside a second ensure hook: a server stopped mid-session (an agent can
 * `pkill` it) is started again at the next prompt, and the prompt's own rules do not wait
 * for it.
 *
 * Every http handler says `onFailure: "block"`, whatever `on_error` says: a server that is
 * down, slow, or answers anything but a 2xx JSON object then refuses the call (measured,
 * Claude Code 2.1.330). `on_error: open` is about a policy that cannot decide; a server
 * that does not answer may have been stopped by the agent it confines, and letting the
 * calls through then would let that agent switch the guard off.
 */
import { protocolFor } from '../protocol';
import { commandHook, ensurePort, isEnsureHook, isRunnerHook, type RunnerCommand } from '../init/runner';

export { ensurePort, isEnsureHook };
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

/** Events whose ensure hook (re)starts the server: every session start, and every prompt. */
export const ENSURE_EVENTS: readonly string[] = ['SessionStart', 'UserPromptSubmit'];

const RESTART_REASON = 'each prompt also starts the policy server again when it was stopped, so the prompt\'s own rules do not wait for it';

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
  if (event === 'UserPromptSubmit') return RESTART_REASON;
  const p = protocolFor(event);
  if (p?.block === 'exit2') return 'it blocks only with exit code 2, which an http hook cannot give';
  return null;
}

/**
 * The hooks of a plan with every handler of an HTTP-capable event replaced by an http
 * handler to `url` (same matcher, `if` and timeout, and `onFailure: "block"`), and a note
 * per event kept on command.
 * @example toHttpHooks({ Stop: [{ hooks: [cmd] }] }, 'http://127.0.0.1:8707/policy-hook').hooks.Stop
 *   // [{ hooks: [{ type: 'http', url: 'http://127.0.0.1:8707/policy-hook', timeout: 15, onFailure: 'block' }] }]
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
  hook.onFailure = 'block';
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
 * The hooks with the ensure hook added to SessionStart and UserPromptSubmit, in a group of
 * its own with no matcher: every source (startup, resume, clear, compact) registers its
 * session, and every prompt starts a stopped server again.
 * @example withEnsureHook({}, hook) // { SessionStart: [{ hooks: [hook] }], UserPromptSubmit: [{ hooks: [hook] }] }
 */
type Groups = Array<{ matcher?: string; hooks: unknown[] }>;

export function withEnsureHook<T extends Record<string, Groups>>(hooks: T, hook: CommandHook): T & Record<'SessionStart' | 'UserPromptSubmit', Groups> {
  const out: Record<string, Groups> = { ...hooks };
  for (const event of ENSURE_EVENTS) out[event] = [...(hooks[event] ?? []), { hooks: [hook] }];
  return out as T & Record<'SessionStart' | 'UserPromptSubmit', Groups>;
}

/**
 * How settings already route the runner: `http` (with the port of its ensure entries) when
 * an entry of the http mode is there, `command` when only command entries are, null when
 * none is (a first install). A new `policy init` without --mode keeps what it finds.
 * @example installedMode({ hooks: { SessionStart: [{ hooks: [ensureHook(runner, 9123)] }] } }) // { mode: 'http', port: 9123 }
 */
export function installedMode(settings: unknown): { mode: 'http'; port: number | null } | { mode: 'command' } | null {
  const table = (settings as { hooks?: unknown } | null)?.hooks;
  if (!table || typeof table !== 'object') return null;
  let http = false;
  let command = false;
  let port: number | null = null;
  for (const groups of Object.values(table as Record<string, unknown>)) {
    if (!Array.isArray(groups)) continue;
    for (const g of groups) {
      const hooks = (g as { hooks?: unknown } | null)?.hooks;
      if (!Array.isArray(hooks)) continue;
      for (const h of hooks) {
        if (isEnsureHook(h)) port ??= ensurePort(h);
        if (isRunnerHttpHook(h) || isEnsureHook(h)) http = true;
        else if (isRunnerHook(h)) command = true;
      }
    }
  }
  if (http) return { mode: 'http', port };
  return command ? { mode: 'command' } : null;
}
