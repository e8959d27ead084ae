/**
 * Who is acting: the first non-empty identity field of the event, prefix stripped, or the
 * main session. An event with an `agent_id` comes from a subagent or a teammate, never
 * from the main session, even when its identity fields are empty (Claude Code's internal
 * subagents send `agent_type: ""`): it is an agent the policy cannot name.
 */
import type { CompiledAgents, HookEvent } from '../types';

/**
 * The acting agent's name, or null when the event names none and the policy has no `main`.
 * @example resolveAgent({ identity: ['agent_type'], stripPrefixes: ['ai-team:'], main: 'hannibal', roles: {}, known: [] },
 *                       { hook_event_name: 'PreToolUse', agent_type: 'ai-team:murdock' }) // 'murdock'
 */
export function resolveAgent(agents: CompiledAgents, event: HookEvent): string | null {
  const identity = Array.isArray(agents.identity) ? agents.identity : [];
  for (let i = 0; i < identity.length; i++) {
    const raw = event[identity[i]];
    if (typeof raw !== 'string' || raw === '') continue;
    const name = stripPrefix(raw, agents.stripPrefixes);
    if (name !== '') return name;
  }
  return hasAgentId(event) ? null : agents.main ?? null;
}

/**
 * True when the event names no agent in any identity field and has no `agent_id`: the main session.
 * @example isMainSession({ identity: ['agent_type'], ... }, { hook_event_name: 'PreToolUse' }) // true
 */
export function isMainSession(agents: CompiledAgents, event: HookEvent): boolean {
  const identity = Array.isArray(agents.identity) ? agents.identity : [];
  for (let i = 0; i < identity.length; i++) {
    const raw = event[identity[i]];
    if (typeof raw === 'string' && stripPrefix(raw, agents.stripPrefixes) !== '') return false;
  }
  return !hasAgentId(event);
}

/** A subagent's or teammate's event: the main session's carry no `agent_id`. */
function hasAgentId(event: HookEvent): boolean {
  return typeof event.agent_id === 'string' && event.agent_id !== '';
}

function stripPrefix(name: string, prefixes: readonly string[] | undefined): string {
  if (!prefixes) return name;
  for (let i = 0; i < prefixes.length; i++) {
    const p = prefixes[i];
    if (p !== '' && name.startsWith(p)) return name.slice(p.length);
  }
  return name;
}
