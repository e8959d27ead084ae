/**
 * Which input fields each hook event carries: the common fields every event has (contract
 * reference section 3.1) plus the event's own fields (section 5), cross-checked against the
 * Agent SDK's `*HookInput` types (see event-fields.test.ts).
 */
import { protocolFor } from '../protocol';

/** Fields of every event (some only sometimes, e.g. `agent_id` inside a subagent). */
export const COMMON_FIELDS: readonly string[] = [
  'session_id', 'prompt_id', 'transcript_path', 'cwd', 'scratchpad_dir', 'permission_mode',
  'effort', 'hook_event_name', 'agent_id', 'agent_type',
];

const TOOL = ['tool_name', 'tool_input', 'mcp_server'];
const TASK = ['task_id', 'task_subject', 'task_description', 'teammate_name', 'team_name'];
const MODEL_SWITCH = [
  'from_model', 'to_model', 'requested_model', 'source', 'context_tokens', 'prompt_cache_warm',
  'cache_ttl', 'estimated_cache_write_usd', 'pricing',
];
const STOP = ['stop_hook_active', 'last_assistant_message', 'background_tasks', 'session_crons'];

/** The event's own fields, beyond COMMON_FIELDS. */
export const EVENT_FIELDS: Readonly<Record<string, readonly string[]>> = {
  SessionStart: [
    'source', 'model', 'session_title', 'seconds_since_last_response', 'context_tokens',
    'prompt_cache_likely_expired', 'estimated_cache_write_usd',
  ],
  Setup: ['trigger'],
  UserPromptSubmit: ['prompt', 'source', 'session_title'],
  UserPromptExpansion: ['expansion_type', 'command_name', 'command_args', 'command_source', 'prompt'],
  PreToolUse: [...TOOL, 'tool_use_id'],
  PermissionRequest: [...TOOL, 'permission_suggestions'],
  PermissionDenied: [...TOOL, 'tool_use_id', 'reason'],
  PostToolUse: [...TOOL, 'tool_use_id', 'tool_response', 'duration_ms'],
  PostToolUseFailure: [...TOOL, 'tool_use_id', 'error', 'is_interrupt', 'duration_ms'],
  PostToolBatch: ['tool_calls'],
  Notification: ['message', 'title', 'notification_type'],
  MessageDisplay: ['turn_id', 'message_id', 'index', 'final', 'delta'],
  SubagentStart: [],
  SubagentStop: [...STOP, 'agent_transcript_path'],
  TaskCreated: TASK,
  TaskCompleted: TASK,
  Stop: STOP,
  StopFailure: ['error', 'error_details', 'last_assistant_message'],
  TeammateIdle: ['teammate_name', 'team_name'],
  InstructionsLoaded: ['file_path', 'memory_type', 'load_reason', 'globs', 'trigger_file_path', 'parent_file_path'],
  ConfigChange: ['source', 'file_path'],
  CwdChanged: ['old_cwd', 'new_cwd'],
  DirectoryAdded: ['directory', 'source'],
  FileChanged: ['file_path', 'event'],
  WorktreeCreate: ['name'],
  WorktreeRemove: ['worktree_path'],
  PreCompact: ['trigger', 'custom_instructions'],
  PostCompact: ['trigger', 'compact_summary'],
  Elicitation: ['mcp_server_name', 'message', 'mode', 'url', 'elicitation_id', 'requested_schema'],
  ElicitationResult: ['mcp_server_name', 'action', 'mode', 'elicitation_id', 'content'],
  PreModelSwitch: MODEL_SWITCH,
  PostModelSwitch: MODEL_SWITCH,
  SessionEnd: ['reason'],
};

/**
 * True when `event` carries the top-level field that starts the dotted path.
 * Unknown events carry everything (lint reports them elsewhere).
 * @example eventCarries('PreToolUse', 'tool_input.command') // true
 * @example eventCarries('PreToolUse', 'team_name') // false
 */
export function eventCarries(event: string, dotted: string): boolean {
  const own = EVENT_FIELDS[event];
  if (!own) return true;
  const head = dotted.split('.')[0];
  return COMMON_FIELDS.includes(head) || own.includes(head);
}

/**
 * True when the event carries a tool call (tool_name and tool_input).
 * @example isToolEvent('PostToolUse') // true
 */
export function isToolEvent(event: string): boolean {
  return protocolFor(event)?.tool === true;
}
