/**
 * Which hook handlers of a Claude Code settings file reach the runner, and for which
 * matcher values (contract reference section 2.3).
 */
import { matcherAccepts } from '../matcher';
import { protocolFor } from '../protocol';
import type { ClaudeHookHandler, ClaudeSettings } from './claude-settings';

/** One handler that hands an event to the runner. */
export interface RunnerRoute {
  kind: 'command' | 'http';
  /** The group's matcher as written; undefined when absent. */
  matcher: string | undefined;
  /** The tool name of the handler's `if` (`Bash` for `Bash(git *)`), or null without `if`. */
  ifTool: string | null;
  /** The handler's onFailure as written (`block` refuses the call when the handler fails). */
  onFailure?: string;
}

const RUNNER_COMMAND = /\bpolicy(?:\.cjs)?["']?\s+hook\b/;

/**
 * True when a command handler runs `policy hook` (any path to the bin, quoted or not).
 * @example isRunnerHandler({ type: 'command', command: 'npx policy hook' }) // true
 */
export function isRunnerHandler(h: ClaudeHookHandler): boolean {
  if (h.type === 'http') return typeof h.url === 'string';
  if (h.type !== undefined && h.type !== 'command') return false;
  const line = [h.command ?? '', ...(h.args ?? [])].join(' ');
  return RUNNER_COMMAND.test(line);
}

/**
 * The handlers that route `event` to the runner. A handler with `if` never runs on a
 * non-tool event, so it routes nothing there.
 * @example runnerRoutes(settings, 'PreToolUse') // [{ kind: 'command', matcher: 'Bash', ifTool: null }]
 */
export function runnerRoutes(settings: ClaudeSettings, event: string): RunnerRoute[] {
  if (settings.disableAllHooks) return [];
  const tool = protocolFor(event)?.tool === true;
  const routes: RunnerRoute[] = [];
  for (const group of settings.hooks[event] ?? []) {
    for (const h of group.hooks) {
      if (!isRunnerHandler(h)) continue;
      if (h.if !== undefined && !tool) continue;
      routes.push({ kind: h.type === 'http' ? 'http' : 'command', matcher: group.matcher, ifTool: h.if === undefined ? null : ifToolName(h.if), ...(h.onFailure === undefined ? {} : { onFailure: h.onFailure }) });
    }
  }
  return routes;
}

/**
 * True when the route reaches the runner for a tool name, or for a `*` pattern (tested
 * with a sample name standing for it).
 * @example routeCoversTool({ kind: 'command', matcher: 'mcp__.*', ifTool: null }, 'mcp__github__*') // true
 */
export function routeCoversTool(route: RunnerRoute, tool: string, event = 'PreToolUse'): boolean {
  const sample = tool.replace(/\*/g, 'x');
  if (route.ifTool !== null && !ifCovers(route.ifTool, sample)) return false;
  return matcherAccepts(route.matcher, sample, event);
}

/** True when the route reaches the runner for every tool. */
export function routeCoversAllTools(route: RunnerRoute): boolean {
  if (route.ifTool !== null) return false;
  const m = route.matcher;
  if (m === undefined || m === '' || m === '*') return true;
  return ['.*', '^.*$', '.+', '^.+$', '.'].includes(m);
}

function ifToolName(rule: string): string {
  const paren = rule.indexOf('(');
  return (paren < 0 ? rule : rule.slice(0, paren)).trim();
}

function ifCovers(ifTool: string, tool: string): boolean {
  if (ifTool === tool || ifTool === '*') return true;
  // A bare MCP server name in a permission rule covers every tool of that server.
  return ifTool.startsWith('mcp__') && tool.startsWith(`${ifTool}__`);
}
