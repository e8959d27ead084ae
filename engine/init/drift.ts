/**
 * `policy init --check`: does what settings route to the runner still fit the policy?
 * Drift is an event or tool a rule needs that no runner entry receives (the rule silently
 * never fires), a runner entry for an event no rule uses (a process started for
 * nothing), an --on-error flag or onFailure that disagrees with the policy, an http entry
 * without `onFailure: "block"` (a server the agent stops would let its calls through), a
 * policy server nothing starts or starts again, or the same event routed from two
 * settings files (the runner would run twice for every event).
 */
import { protocolFor } from '../protocol';
import type { CompiledPolicy, CompiledRule, RegexSource } from '../types';
import { ifRuleFor } from './if-rule';
import { routedRules } from './plan';
import { literalOf, matcherAccepts } from './matcher';
import { ensurePort, handlerWords, isEnsureHook, isRunnerHook } from './runner';
import type { SettingsObject } from './types';

export type DriftKind = 'not-routed' | 'partly-routed' | 'unused-event' | 'on-error' | 'on-failure' | 'twice' | 'no-server-start' | 'no-server-restart';

export interface DriftItem {
  kind: DriftKind;
  event: string;
  message: string;
}

/** A settings file as read, named for messages. */
export interface SettingsSource {
  file: string;
  settings: SettingsObject;
}

interface Route {
  file: string;
  /** An http entry's url, or undefined for a command entry. */
  url?: string;
  matcher: string | undefined;
  if: string | undefined;
  words: string[];
  onFailure: unknown;
}

/** Events whose matcher is not compared with the field rules match on: presence is all we can check. */
const PRESENCE_ONLY = new Set(['FileChanged', 'PreModelSwitch', 'PostModelSwitch']);

/**
 * Every difference between what the policy needs and what the settings route, in event order.
 * @example checkDrift(policy, [{ file: '.claude/settings.json', settings: {} }])
 *   // [{ kind: 'not-routed', event: 'PreToolUse', message: 'PreToolUse: ... no runner entry ...' }]
 */
export function checkDrift(policy: CompiledPolicy, sources: readonly SettingsSource[]): DriftItem[] {
  const routes = collectRoutes(sources);
  const items: DriftItem[] = [];
  const used = new Set<string>();
  const routed = routedRules(policy);
  for (const rule of routed) for (const e of rule.events) used.add(e);
  for (const event of used) {
    const p = protocolFor(event);
    if (!p || p.unsupported) continue;
    const rules = routed.filter((r) => r.events.includes(event));
    const here = routes.get(event) ?? [];
    if (here.length === 0) {
      items.push({ kind: 'not-routed', event, message: `${event}: no runner entry, so rules ${ids(rules)} never run` });
      continue;
    }
    if (PRESENCE_ONLY.has(event) || (!p.tool && p.matcherField === null)) continue;
    for (const miss of missingValues(event, p.tool, p.matcherField, rules, here)) items.push(miss);
  }
  for (const [event, here] of routes) {
    if (used.has(event)) continue;
    const why = protocolFor(event)?.unsupported ?? 'no rule uses it, so the runner starts for nothing';
    items.push({ kind: 'unused-event', event, message: `${event}: runner entry in ${files(here)}, but ${why}` });
  }
  const closed = policy.settings.onError === 'closed';
  for (const [event, here] of routes) {
    for (const route of here) {
      const saysClosed = route.words.includes('--on-error') && route.words[route.words.indexOf('--on-error') + 1] === 'closed';
      // An http entry carries no arguments: its policy server's session does (the ensure hook's --on-error).
      if (route.url === undefined && saysClosed !== closed) {
        items.push({ kind: 'on-error', event, message: `${event}: the entry in ${route.file} ${closed ? 'lacks' : 'has'} --on-error closed, the policy says on_error: ${policy.settings.onError}` });
      }
      if (route.onFailure === 'block' || protocolFor(event)?.onFailureIgnored) continue;
      if (route.url !== undefined) {
        items.push({ kind: 'on-failure', event, message: `${event}: the http entry in ${route.file} lacks "onFailure": "block", so while the policy server is down (an agent can stop it) Claude Code lets the call through` });
      } else if (closed) {
        items.push({ kind: 'on-failure', event, message: `${event}: the entry in ${route.file} lacks "onFailure": "block", so a runner that cannot start (node missing, a crash, a timeout) lets the call through, though the policy says on_error: closed` });
      }
    }
    const inFiles = [...new Set(here.map((r) => r.file))];
    if (inFiles.length > 1) items.push({ kind: 'twice', event, message: `${event}: runner entries in ${inFiles.join(' and ')}: Claude Code runs every one, so the runner runs ${inFiles.length} times for each event` });
  }
  items.push(...serverStarts(routes, sources, closed));
  return items;
}

/**
 * http entries reach a policy server only if a SessionStart hook starts it on their port
 * and registers each session there (`policy serve --ensure`), with the policy's on_error.
 */
function serverStarts(routes: Map<string, Route[]>, sources: readonly SettingsSource[], closed: boolean): DriftItem[] {
  const ports = new Map<number, string>();
  for (const [event, here] of routes) {
    for (const r of here) {
      const port = r.url === undefined ? NaN : Number(/^https?:\/\/[^/]*:(\d+)\//.exec(r.url)?.[1]);
      if (Number.isInteger(port) && !ports.has(port)) ports.set(port, event);
    }
  }
  const ensuresOn = (event: string) => sources.flatMap(({ settings }) => {
    const groups = (settings.hooks as Record<string, unknown> | undefined)?.[event];
    return Array.isArray(groups) ? groups.flatMap((g) => (Array.isArray((g as { hooks?: unknown })?.hooks) ? (g as { hooks: unknown[] }).hooks : [])).filter(isEnsureHook) : [];
  });
  const ensures = ensuresOn('SessionStart');
  const restarts = ensuresOn('UserPromptSubmit');
  const items: DriftItem[] = [];
  for (const [port, event] of ports) {
    if (!restarts.some((h) => ensurePort(h) === port)) {
      items.push({ kind: 'no-server-restart', event: 'UserPromptSubmit', message: `UserPromptSubmit: no entry starts the policy server on port ${port} again (policy serve --ensure --port ${port}), so once it is stopped (an agent can stop it) the session's http entries refuse every call until the next SessionStart` });
    }
    const here = ensures.filter((h) => ensurePort(h) === port);
    if (here.length === 0) {
      items.push({ kind: 'no-server-start', event: 'SessionStart', message: `SessionStart: the http entries (${event}, ...) reach a policy server on port ${port}, but no SessionStart entry starts it (policy serve --ensure --port ${port}), so every such event fails` });
      continue;
    }
    const words = handlerWords(here[0]) ?? [];
    const saysClosed = words.includes('--on-error') && words[words.indexOf('--on-error') + 1] === 'closed';
    if (saysClosed !== closed) items.push({ kind: 'on-error', event: 'SessionStart', message: `SessionStart: the policy server's entry ${closed ? 'lacks' : 'has'} --on-error closed, the policy says on_error: ${closed ? 'closed' : 'open'}` });
  }
  return items;
}

function missingValues(event: string, tool: boolean, field: string | null, rules: CompiledRule[], routes: Route[]): DriftItem[] {
  const items: DriftItem[] = [];
  const seen = new Set<string>();
  const need = (value: string | null, rule: CompiledRule, ifRule: string | null) => {
    const key = value ?? '*';
    if (seen.has(key)) return;
    const ok = routes.some((r) => (value === null ? r.matcher === undefined || r.matcher === '' || r.matcher === '*' : matcherAccepts(r.matcher, value, event))
      && (r.if === undefined || r.if === ifRule));
    if (ok) return;
    seen.add(key);
    const what = value === null ? `every ${tool ? 'tool' : field}` : `${tool ? 'tool' : field} "${value}"`;
    const partly = routes.some((r) => r.if !== undefined);
    items.push({
      kind: partly && value !== null ? 'partly-routed' : 'not-routed',
      event,
      message: `${event}: rule ${rule.id} needs ${what}, which no runner entry receives${partly ? ' (an `if` filter narrows it)' : ''}`,
    });
  };
  for (const rule of rules) {
    if (tool) {
      if (!rule.tools) need(null, rule, null);
      else {
        const ifRule = rule.tools.names.includes('Bash') ? ifRuleFor(rules.filter((r) => r.tools?.names.includes('Bash'))) : null;
        for (const name of rule.tools.names) need(name, rule, name === 'Bash' ? ifRule : null);
        for (const p of rule.tools.patterns) need(sampleOf(p), rule, null);
      }
      continue;
    }
    const patterns = rule.match.find((m) => m.field === field)?.patterns;
    if (!patterns) need(null, rule, null);
    else for (const p of patterns) need(sampleOf(p), rule, null);
  }
  return items;
}

/** A value a pattern accepts: its literal, or its source with `.*` read as "x". */
function sampleOf(p: RegexSource): string {
  return literalOf(p) ?? p.source.replace(/^\^/, '').replace(/\$$/, '').replace(/\.[*+]/g, 'x').replace(/\\(.)/g, '$1');
}

function collectRoutes(sources: readonly SettingsSource[]): Map<string, Route[]> {
  const routes = new Map<string, Route[]>();
  for (const { file, settings } of sources) {
    const table = settings.hooks;
    if (!table || typeof table !== 'object' || Array.isArray(table)) continue;
    for (const [event, groups] of Object.entries(table as Record<string, unknown>)) {
      if (!Array.isArray(groups)) continue;
      for (const g of groups) {
        if (!g || typeof g !== 'object' || !Array.isArray((g as { hooks?: unknown }).hooks)) continue;
        const group = g as { matcher?: unknown; hooks: unknown[] };
        for (const h of group.hooks.filter((x) => isRunnerHook(x) && !isEnsureHook(x))) {
          const handler = h as { if?: unknown; onFailure?: unknown; type?: unknown; url?: unknown };
          const list = routes.get(event) ?? [];
          list.push({
            file,
            ...(handler.type === 'http' && typeof handler.url === 'string' ? { url: handler.url } : {}),
            matcher: typeof group.matcher === 'string' ? group.matcher : undefined,
            if: typeof handler.if === 'string' ? handler.if : undefined,
            words: handlerWords(h) ?? [],
            onFailure: handler.onFailure,
          });
          routes.set(event, list);
        }
      }
    }
  }
  return routes;
}

function ids(rules: CompiledRule[]): string {
  return rules.map((r) => r.id).join(', ');
}

function files(routes: Route[]): string {
  return [...new Set(routes.map((r) => r.file))].join(', ');
}
