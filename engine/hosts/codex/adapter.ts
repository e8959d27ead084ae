/**
 * The Codex CLI adapter, what `policy hook --host codex` loads: Codex's events are Claude
 * Code's in all but `apply_patch`, which becomes one Write or Edit per file it touches; the
 * answer is Claude Code's, cut to what Codex's closed schemas accept (events.ts).
 */
import { writeOutput, type Output } from '../../render/output';
import { PREFIX } from '../../render/messages';
import type { EventProtocol } from '../../protocol';
import type { HookEvent, HookResponse } from '../../types';
import type { HostAdapter, HostEventIn } from '../types';
import { patchFiles } from './apply-patch';
import { CODEX_EVENTS, codexProtocol } from './events';

/** The tools whose input is a patch: one event per file it writes. */
const PATCH_EVENTS = new Set(['PreToolUse', 'PostToolUse', 'PermissionRequest']);

/**
 * A Codex hook input as the events the rules read.
 * @example readCodexEvent({ hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls' } }).events.length // 1
 */
export function readCodexEvent(input: Record<string, unknown>): HostEventIn | null {
  const name = input.hook_event_name;
  if (typeof name !== 'string' || name === '') return null;
  if (!CODEX_EVENTS.includes(name)) return { hostEvent: name, events: [] };
  const event = input as HookEvent;
  if (!PATCH_EVENTS.has(name) || event.tool_name !== 'apply_patch') return { hostEvent: name, events: [event] };
  const ti = event.tool_input;
  const patch = ti !== null && typeof ti === 'object' ? (ti as Record<string, unknown>).command : undefined;
  const files = typeof patch === 'string' ? patchFiles(patch) : [];
  // A patch that names no file stays as Codex sent it: rules that name apply_patch judge it.
  if (files.length === 0) return { hostEvent: name, events: [event] };
  return {
    hostEvent: name,
    events: files.map((f) => ({ ...event, tool_name: f.tool, tool_input: { file_path: f.path, ...f.input } })),
  };
}

/**
 * Claude Code's answer, cut to Codex's schema: a permission decision Codex does not take on
 * the event is left out (render.ts has already turned it into the strictest one it can),
 * and a deny always carries the non-empty reason Codex requires, or Codex ignores it.
 */
export function writeCodex(p: EventProtocol, out: Output): HookResponse {
  let permission = out.permission;
  if (permission && !p.permission?.outcomes.includes(permission.decision)) permission = null;
  if (permission?.decision === 'deny' && !permission.reason?.trim()) permission = { decision: 'deny', reason: `${PREFIX}denied by the policy` };
  return writeOutput(p, { ...out, permission });
}

export const adapter: HostAdapter = {
  name: 'codex',
  title: 'Codex CLI',
  identity: true,
  read: readCodexEvent,
  protocol: codexProtocol,
  write: writeCodex,
};
