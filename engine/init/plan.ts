/**
 * Which settings.json hook entries a compiled policy needs: only the events its rules use,
 * each with the narrowest matcher that still lets the runner see every event a rule could
 * apply to. When in doubt a group gets no matcher: an extra runner start costs
 * milliseconds, a missed event silently skips a rule.
 */
import { eventProtocols, type EventProtocol } from '../protocol';
import type { CompiledPolicy, CompiledRule, RegexSource } from '../types';
import { ifRuleFor } from './if-rule';
import { literalOf, matcherFor } from './matcher';
import { isEnsureHook } from './runner';
import type { CommandHook, HookPlan, HooksConfig, MatcherGroup } from './types';

export interface PlanOptions {
  /** The runner handler every group gets. */
  handler: CommandHook;
  /** Also narrow Bash groups with an `if` permission rule where one prefix says it (opt-in). */
  useIf?: boolean;
}

/** Events whose matcher is not compared with the raw field the rules match on. */
const NO_MATCHER_FROM_RULES: Readonly<Record<string, string>> = {
  PreModelSwitch: 'the matcher sees the canonical model name, the rules see to_model as sent',
  PostModelSwitch: 'the matcher sees the canonical model name, the rules see to_model as sent',
};

/**
 * The rules that need entries: all but those that ride along (a built-in rule that judges
 * what other rules route, and routes nothing itself).
 * @example routedRules(policy).some((r) => r.id === 'hookpolicy-server-secrets' && r.tools?.names.includes('Read')) // false
 */
export function routedRules(policy: CompiledPolicy): CompiledRule[] {
  return policy.rules.filter((r) => !r.ridesAlong);
}

/**
 * The hooks object for a policy, in the contract's event order.
 * @example planHooks(policy, { handler }).hooks
 *   // { PreToolUse: [{ matcher: 'Write|Edit', hooks: [handler] }], Stop: [{ hooks: [handler] }] }
 */
export function planHooks(policy: CompiledPolicy, options: PlanOptions): HookPlan {
  const plan: HookPlan = { hooks: {}, notes: [] };
  const routed = routedRules(policy);
  const used = new Set(routed.flatMap((r) => r.events));
  for (const p of eventProtocols()) {
    if (!used.has(p.event)) continue;
    if (p.unsupported) {
      plan.notes.push(`${p.event} is not registered: ${p.unsupported}`);
      continue;
    }
    const rules = routed.filter((r) => r.events.includes(p.event));
    const here = { ...options, handler: handlerFor(p, options.handler) };
    plan.hooks[p.event] = p.tool ? toolGroups(rules, here) : fieldGroups(p, rules, here.handler, plan.notes);
  }
  for (const event of used) {
    if (!eventProtocols().some((p) => p.event === event)) plan.notes.push(`${event} is not a Claude Code event; not registered`);
  }
  return plan;
}

/** The handler for one event: without `onFailure` where Claude Code ignores it (it would promise what it cannot keep). */
function handlerFor(p: EventProtocol, handler: CommandHook): CommandHook {
  if (!p.onFailureIgnored || handler.onFailure === undefined) return handler;
  const { onFailure: _ignored, ...rest } = handler;
  return rest;
}

/**
 * One line per registered group: event, matcher, `if`, and how (an http entry, the entry
 * that starts the policy server), for init's summary.
 * @example describePlan({ Stop: [{ hooks: [h] }] }) // ['Stop: every event']
 */
export function describePlan(hooks: HooksConfig): string[] {
  const lines: string[] = [];
  for (const [event, groups] of Object.entries(hooks)) {
    for (const g of groups) {
      const filter = g.hooks[0]?.if ? ` if ${g.hooks[0].if}` : '';
      const how = (g.hooks[0] as { type?: string } | undefined)?.type === 'http' ? ' (http)' : isEnsureHook(g.hooks[0]) ? ' (starts the policy server)' : '';
      lines.push(`${event}: ${g.matcher === undefined ? 'every event' : `matcher ${g.matcher}`}${filter}${how}`);
    }
  }
  return lines;
}

function toolGroups(rules: CompiledRule[], options: PlanOptions): MatcherGroup[] {
  const handler = options.handler;
  if (rules.some((r) => r.tools === null)) return [{ hooks: [handler] }];
  const names = unique(rules.flatMap((r) => r.tools!.names));
  const patterns = uniqueRegexes(rules.flatMap((r) => r.tools!.patterns));
  if (options.useIf && patterns.length === 0 && names.includes('Bash')) {
    const bashIf = ifRuleFor(rules.filter((r) => r.tools!.names.includes('Bash')));
    if (bashIf) {
      const others = names.filter((n) => n !== 'Bash');
      const groups: MatcherGroup[] = [{ matcher: 'Bash', hooks: [{ ...handler, if: bashIf }] }];
      const rest = matcherFor(others, []);
      if (rest !== null) groups.push({ matcher: rest, hooks: [handler] });
      return groups;
    }
  }
  return [group(matcherFor(names, patterns), handler)];
}

function fieldGroups(p: EventProtocol, rules: CompiledRule[], handler: CommandHook, notes: string[]): MatcherGroup[] {
  const field = p.matcherField;
  if (field === null || NO_MATCHER_FROM_RULES[p.event]) return [{ hooks: [handler] }];
  const perRule = rules.map((r) => r.match.find((m) => m.field === field)?.patterns ?? null);
  const restricted = perRule.every((x) => x !== null);
  if (p.event === 'FileChanged') return [fileChangedGroup(restricted ? (perRule as RegexSource[][]).flat() : null, handler, notes)];
  if (!restricted) return [{ hooks: [handler] }];
  return [group(matcherFor([], uniqueRegexes((perRule as RegexSource[][]).flat())), handler)];
}

/**
 * FileChanged's matcher is also its watch list of literal base names: derive it from
 * `match: { file_path: "*∕NAME" }` patterns when every rule has one, else warn.
 */
function fileChangedGroup(patterns: RegexSource[] | null, handler: CommandHook, notes: string[]): MatcherGroup {
  const names = patterns?.map(watchedName) ?? [null];
  if (names.length > 0 && names.every((n): n is string => n !== null)) return { matcher: unique(names).join('|'), hooks: [handler] };
  notes.push('FileChanged: the matcher is the list of watched file names and cannot be derived from these rules; '
    + 'add one by hand (e.g. ".envrc|.env") or return watchPaths from SessionStart');
  return { hooks: [handler] };
}

/** An exact path or `^.*\/NAME$` (what `*∕NAME` compiles to) -> NAME, when NAME is a plain file name. */
function watchedName(r: RegexSource): string | null {
  const exact = literalOf(r);
  const m = /^\^\.\*(?:\\\/|\/)(.*)\$$/.exec(r.source);
  const name = exact !== null ? exact.slice(exact.lastIndexOf('/') + 1) : m ? literalOf({ source: `^${m[1]}$`, flags: r.flags }) : null;
  return name !== null && /^[A-Za-z0-9_.-]+$/.test(name) ? name : null;
}

function group(matcher: string | null, handler: CommandHook): MatcherGroup {
  return matcher === null ? { hooks: [handler] } : { matcher, hooks: [handler] };
}

function unique<T>(items: T[]): T[] {
  return [...new Set(items)];
}

function uniqueRegexes(items: RegexSource[]): RegexSource[] {
  const seen = new Set<string>();
  return items.filter((r) => {
    const key = `${r.flags}/${r.source}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
