/**
 * Shorthand events: a few keys in a test case become the full stdin JSON Claude Code would
 * send, with the common fields (session_id, transcript_path, cwd, permission_mode,
 * tool_use_id) filled in realistically.
 */
import { protocolFor } from '../protocol';
import type { HookEvent } from '../types';
import type { EventShorthand } from './types';

export const TEST_SESSION_ID = '5f0c4a36-8d3e-4c55-9d0b-7f1e2a9c6b10';
export const TEST_TOOL_USE_ID = 'toolu_01PolicyTestCase000000';

/** Events that carry permission_mode in real captures (hooks reference, section 3.2). */
const WITH_PERMISSION_MODE = new Set([
  'PreToolUse', 'PermissionRequest', 'PermissionDenied', 'PostToolUse', 'PostToolUseFailure', 'PostToolBatch',
  'UserPromptSubmit', 'UserPromptExpansion', 'Stop', 'SubagentStop', 'TeammateIdle',
]);

/** Fields an event always carries, so a bare `event: Stop` is still a realistic payload. */
const EVENT_DEFAULTS: Record<string, Record<string, unknown>> = {
  SessionStart: { source: 'startup' },
  Stop: { stop_hook_active: false },
  SubagentStop: { stop_hook_active: false },
  UserPromptSubmit: { prompt: '' },
  PreCompact: { trigger: 'manual', custom_instructions: '' },
  TaskCompleted: { task_id: '1', task_subject: 'task' },
  TaskCreated: { task_id: '1', task_subject: 'task' },
  SessionEnd: { reason: 'other' },
};

const TOOL_DEFAULTS: Record<string, Record<string, unknown>> = {
  Write: { content: '' },
  Edit: { old_string: '', new_string: '', replace_all: false },
  Bash: { command: '' },
};

/**
 * The full hook event for a shorthand, in a project at `projectRoot` (absolute, POSIX).
 * @example expandShorthand({ event: 'PreToolUse', tool: 'Write', agent: 'lynch', path: 'src/a.ts' }, '/tmp/p')
 *   // { hook_event_name: 'PreToolUse', session_id: ..., cwd: '/tmp/p', permission_mode: 'default',
 *   //   agent_id: ..., agent_type: 'lynch', tool_name: 'Write', tool_use_id: ...,
 *   //   tool_input: { content: '', file_path: '/tmp/p/src/a.ts' } }
 */
export function expandShorthand(short: EventShorthand, projectRoot: string): HookEvent {
  const name = short.event;
  const event: HookEvent = {
    session_id: TEST_SESSION_ID,
    transcript_path: `${projectRoot}/.claude/transcripts/${TEST_SESSION_ID}.jsonl`,
    cwd: projectRoot,
    hook_event_name: name,
  };
  if (WITH_PERMISSION_MODE.has(name)) event.permission_mode = 'default';
  Object.assign(event, EVENT_DEFAULTS[name]);
  if (short.agent !== undefined) {
    event.agent_id = `agent-${short.agent.replace(/[^A-Za-z0-9]+/g, '-')}`;
    event.agent_type = short.agent;
  }
  if (short.teammate !== undefined) event.teammate_name = short.teammate;
  if (short.team !== undefined) event.team_name = short.team;
  if (short.prompt !== undefined) event.prompt = short.prompt;
  const tool = short.tool ?? (short.command !== undefined ? 'Bash' : undefined);
  if (tool !== undefined || protocolFor(name)?.tool) addTool(event, tool ?? '', short, projectRoot);
  if (short.fields) Object.assign(event, short.fields);
  event.hook_event_name = name;
  return event;
}

function addTool(event: HookEvent, tool: string, short: EventShorthand, projectRoot: string): void {
  const input: Record<string, unknown> = { ...TOOL_DEFAULTS[tool], ...short.input };
  if (short.path !== undefined) input[pathKey(tool)] = absolutePath(short.path, projectRoot);
  if (short.command !== undefined) input.command = short.command;
  event.tool_name = tool;
  event.tool_input = input;
  event.tool_use_id = TEST_TOOL_USE_ID;
}

/** The tool_input key a tool names its path with (docs/language.md "Paths"). */
export function pathKey(tool: string): string {
  if (tool === 'NotebookEdit') return 'notebook_path';
  if (tool === 'Glob' || tool === 'Grep' || tool === 'LS') return 'path';
  return 'file_path';
}

/** Claude Code sends absolute paths; a relative shorthand path is inside the project. */
function absolutePath(path: string, projectRoot: string): string {
  if (path.startsWith('/') || /^[A-Za-z]:[\\/]/.test(path)) return path;
  const rel = path.replace(/^\.\//, '');
  if (rel === '' || rel === '.') return projectRoot;
  return `${projectRoot.replace(/\/$/, '')}/${rel}`;
}

/**
 * Replaces `{{project}}` in every string of a full event JSON with the temp project path,
 * so captured events can point inside the test project.
 * @example withProject({ cwd: '{{project}}' }, '/tmp/p') // { cwd: '/tmp/p' }
 */
export function withProject(value: unknown, projectRoot: string): unknown {
  if (typeof value === 'string') return value.split('{{project}}').join(projectRoot);
  if (Array.isArray(value)) return value.map((v) => withProject(v, projectRoot));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = withProject(v, projectRoot);
    return out;
  }
  return value;
}
