/**
 * The Gemini CLI adapter, what `policy hook --host gemini` loads: Gemini's events and tools
 * become the Claude Code events and tools the rules name (events.ts, tools.ts), and the
 * answer is Gemini's `{ decision, reason, systemMessage, hookSpecificOutput }`.
 */
import { capMessage, PREFIX } from '../../render/messages';
import { readsJson, showsSystemMessage, type Output } from '../../render/output';
import type { EventProtocol } from '../../protocol';
import type { HookEvent, HookResponse } from '../../types';
import type { HostAdapter, HostEventIn } from '../types';
import { GEMINI_EVENTS, geminiProtocol } from './events';
import { geminiTool } from './tools';

/** Gemini's fields that name its event, not the Claude Code one; dropped once mapped. */
const HOST_ONLY = ['hook_event_name', 'mcp_context', 'original_request_name'];

/**
 * A Gemini hook input as the event the rules read; no event for Gemini's model hooks.
 * @example readGeminiEvent({ hook_event_name: 'BeforeTool', tool_name: 'run_shell_command', tool_input: { command: 'ls' } })!.events[0]
 *   // { hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls' } }
 */
export function readGeminiEvent(input: Record<string, unknown>): HostEventIn | null {
  const name = input.hook_event_name;
  if (typeof name !== 'string' || name === '') return null;
  const claude = Object.prototype.hasOwnProperty.call(GEMINI_EVENTS, name) ? GEMINI_EVENTS[name] : undefined;
  if (!claude) return { hostEvent: name, events: [] };
  const event: HookEvent = { hook_event_name: claude };
  for (const [key, value] of Object.entries(input)) if (!HOST_ONLY.includes(key)) event[key] = value;
  const cwd = typeof input.cwd === 'string' ? input.cwd : undefined;
  if (claude === 'PreToolUse' || claude === 'PostToolUse') {
    const tool = geminiTool(String(input.tool_name ?? ''), input.tool_input, input.mcp_context, cwd);
    event.tool_name = tool.tool_name;
    event.tool_input = tool.tool_input;
    if (tool.cwd) event.cwd = tool.cwd;
  } else if (claude === 'Stop') {
    event.last_assistant_message = input.prompt_response;
    event.stop_hook_active = input.stop_hook_active === true;
  }
  return { hostEvent: name, events: [event] };
}

/**
 * What the renderer decided, as Gemini reads it: a deny, an ask or a block is one
 * `decision` with its `reason`; contexts go to `hookSpecificOutput.additionalContext`;
 * notices to `systemMessage` where the event shows one, and to stderr.
 */
export function writeGemini(p: EventProtocol, out: Output): HookResponse {
  const json: Record<string, unknown> = {};
  const permission = out.permission && p.permission?.outcomes.includes(out.permission.decision) ? out.permission : null;
  const decided = permission?.decision === 'deny' || permission?.decision === 'ask' ? permission : null;
  if (decided) {
    json.decision = decided.decision;
    json.reason = capMessage(decided.reason?.trim() ? decided.reason : `${PREFIX}${decided.decision === 'ask' ? 'asked' : 'denied'} by the policy`);
  } else if (out.block !== null && p.block !== null) {
    json.decision = 'deny';
    json.reason = capMessage(out.block);
  }
  if (out.contexts.length > 0 && p.context) json.hookSpecificOutput = { additionalContext: capMessage(out.contexts.join('\n\n')) };
  const shown = showsSystemMessage(p);
  const notices = [...out.warnings, ...out.problems];
  if (shown && notices.length > 0) json.systemMessage = capMessage(notices.join('\n'));
  const stderrLines = shown ? out.problems : notices;
  const stdout = readsJson(p) && Object.keys(json).length > 0 ? `${JSON.stringify(json)}\n` : '';
  return { stdout, stderr: stderrLines.length > 0 ? `${capMessage(stderrLines.join('\n'))}\n` : '', exitCode: 0 };
}

export const adapter: HostAdapter = {
  name: 'gemini',
  title: 'Gemini CLI',
  identity: false,
  read: readGeminiEvent,
  protocol: geminiProtocol,
  write: writeGemini,
};
