/**
 * `policy init --mode http`: the planned runner entries turned into `type: "http"`
 * handlers that reach a `policy serve` daemon, for the events where an HTTP hook can say
 * what the command runner says. The others keep their command handler:
 * SessionStart and Setup accept no HTTP hooks, and the events that block only with exit
 * code 2 (TeammateIdle, TaskCompleted, WorktreeCreate...) have no HTTP equivalent, since
 * an HTTP hook cannot block through its status code.
 */
import { protocolFor } from '../protocol';
import type { CommandHook, HooksConfig } from '../init/types';

export interface HttpHook {
  type: 'http';
  url: string;
  timeout?: number;
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
  return hook;
}
