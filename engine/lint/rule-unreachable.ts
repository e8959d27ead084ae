/**
 * A rule that can never fire because one of its conditions matches nothing its events
 * carry: tools on an event without a tool call, an MCP name without a tool segment, a
 * regex where tools take `*` wildcards, paths or command on tools that have none.
 */
import type { Diagnostic, SourceLocation } from '../types';
import { defineCheck, onSegments, report } from './check';
import { toolAt } from './context';
import { EVENT_FIELDS, isToolEvent } from './event-fields';

/** Tools whose input names a path (docs/language.md, Paths). */
// Bash and PowerShell touch the paths their commands write (docs/paths.md).
const PATH_TOOLS = ['Write', 'Edit', 'MultiEdit', 'Read', 'NotebookEdit', 'Glob', 'Grep', 'LS', 'Bash', 'PowerShell'];
const COMMAND_TOOLS = ['Bash', 'PowerShell'];
const REGEX_CHARS = /[.^$()[\]+?\\{}]/;

export const ruleUnreachable = defineCheck({
  id: 'rule-unreachable',
  messages: {
    toolsOnNonToolEvent: 'Rule "{id}" has tools, but {event} carries no tool call: it never fires on {event}',
    mcpNoTool: 'Rule "{id}": "{name}" names an MCP server but no tool, so it matches no tool',
    regexTool: 'Rule "{id}": "{name}" looks like a regular expression; tools are names with * wildcards, so it matches no tool',
    pathsNoToolEvent: 'Rule "{id}" has paths, but none of its events carries a tool call that touches a path',
    pathsNoPathTool: 'Rule "{id}" has paths, but none of its tools ({tools}) touches a path',
    commandNoToolEvent: 'Rule "{id}" has command, but none of its events carries a tool call',
    commandNoShellTool: 'Rule "{id}" has command, but none of its tools ({tools}) runs a command',
  },
  check(ctx) {
    const out: Diagnostic[] = [];
    for (const rule of ctx.rules) {
      const events = rule.events.filter((e) => EVENT_FIELDS[e] !== undefined);
      if (events.length === 0) continue;
      const toolEvents = events.some(isToolEvent);
      const data = { id: rule.id, tools: (rule.tools ?? []).join(', ') };
      const add = (messageId: string, at: SourceLocation, hint: string, extra: Record<string, string> = {}) =>
        out.push(report(this, { messageId, data: { ...data, ...extra }, at, hint }));

      if (rule.tools) {
        for (const event of events.filter((e) => !isToolEvent(e))) {
          add('toolsOnNonToolEvent', ctx.at(rule, onSegments(rule.raw, event)), 'tools work on PreToolUse, PostToolUse, PostToolUseFailure, PermissionRequest and PermissionDenied', { event });
        }
        if (toolEvents) {
          for (const name of rule.tools) {
            if (/^mcp__/.test(name) && !name.includes('*') && !name.slice(5).includes('__')) {
              add('mcpNoTool', toolAt(ctx, rule, name), `write ${name}__* for every tool of the server`, { name });
            } else if (REGEX_CHARS.test(name)) {
              add('regexTool', toolAt(ctx, rule, name), `write it with * wildcards, e.g. ${name.replace(/\.\*|\.\+/g, '*').replace(/[\^$]/g, '')}`, { name });
            }
          }
        }
      }
      if (rule.raw.paths !== undefined) {
        if (!toolEvents) add('pathsNoToolEvent', ctx.at(rule, ['paths'], 'key'), 'paths are the file paths of Write, Edit, MultiEdit, Read, NotebookEdit, Glob, Grep and LS calls');
        else if (rule.tools && !rule.tools.some((t) => PATH_TOOLS.some((p) => nameMatches(t, p)))) {
          add('pathsNoPathTool', ctx.at(rule, ['paths'], 'key'), `paths come from ${PATH_TOOLS.join(', ')}`);
        }
      }
      if (rule.raw.command !== undefined) {
        if (!toolEvents) add('commandNoToolEvent', ctx.at(rule, ['command'], 'key'), 'command is tested against tool_input.command of a Bash or PowerShell call');
        else if (rule.tools && rule.tools.every((t) => !t.includes('*') && !COMMAND_TOOLS.includes(t))) {
          add('commandNoShellTool', ctx.at(rule, ['command'], 'key'), 'command is tested against tool_input.command of Bash and PowerShell calls');
        }
      }
    }
    return out;
  },
});

/** A tools entry (`*` wildcards) matches a tool name. */
function nameMatches(pattern: string, name: string): boolean {
  if (!pattern.includes('*')) return pattern === name;
  const source = pattern.split('*').map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('.*');
  return new RegExp(`^${source}$`).test(name);
}
