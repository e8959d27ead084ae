/**
 * Per-event views of a compiled policy, for the one-shot runner. Most of a big policy's
 * artefact is rules the event at hand cannot reach (1,000 rules make a ~580 KB artefact,
 * and parsing it alone costs ~3 ms), so beside the full artefact the cache keeps a small
 * head (settings, agents, the sources' fingerprints) and one view per event, and per tool
 * that rules name on it, and per agent acting: the rules that can apply, in policy order,
 * with their own index. The runner then reads the head and one view.
 */
import { isMainSession, resolveAgent } from '../../evaluate/agent';
import { agentsFailure } from '../../evaluate/conditions';
import { anyMatch } from '../../evaluate/regex';
import { buildRuleIndex } from '../../rule-index';
import type { CompiledAgents, CompiledPolicy, CompiledRule, HookEvent, RuleIndex } from '../../types';

/**
 * Who acts, as the evaluator resolves it from the event (the agent, and whether it is the
 * main session). A view cut for someone holds only the rules that can apply to them: a
 * Write on a policy of 1,000 rules has ~300 candidates, most of them for other agents,
 * and each is parsed at every event otherwise.
 */
export interface ViewWho {
  agent: string | null;
  main: boolean;
}

/** One view: what the runner needs for `event` (and `tool`, when the view is a tool's). */
export interface PolicyView {
  /** The build it belongs to; a view from another build is never used. */
  build: string;
  event: string;
  /** The tool it was cut for, or null for the event's other tools and tool-less events. */
  tool: string | null;
  /** Whom it was cut for; absent: every agent's rules. */
  who?: ViewWho;
  rules: CompiledRule[];
  index: RuleIndex;
}

/**
 * Who acts in `event`, as evaluate.ts resolves it, as far as a view can tell them apart:
 * an agent that no rule names (`named`: namedAgents) is `agent: null`, like no agent at
 * all, since every rule with an agents condition leaves both out. So the agents a policy
 * does not name share one view per event and tool, however many names they come with,
 * instead of each name adding its own files to the cache until the next build.
 * @example whoOf(policy.agents, ['ba'], { hook_event_name: 'PreToolUse', agent_type: 'ba' }) // { agent: 'ba', main: false }
 * @example whoOf(policy.agents, ['ba'], { hook_event_name: 'PreToolUse', agent_type: 'helper-7' }) // { agent: null, main: false }
 */
export function whoOf(agents: CompiledAgents, named: readonly string[], event: HookEvent): ViewWho {
  const agent = resolveAgent(agents, event);
  return { agent: agent !== null && named.includes(agent) ? agent : null, main: isMainSession(agents, event) };
}

/**
 * Every agent a rule's agents condition lists (roles expanded when compiled), sorted: the
 * agents whoOf tells apart.
 * @example namedAgents(policy.rules) // ['ba', 'murdock']
 */
export function namedAgents(rules: readonly CompiledRule[]): string[] {
  return [...new Set(rules.flatMap((r) => r.agents ?? []))].sort();
}

/** For each event that has rules, the tools with a view of their own. */
export type ViewCatalog = Record<string, string[]>;

/**
 * For each event with rules, the tools that get a view of their own.
 * @example viewCatalog(policy) // { PreToolUse: ['Bash', 'Write'], Stop: [] }
 */
export function viewCatalog(policy: CompiledPolicy): ViewCatalog {
  const catalog: ViewCatalog = {};
  for (const [event, bucket] of Object.entries(policy.index.byEvent)) catalog[event] = Object.keys(bucket.byTool);
  return catalog;
}

/**
 * The view of `policy` for `event` and `tool` (a tool of the catalog, or null for the
 * event's other tools and tool-less events); null when the event has no rules.
 * @example policyView(policy, 'b1', 'PreToolUse', 'Bash')?.rules // the rules a Bash call can meet
 */
export function policyView(policy: CompiledPolicy, build: string, event: string, tool: string | null, who?: ViewWho): PolicyView | null {
  const bucket = Object.prototype.hasOwnProperty.call(policy.index.byEvent, event) ? policy.index.byEvent[event] : undefined;
  if (!bucket) return null;
  // Other tools can meet any patterned rule; a tool-less event meets only anyTool rules.
  const indices = tool === null
    ? [...bucket.anyTool, ...bucket.patterned]
    : [...bucket.anyTool, ...(bucket.byTool[tool] ?? []), ...bucket.patterned.filter((i) => anyMatch(policy.rules[i].tools?.patterns ?? [], tool))];
  const all = [...new Set(indices)].sort((a, b) => a - b).map((i) => policy.rules[i]);
  if (!who) return { build, event, tool, rules: all, index: buildRuleIndex(all) };
  // A rule left out would fail its agents condition at this event: not matched either way.
  const rules = all.filter((r) => agentsFailure(r, who.agent, who.main) === null);
  return { build, event, tool, who, rules, index: buildRuleIndex(rules) };
}

/**
 * Every view of `policy`, and the catalog that says which exist.
 * @example policyViews(policy, 'b1').catalog // { PreToolUse: ['Bash', 'Write'], Stop: [] }
 */
export function policyViews(policy: CompiledPolicy, build: string): { catalog: ViewCatalog; views: PolicyView[] } {
  const catalog = viewCatalog(policy);
  const views = Object.entries(catalog).flatMap(([event, tools]) => [null, ...tools].map((tool) => policyView(policy, build, event, tool) as PolicyView));
  return { catalog, views };
}

/**
 * The policy as the runner sees it for one view: the head's settings and agents, the
 * view's rules and index.
 */
export function policyFromView(head: CompiledPolicy, view: PolicyView | null): CompiledPolicy {
  return view ? { ...head, rules: view.rules, index: view.index } : { ...head, rules: [], index: { byEvent: {} } };
}

/**
 * The tool whose view serves `tool` on `event`: itself when it has one, else null (the
 * event's view for other tools); undefined when the event has no rules at all.
 */
export function viewTool(catalog: ViewCatalog, event: string, tool: string | null): string | null | undefined {
  const tools = Object.prototype.hasOwnProperty.call(catalog, event) ? catalog[event] : undefined;
  if (!tools) return undefined;
  return tool !== null && tools.includes(tool) ? tool : null;
}

/** True when a parsed view is the one asked for, from the build asked for. */
export function isViewOf(value: unknown, build: string, event: string, tool: string | null, who?: ViewWho): value is PolicyView {
  const v = value as Partial<PolicyView> | null;
  return !!v && typeof v === 'object' && v.build === build && v.event === event && v.tool === tool && sameWho(v.who, who)
    && Array.isArray(v.rules) && !!v.index && typeof v.index === 'object';
}

function sameWho(a: ViewWho | undefined, b: ViewWho | undefined): boolean {
  if (!a || !b) return !a && !b;
  return a.agent === b.agent && a.main === b.main;
}

/**
 * What tells views for different people apart in their file names ('' for a view of every agent's rules).
 * @example whoKey({ agent: 'ba', main: false }) // '\\0["ba",false]'
 */
export function whoKey(who: ViewWho | undefined): string {
  return who ? `\0${JSON.stringify([who.agent, who.main])}` : '';
}
