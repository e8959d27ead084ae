/**
 * The event-only conditions of a rule (tools, prompts, agents, match, paths, command),
 * each a function returning null when it holds or the reason it does not.
 */
import type { CompiledPathFilter, CompiledRule, RegexSource } from '../types';
import { getField, scalarText } from './fields';
import { isCaught, isSurelyCaught, type PathView } from './path-views';
import { anyMatch, policyRegexTest } from './regex';
import type { EventScope } from './scope';

/** The first condition that failed, as recorded in RuleTrace.failed. */
export interface Failure {
  condition: string;
  detail: string;
}

/**
 * What the paths and command conditions say when nobody reads the trace (the runner, the
 * policy server): most rules of a large policy fail one of them at every event, and
 * writing out their globs and patterns was ~10 % of evaluating a Write on 1,000 rules.
 */
const UNTRACED_PATHS: Failure = Object.freeze({ condition: 'paths', detail: 'no touched path is caught' });
const UNTRACED_COMMAND: Failure = Object.freeze({ condition: 'command', detail: 'the command matches none of the patterns' });

/**
 * Holds when the rule has no tool filter, or the event's tool is named or matches a pattern.
 * @example checkTools(rule, scope) // { condition: 'tools', detail: 'tool "Bash" is not in [Write, Edit]' }
 */
export function checkTools(rule: CompiledRule, scope: EventScope): Failure | null {
  const tools = rule.tools;
  if (!tools) return null;
  const tool = scope.tool;
  if (tool === null) return { condition: 'tools', detail: 'the event has no tool' };
  if (tools.names.includes(tool) || anyMatch(tools.patterns, tool)) return null;
  const listed = described(tools, () => [...tools.names, ...tools.patterns.map(showRegex)].join(', '));
  return { condition: 'tools', detail: `tool "${tool}" is not in [${listed}]` };
}

/**
 * Holds when the rule has no `prompts`, or the event is a UserPromptSubmit whose prompt
 * is of a listed kind (a prompt typed by a person, or a background subagent's notification).
 * @example checkPrompts(rule, scope) // { condition: 'prompts', detail: 'prompt kind "task-notification" is not in [user]' }
 */
export function checkPrompts(rule: CompiledRule, scope: EventScope): Failure | null {
  const kinds = rule.prompts;
  if (!kinds) return null;
  if (scope.eventName !== 'UserPromptSubmit') {
    return { condition: 'prompts', detail: `prompts apply to UserPromptSubmit only, not ${scope.eventName || 'an unnamed event'}` };
  }
  const kind = scope.promptKind;
  if (kind === null) return { condition: 'prompts', detail: 'the event has no prompt' };
  if (kinds.includes(kind)) return null;
  return { condition: 'prompts', detail: `prompt kind "${kind}" is not in [${kinds.join(', ')}]` };
}

/**
 * Holds when the rule names no agents, or names the resolved one.
 * @example checkAgents(rule, scope) // { condition: 'agents', detail: 'agent "ba" is not in [murdock]' }
 */
export function checkAgents(rule: CompiledRule, scope: EventScope): Failure | null {
  return agentsFailure(rule, scope.agent, scope.mainSession);
}

/**
 * checkAgents for an agent and session already resolved (the runner's per-agent views of
 * the policy cache keep only the rules this holds for).
 * @example agentsFailure(rule, 'ba', false) // null when the rule names ba or no agents
 */
export function agentsFailure(rule: Pick<CompiledRule, 'actors' | 'agents'>, agent: string | null, mainSession: boolean): Failure | null {
  if (rule.actors !== undefined && (rule.actors === 'main') !== mainSession) {
    return { condition: 'agents', detail: rule.actors === 'main' ? 'the rule is for the main session only' : 'the rule is for agents other than the main session' };
  }
  const agents = rule.agents;
  if (!agents) return null;
  if (agent === null) return { condition: 'agents', detail: `no agent resolved; the rule needs [${listed(agents)}]` };
  if (agents.includes(agent)) return null;
  return { condition: 'agents', detail: `agent "${agent}" is not in [${listed(agents)}]` };
}

/**
 * Holds when every listed field is a scalar matching one of its patterns.
 * @example checkMatch(rule, scope) // { condition: 'match', detail: 'source "resume" matches none of /^startup$/' }
 */
export function checkMatch(rule: CompiledRule, scope: EventScope): Failure | null {
  for (let i = 0; i < rule.match.length; i++) {
    const { field, patterns } = rule.match[i];
    const text = scalarText(getField(scope.event, field));
    if (text === undefined) return { condition: 'match', detail: `${field} is missing or not a string, number or boolean` };
    if (!anyMatch(patterns, text)) {
      return { condition: 'match', detail: `${field} "${text}" matches none of ${showRegexes(patterns)}` };
    }
  }
  return null;
}

/**
 * The touched paths the filter catches (at least one), or why none is caught. Each path is
 * judged by all its readings (path-views.ts). For a rule that approves (`allow`), every
 * touched path must surely be caught, or the rule does not apply: an allow rule never
 * approves a call that also touches a path it does not cover.
 * @example checkPaths(pathFilter({ deny: ['.env'] }), [view('.env'), view('a.ts')]) // ['.env']
 * @example checkPaths(pathFilter({ deny: ['docs/**'] }), [view('docs/a'), view('b')], true) // { condition: 'paths', ... }
 */
export function checkPaths(filter: CompiledPathFilter, touched: readonly PathView[], approving = false, traced = true): string[] | Failure {
  if (touched.length === 0) return { condition: 'paths', detail: 'the tool touches no path' };
  if (approving) {
    const uncovered = touched.find((view) => !isSurelyCaught(filter, view));
    if (!uncovered) return touched.map((view) => view.path);
    return { condition: 'paths', detail: `an allow rule approves only when its paths cover every touched path, and ${showView(uncovered)} is not covered` };
  }
  let caught: string[] | null = null;
  for (let i = 0; i < touched.length; i++) if (isCaught(filter, touched[i])) (caught ??= []).push(touched[i].path);
  if (caught !== null) return caught;
  if (!traced) return UNTRACED_PATHS;
  return { condition: 'paths', detail: `${described(filter, () => noneCaught(filter))} (touched: ${shownViews(touched)})` };
}

/**
 * Holds when `tool_input.command` is a string matching one of the expressions.
 * @example checkCommand(rule, scope) // null for "rm -rf /" and command [/\brm\s+-rf\b/]
 */
export function checkCommand(rule: CompiledRule, scope: EventScope): Failure | null {
  const patterns = rule.command;
  if (!patterns) return null;
  const command = getField(scope.event, 'tool_input.command');
  if (typeof command !== 'string') return { condition: 'command', detail: 'the event has no command' };
  if (policyRegexTest(patterns, command)) return null;
  if (!scope.traced) return UNTRACED_COMMAND;
  return { condition: 'command', detail: `the command matches none of ${showRegexes(patterns)}` };
}

// Every rule with `paths` that catches nothing shows the event's same views: the last list is remembered.
let lastViews: readonly PathView[] | null = null;
let lastShown = '';

function shownViews(views: readonly PathView[]): string {
  if (views !== lastViews) {
    lastShown = views.map(showView).join(', ');
    lastViews = views;
  }
  return lastShown;
}

function showView(view: PathView): string {
  const real = view.resolved === null ? '' : ` -> ${view.resolved}`;
  return view.path + real;
}

function noneCaught(filter: CompiledPathFilter): string {
  const allow = `the allow list [${(filter.globs.allow ?? []).join(', ')}]`;
  const deny = `deny [${(filter.globs.deny ?? []).join(', ')}]`;
  if (filter.allow && filter.deny) return `no touched path matches ${deny} or lies outside ${allow}`;
  if (filter.allow) return `no touched path outside ${allow}`;
  if (filter.deny) return `no touched path matches ${deny}`;
  return 'the filter has neither allow nor deny';
}

// Failure details are built for every rule that does not apply; their fixed part is
// computed once per compiled object so a not-matched rule costs one concatenation.
const descriptions = new WeakMap<object, string>();

function described(key: object, describe: () => string): string {
  let text = descriptions.get(key);
  if (text === undefined) {
    text = describe();
    descriptions.set(key, text);
  }
  return text;
}

function listed(names: readonly string[]): string {
  return described(names, () => names.join(', '));
}

function showRegexes(patterns: readonly RegexSource[]): string {
  return described(patterns, () => patterns.map(showRegex).join(', '));
}

function showRegex(r: RegexSource): string {
  return `/${r.source}/${r.flags}`;
}
