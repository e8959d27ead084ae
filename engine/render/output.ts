/**
 * The last step of rendering: what to say (Output), written through the channels one
 * event row allows. Deciding *what* to say is render.ts's job; this file only knows
 * where each piece goes and keeps stdout to one JSON object or nothing.
 */
import type { EventProtocol } from '../protocol';
import type { HookResponse } from '../types';
import { capMessage } from './messages';

/** What the renderer has decided to say, before it is written. */
export interface Output {
  /** A permission decision, written through the event's permission channel. */
  permission: { decision: 'deny' | 'ask' | 'allow'; reason: string | null } | null;
  /** A block reason, written through the event's block channel ('decision-block' or 'exit2'). */
  block: string | null;
  /** Already checked to reach the model on this event. */
  contexts: string[];
  /** Rule warnings: systemMessage where the event shows it, stderr otherwise. */
  warnings: string[];
  /** The runner's own reports: systemMessage where the event shows it, and stderr always. */
  problems: string[];
  /** A tool input that replaces the call's (PreToolUse `updatedInput`): a sandboxed command. */
  updatedInput?: Record<string, unknown>;
}

/** A fresh Output that says nothing. */
export function emptyOutput(): Output {
  return { permission: null, block: null, contexts: [], warnings: [], problems: [] };
}

/** True when the event reads stdout JSON at all. */
export function readsJson(p: EventProtocol): boolean {
  return !p.jsonDiscarded && !p.unsupported;
}

/** True when a top-level systemMessage reaches someone on this event. */
export function showsSystemMessage(p: EventProtocol): boolean {
  return readsJson(p) && p.systemMessage !== 'nowhere';
}

/**
 * Writes an Output for one event: stdout '' or one JSON object + "\n", exit 0 or 2.
 * @example writeOutput(protocolFor('Stop')!, { ...emptyOutput(), block: 'tests fail' })
 *   // { stdout: '{"decision":"block","reason":"tests fail"}\n', stderr: '', exitCode: 0 }
 */
export function writeOutput(p: EventProtocol, out: Output): HookResponse {
  if (out.block !== null && p.block === 'exit2') {
    // Exit 2: stderr is the message and stdout stays empty; nothing else can be shown.
    const lines = [...new Set([out.block, ...out.warnings, ...out.problems])];
    return { stdout: '', stderr: stderrOf(lines), exitCode: 2 };
  }
  const json: Record<string, unknown> = {};
  const specific: Record<string, unknown> = {};
  if (out.permission && p.permission) {
    const { decision, reason } = out.permission;
    if (p.permission.channel === 'permission-decision') {
      specific.permissionDecision = decision;
      if (reason !== null) specific.permissionDecisionReason = capMessage(reason);
    } else if (decision === 'deny') {
      specific.decision = reason !== null ? { behavior: 'deny', message: capMessage(reason) } : { behavior: 'deny' };
    } else if (decision === 'allow') {
      specific.decision = { behavior: 'allow' };
    }
  }
  if (out.block !== null && p.block === 'decision-block') {
    json.decision = 'block';
    json.reason = capMessage(out.block);
  }
  if (out.updatedInput && p.permission?.channel === 'permission-decision' && out.permission?.decision !== 'deny') specific.updatedInput = out.updatedInput;
  if (out.contexts.length > 0 && p.context) specific.additionalContext = capMessage(out.contexts.join('\n\n'));

  const shown = showsSystemMessage(p);
  const notices = [...out.warnings, ...out.problems];
  if (shown && notices.length > 0) json.systemMessage = capMessage(notices.join('\n'));
  const stderrLines = shown ? out.problems : notices;

  if (Object.keys(specific).length > 0) json.hookSpecificOutput = { hookEventName: p.event, ...specific };
  const stdout = readsJson(p) && Object.keys(json).length > 0 ? `${JSON.stringify(json)}\n` : '';
  return { stdout, stderr: stderrOf(stderrLines), exitCode: 0 };
}

function stderrOf(lines: readonly string[]): string {
  return lines.length === 0 ? '' : `${capMessage(lines.join('\n'))}\n`;
}
