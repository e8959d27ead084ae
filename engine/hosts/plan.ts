/**
 * Which hooks a policy needs in a host's own configuration: Claude Code's plan
 * (engine/init/plan.ts: the events the rules use, the narrowest matchers), read in the
 * host's terms. An event the host does not have is a note, never a silent gap; a matcher
 * the host would read differently is left out (the runner then sees every call of the
 * event, which costs a process, never a missed rule).
 */
import { escapeRegex } from '../init/matcher';
import { planHooks, routedRules } from '../init/plan';
import type { CommandHook } from '../init/types';
import type { CompiledPolicy } from '../types';
import { CODEX_EVENTS } from './codex/events';
import { geminiEventFor } from './gemini/events';
import { geminiToolsFor } from './gemini/tools';
import type { OtherHostName } from './types';

/** One matcher group to register: the host's event, its matcher (none: every call). */
export interface HostGroup {
  /** The event as the host's configuration names it. */
  event: string;
  /** The Claude Code event the rules name. */
  ruleEvent: string;
  matcher?: string;
}

export interface HostPlan {
  groups: HostGroup[];
  /** What cannot be registered, and why: each a line init prints and lint reports. */
  notes: Array<{ event: string; rules: string[]; message: string }>;
}

/** Codex reads a matcher only on these events (hooks/src/events/common.rs); elsewhere it ignores it. */
const CODEX_MATCHED = new Set(['PreToolUse', 'PermissionRequest', 'PostToolUse', 'SessionStart']);

/** Gemini's lifecycle matchers are compared as exact strings; its tool matchers are regexes. */
const EXACT_WORD = /^[A-Za-z0-9_-]+$/;

const PLACEHOLDER: CommandHook = { type: 'command', command: 'policy', args: ['hook'] };

/**
 * The hooks a host needs for a policy.
 * @example planHostHooks(policy, 'gemini').groups // [{ event: 'BeforeTool', ruleEvent: 'PreToolUse', matcher: '^(?:write_file|replace)$' }]
 */
export function planHostHooks(policy: CompiledPolicy, host: OtherHostName): HostPlan {
  const claude = planHooks(policy, { handler: PLACEHOLDER });
  const plan: HostPlan = { groups: [], notes: [] };
  const rulesOn = (event: string) => policy.rules.filter((r) => r.events.includes(event) && !r.id.startsWith('hookpolicy-')).map((r) => r.id);
  for (const [event, groups] of Object.entries(claude.hooks)) {
    const hostEvent = host === 'codex' ? (CODEX_EVENTS.includes(event) ? event : null) : host === 'gemini' ? geminiEventFor(event) : null;
    if (hostEvent === null) {
      const rules = rulesOn(event);
      if (rules.length > 0) plan.notes.push({ event, rules, message: `${hostTitle(host)} has no ${event} event: ${listRules(rules)} never ${rules.length === 1 ? 'fires' : 'fire'} there` });
      continue;
    }
    const matchers = host === 'codex'
      ? groups.map((g) => (CODEX_MATCHED.has(event) ? g.matcher : undefined))
      : [geminiMatcher(policy, event, groups.map((g) => g.matcher))];
    for (const matcher of new Set(matchers)) plan.groups.push(matcher === undefined ? { event: hostEvent, ruleEvent: event } : { event: hostEvent, ruleEvent: event, matcher });
  }
  return plan;
}

/** The host's name as users know it. */
export function hostTitle(host: OtherHostName): string {
  return host === 'codex' ? 'Codex CLI' : host === 'gemini' ? 'Gemini CLI' : 'GitHub Copilot CLI';
}

function listRules(rules: string[]): string {
  return rules.length === 1 ? `rule ${rules[0]}` : `rules ${rules.join(', ')}`;
}

/**
 * Gemini's matcher for an event: for tool events an anchored regex of Gemini's tool names
 * (from the rules' exact tool names), for the others the one exact word Claude Code's plan
 * used; none when the rules use a pattern, a tool Gemini has no name for, or several words.
 */
function geminiMatcher(policy: CompiledPolicy, event: string, claudeMatchers: Array<string | undefined>): string | undefined {
  if (event === 'PreToolUse' || event === 'PostToolUse') {
    const rules = routedRules(policy).filter((r) => r.events.includes(event));
    if (rules.some((r) => r.tools === null || r.tools.patterns.length > 0)) return undefined;
    // A name with no Gemini counterpart stays as written: a rule may name a Gemini tool (save_memory) as it is.
    const names = [...new Set(rules.flatMap((r) => r.tools!.names.flatMap((n) => (geminiToolsFor(n).length > 0 ? geminiToolsFor(n) : [n]))))];
    return names.length === 0 ? undefined : `^(?:${names.map(escapeRegex).join('|')})$`;
  }
  const [only] = claudeMatchers;
  return claudeMatchers.length === 1 && only !== undefined && EXACT_WORD.test(only) ? only : undefined;
}
