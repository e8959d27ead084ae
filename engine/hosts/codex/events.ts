/**
 * OpenAI Codex CLI's hook contract (measured on 0.171.0 with the real binary; its output
 * schemas are embedded in the binary, closed with `additionalProperties: false`, and
 * test/real-client/hosts reads them from the installed package):
 *
 * - its events carry Claude Code's names and fields (`tool_name: "Bash"`, `tool_input.command`),
 *   plus `turn_id` and `model`; a subagent's events carry `agent_id` and `agent_type`;
 * - files change through one tool, `apply_patch` (apply-patch.ts), which `Write` and `Edit`
 *   matchers select too;
 * - an output field the schema does not list fails the hook, and the tool then runs: so
 *   only the fields a row below honours are ever written;
 * - PreToolUse takes `permissionDecision: "deny"` only (with a non-empty reason): `ask`, a
 *   plain `allow`, `continue: false` and `suppressOutput` are refused as unsupported.
 */
import { protocolRow, type EventProtocol } from '../../protocol';

/** Codex's hook events, as its config.toml names them, in the order its docs list them. */
export const CODEX_EVENTS: readonly string[] = [
  'SessionStart',
  'UserPromptSubmit',
  'PreToolUse',
  'PermissionRequest',
  'PostToolUse',
  'PreCompact',
  'PostCompact',
  'SubagentStart',
  'SubagentStop',
  'Stop',
  'SessionEnd',
];

/**
 * The label Codex keys a hook's trust on (`<file>:pre_tool_use:0:0`) and hashes it under.
 * @example codexEventLabel('PreToolUse') // 'pre_tool_use'
 */
export function codexEventLabel(event: string): string {
  return event.replace(/([a-z])([A-Z])/g, '$1_$2').toLowerCase();
}

const toolEvent = { tool: true, matcherField: 'tool_name' } as const;

/**
 * What Codex honours on one of its events, under the same (Claude Code) name; a row that
 * honours nothing for an event Codex does not have.
 * @example codexProtocol('PreToolUse').permission // { channel: 'permission-decision', outcomes: ['deny'] }
 */
export function codexProtocol(event: string): EventProtocol {
  switch (event) {
    case 'SessionStart': return protocolRow(event, { matcherField: 'source', context: true });
    case 'UserPromptSubmit': return protocolRow(event, { block: 'decision-block', blockAudience: 'user', context: true });
    case 'PreToolUse': return protocolRow(event, {
      ...toolEvent,
      permission: { channel: 'permission-decision', outcomes: ['deny'] },
      block: 'permission-decision',
      blockAudience: 'model',
      context: true,
      note: 'deny only: Codex refuses ask and a plain allow, so an ask is denied and an allow says nothing.',
    });
    case 'PermissionRequest': return protocolRow(event, {
      ...toolEvent,
      permission: { channel: 'permission-behavior', outcomes: ['deny', 'allow'] },
      block: 'permission-behavior',
      blockAudience: 'model',
    });
    case 'PostToolUse': return protocolRow(event, { ...toolEvent, block: 'decision-block', blockAudience: 'model', context: true });
    case 'PreCompact': return protocolRow(event, { matcherField: 'trigger' });
    case 'PostCompact': return protocolRow(event, { matcherField: 'trigger' });
    case 'SubagentStart': return protocolRow(event, { matcherField: 'agent_type', context: true });
    case 'SubagentStop': return protocolRow(event, { matcherField: 'agent_type', block: 'decision-block', blockAudience: 'model' });
    case 'Stop': return protocolRow(event, { block: 'decision-block', blockAudience: 'model' });
    case 'SessionEnd': return protocolRow(event, { systemMessage: 'nowhere', jsonDiscarded: true });
    default: return protocolRow(event, { systemMessage: 'nowhere', jsonDiscarded: true, unsupported: `Codex CLI has no ${event} event` });
  }
}
