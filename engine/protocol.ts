/**
 * Claude Code's hook contract, one row per event: what each event is matched on, whether
 * and how it can block, and which output fields it honours. The renderer, lint, init and
 * the docs all read this one table (see docs/events.md). A rule's `record` needs no
 * output, so it works on every event, those that honour none (SessionEnd) included.
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
  /** Who reads an ask's reason, on an event with ask (default: the user). */
  askAudience?: Audience;
  /** hookSpecificOutput.additionalContext is honoured (it reaches the model). */
  context: boolean;
  /** Who reads top-level systemMessage (nowhere when the event discards it). */
  systemMessage: Audience;
  /** Claude Code discards stdout JSON for this event entirely. */
  jsonDiscarded: boolean;
  /** Claude Code ignores a hook entry's `onFailure: "block"` here: a runner that cannot start lets the event through. */
  onFailureIgnored?: boolean;
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

/**
 * A protocol row from the fields that differ from an event that honours nothing but a
 * visible systemMessage: how a host adapter (engine/hosts/) states what its events honour.
 * @example protocolRow('Stop', { block: 'decision-block', blockAudience: 'model' }).context // false
 */
export function protocolRow(event: string, fields: Partial<EventProtocol>): EventProtocol {
  return row(event, fields);
}

const toolEvent = { tool: true, matcherField: 'tool_name' } as const;

/** Every event name in the contract, in the order of the contract reference (section 5). */
export const EVENT_NAMES: readonly string[] = [
  'SessionStart',
  'Setup',
  'UserPromptSubmit',
  'UserPromptExpansion',
  'PreToolUse',
  'PermissionRequest',
  'PermissionDenied',
  'PostToolUse',
  'PostToolUseFailure',
  'PostToolBatch',
  'Notification',
  'MessageDisplay',
  'SubagentStart',
  'SubagentStop',
  'TaskCreated',
  'TaskCompleted',
  'Stop',
  'StopFailure',
  'TeammateIdle',
  'InstructionsLoaded',
  'ConfigChange',
  'CwdChanged',
  'DirectoryAdded',
  'FileChanged',
  'WorktreeCreate',
  'WorktreeRemove',
  'PreCompact',
  'PostCompact',
  'Elicitation',
  'ElicitationResult',
  'PreModelSwitch',
  'PostModelSwitch',
  'SessionEnd',
];

/**
 * One event's row. Rows are built on demand: the runner needs one per process, and
 * building all of them (object literals in code that runs once) cost it ~0.2 ms.
 */
function defineRow(event: string): EventProtocol | undefined {
  switch (event) {
    case 'SessionStart': return row(event, { matcherField: 'source', context: true });
    case 'Setup': return row(event, { matcherField: 'trigger', systemMessage: 'nowhere', jsonDiscarded: true, note: 'All output is discarded.' });
    case 'UserPromptSubmit': return row(event, { block: 'decision-block', blockAudience: 'user', context: true, note: 'A blocked prompt is erased; the reason is shown to the user only.' });
    case 'UserPromptExpansion': return row(event, { matcherField: 'command_name', block: 'decision-block', blockAudience: 'user', context: true });
    case 'PreToolUse': return row(event, {
      ...toolEvent,
      permission: { channel: 'permission-decision', outcomes: ['deny', 'ask', 'allow'] },
      block: 'permission-decision',
      blockAudience: 'model',
      // Measured (test/real-client/screen.test.ts): the dialog is Claude Code's own, without the reason.
      askAudience: 'nowhere',
      context: true,
      note: 'The model reads a deny as the tool result "PreToolUse:<Tool> hook error: <reason>". An ask shows Claude Code\'s own permission dialog, without the reason; under -p no one is asked: the call is refused and the model reads the reason.',
    });
    case 'PermissionRequest': return row(event, {
      ...toolEvent,
      permission: { channel: 'permission-behavior', outcomes: ['deny', 'allow'] },
      block: 'permission-behavior',
      blockAudience: 'model',
      note: 'No "ask": saying nothing lets the permission dialog show. Exit 2 is not honoured.',
    });
    case 'PermissionDenied': return row(event, { ...toolEvent, note: 'The denial stands; the exit code is ignored.' });
    case 'PostToolUse': return row(event, { ...toolEvent, block: 'decision-block', blockAudience: 'model', context: true, note: 'The tool already ran; a block only feeds the reason back.' });
    case 'PostToolUseFailure': return row(event, { ...toolEvent, block: 'decision-block', blockAudience: 'model', context: true });
    case 'PostToolBatch': return row(event, { block: 'decision-block', blockAudience: 'both', context: true });
    case 'Notification': return row(event, { matcherField: 'notification_type', systemMessage: 'nowhere' });
    case 'MessageDisplay': return row(event, { systemMessage: 'nowhere' });
    case 'SubagentStart': return row(event, { matcherField: 'agent_type', context: true, note: 'Context goes to the subagent; it cannot block.' });
    case 'SubagentStop': return row(event, { matcherField: 'agent_type', block: 'decision-block', blockAudience: 'model', context: true, onFailureIgnored: true });
    case 'TaskCreated': return row(event, { block: 'decision-block', blockAudience: 'model' });
    case 'TaskCompleted': return row(event, { block: 'exit2', blockAudience: 'model', onFailureIgnored: true });
    case 'Stop': return row(event, { block: 'decision-block', blockAudience: 'model', context: true, onFailureIgnored: true, note: 'additionalContext also makes Claude continue.' });
    case 'StopFailure': return row(event, { matcherField: 'error', systemMessage: 'nowhere' });
    case 'TeammateIdle': return row(event, { block: 'exit2', blockAudience: 'model', onFailureIgnored: true, note: 'Exit 2 keeps the teammate working, with stderr as feedback.' });
    case 'InstructionsLoaded': return row(event, { matcherField: 'load_reason', systemMessage: 'nowhere' });
    case 'ConfigChange': return row(event, { matcherField: 'source', block: 'decision-block', blockAudience: 'nowhere', systemMessage: 'nowhere', note: 'policy_settings changes cannot be blocked.' });
    case 'CwdChanged': return row(event, {});
    case 'DirectoryAdded': return row(event, { matcherField: 'source', systemMessage: 'model', note: 'systemMessage reaches Claude on its next turn (slash_command only).' });
    case 'FileChanged': return row(event, { matcherField: 'file_path', note: 'The matcher is a list of literal file names, which also builds the watch list.' });
    case 'WorktreeCreate': return row(event, {
      block: 'exit2',
      systemMessage: 'nowhere',
      unsupported: 'Registering any WorktreeCreate hook replaces Claude Code\'s git worktree logic; the hook must print the worktree path.',
    });
    case 'WorktreeRemove': return row(event, { block: 'exit2', blockAudience: 'nowhere', systemMessage: 'nowhere', jsonDiscarded: true });
    // additionalContext is not honoured here (contract 5.27, 4.4): what must survive compaction is recorded, and given back on SessionStart (source compact).
    case 'PreCompact': return row(event, { matcherField: 'trigger', block: 'decision-block', blockAudience: 'user', systemMessage: 'nowhere', note: 'No context: record what must survive compaction, give it back on SessionStart (source compact).' });
    case 'PostCompact': return row(event, { matcherField: 'trigger', systemMessage: 'nowhere' });
    case 'Elicitation': return row(event, { matcherField: 'mcp_server_name', block: 'exit2', blockAudience: 'nowhere', systemMessage: 'nowhere' });
    case 'ElicitationResult': return row(event, { matcherField: 'mcp_server_name', block: 'exit2', blockAudience: 'nowhere', systemMessage: 'nowhere' });
    case 'PreModelSwitch': return row(event, {
      matcherField: 'to_model',
      permission: { channel: 'permission-decision', outcomes: ['deny', 'ask', 'allow'] },
      block: 'permission-decision',
      blockAudience: 'user',
      note: '"ask" works only for an interactive /model; elsewhere it refuses the switch.',
    });
    case 'PostModelSwitch': return row(event, { matcherField: 'to_model', context: true });
    case 'SessionEnd': return row(event, { matcherField: 'reason', systemMessage: 'nowhere', jsonDiscarded: true, note: 'No output reaches anyone: rules here only record.' });
    default: return undefined;
  }
}

const rows = new Map<string, EventProtocol | undefined>();

/** The protocol row for an event, or undefined for an event the contract does not know. */
export function protocolFor(event: string): EventProtocol | undefined {
  let p = rows.get(event);
  if (p === undefined && !rows.has(event)) rows.set(event, (p = defineRow(event)));
  return p;
}

let table: readonly EventProtocol[] | undefined;

/**
 * The whole table, in contract order (lint, init and the docs read it all).
 * @example eventProtocols()[0].event // 'SessionStart'
 */
export function eventProtocols(): readonly EventProtocol[] {
  return (table ??= EVENT_NAMES.map((event) => protocolFor(event) as EventProtocol));
}

/**
 * The protocol row for an event, or, for an event the table does not know, a row that
 * assumes nothing but a visible systemMessage.
 * @example protocolOrDefault('FutureEvent').block // null
 */
export function protocolOrDefault(event: string): EventProtocol {
  return protocolFor(event) ?? row(event, {});
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
  return outcomeSupportOf(protocolFor(event), outcome);
}

/**
 * outcomeSupport for a row already in hand (a host adapter's rows are not Claude Code's table).
 * @example outcomeSupportOf(protocolRow('PreToolUse', { permission: { channel: 'permission-decision', outcomes: ['deny'] } }), 'ask').supported // false
 */
export function outcomeSupportOf(p: EventProtocol | undefined, outcome: Outcome): OutcomeSupport {
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
        : outcome === 'ask' ? (p.askAudience ?? 'user')
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
