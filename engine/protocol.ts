/**
 * Claude Code's hook contract, one row per event: what each event is matched on, whether
 * and how it can block, and which output fields it honours. The renderer, lint, init and
 * the docs all read this one table (see docs/events.md).
 */
import type { Outcome } from './types';

/** Who reads a message once Claude Code has it. */
export type Audience = 'model' | 'user' | 'both' | 'nowhere';

/** How an event can be stopped, if it can. */
export type BlockChannel =
  /** hookSpecificOutput.permissionDecision = "deny" + permissionDecisionReason */
  | 'permission-decision'
  /** hookSpecificOutput.decision = { behavior: "deny", message } */
  | 'permission-behavior'
  /** top-level { "decision": "block", "reason": ... } */
  | 'decision-block'
  /** exit code 2 with the message on stderr */
  | 'exit2';

export interface EventProtocol {
  event: string;
  /** The input field a settings.json matcher is compared with; null = the event takes no matcher. */
  matcherField: string | null;
  /** The event carries tool_name and tool_input. */
  tool: boolean;
  /** How deny/ask/allow are written, or null when the event has no permission decision. */
  permission: { channel: 'permission-decision' | 'permission-behavior'; outcomes: Array<'deny' | 'ask' | 'allow'> } | null;
  /** How a block is written, or null when the event cannot be stopped. */
  block: BlockChannel | null;
  /** Who reads a deny/block message. */
  blockAudience: Audience;
  /** hookSpecificOutput.additionalContext is honoured (it reaches the model). */
  context: boolean;
  /** Who reads top-level systemMessage (nowhere when the event discards it). */
  systemMessage: Audience;
  /** Claude Code discards stdout JSON for this event entirely. */
  jsonDiscarded: boolean;
  /** The runner must not be registered for this event (registering changes Claude Code's behaviour). */
  unsupported?: string;
  note?: string;
}

const base = {
  matcherField: null,
  tool: false,
  permission: null,
  block: null,
  blockAudience: 'nowhere',
  context: false,
  systemMessage: 'user',
  jsonDiscarded: false,
} as const satisfies Omit<EventProtocol, 'event'>;

function row(event: string, fields: Partial<EventProtocol>): EventProtocol {
  return { ...base, event, ...fields };
}

const toolEvent = { tool: true, matcherField: 'tool_name' } as const;

/** The table. Order follows the contract reference (section 5). */
export const EVENT_PROTOCOLS: readonly EventProtocol[] = [
  row('SessionStart', { matcherField: 'source', context: true }),
  row('Setup', { matcherField: 'trigger', systemMessage: 'nowhere', jsonDiscarded: true, note: 'All output is discarded.' }),
  row('UserPromptSubmit', { block: 'decision-block', blockAudience: 'user', context: true, note: 'A blocked prompt is erased; the reason is shown to the user only.' }),
  row('UserPromptExpansion', { matcherField: 'command_name', block: 'decision-block', blockAudience: 'user', context: true }),
  row('PreToolUse', {
    ...toolEvent,
    permission: { channel: 'permission-decision', outcomes: ['deny', 'ask', 'allow'] },
    block: 'permission-decision',
    blockAudience: 'model',
    context: true,
    note: 'permissionDecisionReason reaches the model for deny, the user for ask and allow.',
  }),
  row('PermissionRequest', {
    ...toolEvent,
    permission: { channel: 'permission-behavior', outcomes: ['deny', 'allow'] },
    block: 'permission-behavior',
    blockAudience: 'model',
    note: 'No "ask": saying nothing lets the permission dialog show. Exit 2 is not honoured.',
  }),
  row('PermissionDenied', { ...toolEvent, note: 'The denial stands; the exit code is ignored.' }),
  row('PostToolUse', { ...toolEvent, block: 'decision-block', blockAudience: 'model', context: true, note: 'The tool already ran; a block only feeds the reason back.' }),
  row('PostToolUseFailure', { ...toolEvent, block: 'decision-block', blockAudience: 'model', context: true }),
  row('PostToolBatch', { block: 'decision-block', blockAudience: 'both', context: true }),
  row('Notification', { matcherField: 'notification_type', systemMessage: 'nowhere' }),
  row('MessageDisplay', { systemMessage: 'nowhere' }),
  row('SubagentStart', { matcherField: 'agent_type', context: true, note: 'Context goes to the subagent; it cannot block.' }),
  row('SubagentStop', { matcherField: 'agent_type', block: 'decision-block', blockAudience: 'model', context: true }),
  row('TaskCreated', { block: 'decision-block', blockAudience: 'model' }),
  row('TaskCompleted', { block: 'exit2', blockAudience: 'model' }),
  row('Stop', { block: 'decision-block', blockAudience: 'model', context: true, note: 'additionalContext also makes Claude continue.' }),
  row('StopFailure', { matcherField: 'error', systemMessage: 'nowhere' }),
  row('TeammateIdle', { block: 'exit2', blockAudience: 'model', note: 'Exit 2 keeps the teammate working, with stderr as feedback.' }),
  row('InstructionsLoaded', { matcherField: 'load_reason', systemMessage: 'nowhere' }),
  row('ConfigChange', { matcherField: 'source', block: 'decision-block', blockAudience: 'nowhere', systemMessage: 'nowhere', note: 'policy_settings changes cannot be blocked.' }),
  row('CwdChanged', {}),
  row('DirectoryAdded', { matcherField: 'source', systemMessage: 'model', note: 'systemMessage reaches Claude on its next turn (slash_command only).' }),
  row('FileChanged', { matcherField: 'file_path', note: 'The matcher is a list of literal file names, which also builds the watch list.' }),
  row('WorktreeCreate', {
    block: 'exit2',
    systemMessage: 'nowhere',
    unsupported: 'Registering any WorktreeCreate hook replaces Claude Code\'s git worktree logic; the hook must print the worktree path.',
  }),
  row('WorktreeRemove', { block: 'exit2', blockAudience: 'nowhere', systemMessage: 'nowhere', jsonDiscarded: true }),
  row('PreCompact', { matcherField: 'trigger', block: 'decision-block', blockAudience: 'user', systemMessage: 'nowhere' }),
  row('PostCompact', { matcherField: 'trigger', systemMessage: 'nowhere' }),
  row('Elicitation', { matcherField: 'mcp_server_name', block: 'exit2', blockAudience: 'nowhere', systemMessage: 'nowhere' }),
  row('ElicitationResult', { matcherField: 'mcp_server_name', block: 'exit2', blockAudience: 'nowhere', systemMessage: 'nowhere' }),
  row('PreModelSwitch', {
    matcherField: 'to_model',
    permission: { channel: 'permission-decision', outcomes: ['deny', 'ask', 'allow'] },
    block: 'permission-decision',
    blockAudience: 'user',
    note: '"ask" works only for an interactive /model; elsewhere it refuses the switch.',
  }),
  row('PostModelSwitch', { matcherField: 'to_model', context: true }),
  row('SessionEnd', { matcherField: 'reason', systemMessage: 'nowhere', jsonDiscarded: true }),
];

const BY_EVENT: ReadonlyMap<string, EventProtocol> = new Map(EVENT_PROTOCOLS.map((p) => [p.event, p]));

/** Every event name in the contract. */
export const EVENT_NAMES: readonly string[] = EVENT_PROTOCOLS.map((p) => p.event);

/** The protocol row for an event, or undefined for an event the contract does not know. */
export function protocolFor(event: string): EventProtocol | undefined {
  return BY_EVENT.get(event);
}

/**
 * The protocol row for an event, or, for an event the table does not know, a row that
 * assumes nothing but a visible systemMessage.
 * @example protocolOrDefault('FutureEvent').block // null
 */
export function protocolOrDefault(event: string): EventProtocol {
  return BY_EVENT.get(event) ?? row(event, {});
}

/** What happens to an outcome on an event: whether it can take effect and who reads its message. */
export interface OutcomeSupport {
  supported: boolean;
  audience: Audience;
  /** The output it becomes, for docs and explain. */
  via: string;
}

/**
 * Whether `outcome` can take effect on `event`, and who reads its message.
 * @example outcomeSupport('SubagentStart', 'block') // { supported: false, audience: 'nowhere', ... }
 */
export function outcomeSupport(event: string, outcome: Outcome): OutcomeSupport {
  const p = protocolFor(event);
  const none: OutcomeSupport = { supported: false, audience: 'nowhere', via: 'nothing' };
  if (!p || p.unsupported) return none;
  switch (outcome) {
    case 'deny':
    case 'ask':
    case 'allow': {
      if (!p.permission || !p.permission.outcomes.includes(outcome)) return none;
      const via = p.permission.channel === 'permission-decision'
        ? `hookSpecificOutput.permissionDecision "${outcome}"`
        : `hookSpecificOutput.decision.behavior "${outcome}"`;
      // PermissionRequest's allow has no message field: its text reaches nobody.
      const audience: Audience = outcome === 'deny' ? p.blockAudience
        : p.permission.channel === 'permission-behavior' ? 'nowhere' : 'user';
      return { supported: true, audience, via };
    }
    case 'block':
      if (!p.block) return none;
      return { supported: true, audience: p.blockAudience, via: blockVia(p.block) };
    case 'context':
      return p.context
        ? { supported: true, audience: 'model', via: 'hookSpecificOutput.additionalContext' }
        : none;
    case 'warn':
      return p.systemMessage === 'nowhere'
        ? none
        : { supported: true, audience: p.systemMessage, via: 'systemMessage' };
  }
}

function blockVia(channel: BlockChannel): string {
  switch (channel) {
    case 'permission-decision': return 'hookSpecificOutput.permissionDecision "deny"';
    case 'permission-behavior': return 'hookSpecificOutput.decision.behavior "deny"';
    case 'decision-block': return '{"decision": "block", "reason": ...}';
    case 'exit2': return 'exit code 2, message on stderr';
  }
}
