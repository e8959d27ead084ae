/**
 * Who an event's records belong to and whose records a `count` or `last` reads: the
 * event's session_id, and the acting agent as Decision.agent names it (the policy's
 * `agents.main` name, or null, for the main session). The runner stores each record with
 * the same session and agent, so scope `agent` finds what this agent recorded.
 */
import type { HookEvent, MemoryWho } from '../types';

/**
 * The event's session and its resolved agent, as the memory store keys them.
 * @example whoOf({ hook_event_name: 'Stop', session_id: 's1' }, null) // { session: 's1', agent: null }
 */
export function whoOf(event: HookEvent, agent: string | null): MemoryWho {
  const session = typeof event.session_id === 'string' && event.session_id !== '' ? event.session_id : null;
  return { session, agent };
}
