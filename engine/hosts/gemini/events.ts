/**
 * Gemini CLI's hook contract (0.61.0; measured with the real binary, and read from its
 * bundle's hook output classes): its own events, each the counterpart of a Claude Code event
 * the rules name, answered with `{ "decision": "deny", "reason" }`, `systemMessage` and
 * `hookSpecificOutput.additionalContext`. Its events name no acting agent.
 */
import { protocolRow, type EventProtocol } from '../../protocol';

/** Gemini's event → the Claude Code event the rules name, in Gemini's docs' order. */
export const GEMINI_EVENTS: Readonly<Record<string, string>> = {
  BeforeTool: 'PreToolUse',
  AfterTool: 'PostToolUse',
  BeforeAgent: 'UserPromptSubmit',
  AfterAgent: 'Stop',
  SessionStart: 'SessionStart',
  SessionEnd: 'SessionEnd',
  PreCompress: 'PreCompact',
  Notification: 'Notification',
};

/** Gemini events no rule can name: the runner answers them with nothing, and init never registers them. */
export const GEMINI_ONLY_EVENTS: readonly string[] = ['BeforeModel', 'AfterModel', 'BeforeToolSelection'];

/**
 * The Gemini event for a Claude Code event, or null when Gemini has none.
 * @example geminiEventFor('PreToolUse') // 'BeforeTool'
 */
export function geminiEventFor(claudeEvent: string): string | null {
  return Object.keys(GEMINI_EVENTS).find((g) => GEMINI_EVENTS[g] === claudeEvent) ?? null;
}

const toolEvent = { tool: true, matcherField: 'tool_name' } as const;

/**
 * What Gemini honours on one of its events, under the Claude Code name the rules use.
 * @example geminiProtocol('PreToolUse').context // false: BeforeTool takes no additionalContext
 */
export function geminiProtocol(event: string): EventProtocol {
  switch (event) {
    // Gemini takes `decision: "ask"`, but in non-interactive mode (-p, even with --yolo) it then
    // waits for a confirmation no one can give, until the session is killed (measured on
    // 0.61.0): an ask is denied instead, which never hangs a session.
    case 'PreToolUse': return protocolRow(event, {
      ...toolEvent,
      permission: { channel: 'permission-decision', outcomes: ['deny'] },
      block: 'permission-decision',
      blockAudience: 'model',
      note: 'The model reads a deny as the tool error "Tool execution blocked: <reason>". An ask is denied (Gemini\'s own ask hangs a non-interactive session); an allow says nothing: Gemini\'s own approval decides.',
    });
    case 'PostToolUse': return protocolRow(event, { ...toolEvent, block: 'decision-block', blockAudience: 'model', context: true, note: 'A block replaces the tool result the model reads with the reason.' });
    case 'UserPromptSubmit': return protocolRow(event, { block: 'decision-block', blockAudience: 'user', context: true, note: 'A blocked prompt is discarded.' });
    case 'Stop': return protocolRow(event, { block: 'decision-block', blockAudience: 'model', note: 'A block sends the reason to the model as a new prompt (AfterAgent retry).' });
    case 'SessionStart': return protocolRow(event, { matcherField: 'source', context: true });
    case 'SessionEnd': return protocolRow(event, { matcherField: 'reason', systemMessage: 'nowhere', jsonDiscarded: true, note: 'Gemini does not wait for it.' });
    case 'PreCompact': return protocolRow(event, { matcherField: 'trigger' });
    case 'Notification': return protocolRow(event, { matcherField: 'notification_type' });
    default: return protocolRow(event, { systemMessage: 'nowhere', jsonDiscarded: true, unsupported: `Gemini CLI has no counterpart of ${event}` });
  }
}
