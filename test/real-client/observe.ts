/**
 * What the model and the user got of one rule's message, read off a session: every place a
 * marker text reached a model request, and every message of the client's stream-json
 * output (what an SDK user or `-p` caller is shown) that carries it. The texts are
 * normalized so they read as the protocol, not as this run: the marker becomes `<reason>`,
 * the runner's command line `<command>`.
 */
import type { RecordedRequest } from './model-server';
import { contentText } from './model-server';

export interface Sighting {
  /** Where it was: 'tool result (is_error)', 'system message', 'user message', or a stream message type. */
  where: string;
  text: string;
}

interface Block {
  type?: string;
  text?: string;
  content?: unknown;
  is_error?: boolean;
}

/** The line that holds the marker, with the line before it when the marker's line is the marker alone. */
function markerLines(text: string, marker: string): string {
  const lines = text.split('\n');
  const i = lines.findIndex((l) => l.includes(marker));
  if (i < 0) return text;
  return lines[i].trim() === marker && i > 0 ? `${lines[i - 1]}⏎${lines[i]}` : lines[i];
}

/** Replaces this run's particulars (marker, runner command line) with placeholders. */
export function normalize(text: string, marker: string): string {
  return markerLines(text, marker)
    .replace(/from command: "[^"]*"/g, 'from command: "<command>"')
    .split(marker)
    .join('<reason>');
}

function add(into: Sighting[], where: string, text: string, marker: string): void {
  const s = { where, text: normalize(text, marker) };
  if (!into.some((x) => x.where === s.where && x.text === s.text)) into.push(s);
}

/**
 * Every distinct place the marker reached the model, in the first request that shows it
 * to the given script.
 * @example modelSightings(requests, 'MARK-1') // [{ where: 'tool result (is_error)', text: 'PreToolUse:Write hook error: <reason>' }]
 */
export function modelSightings(requests: RecordedRequest[], marker: string, script = 'main'): Sighting[] {
  const out: Sighting[] = [];
  for (const request of requests.filter((r) => r.script === script)) {
    for (const message of request.body?.messages ?? []) {
      const blocks: Block[] = typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : (message.content as Block[]);
      for (const block of blocks) {
        if (block.type === 'tool_result') {
          const text = contentText(block.content);
          if (text.includes(marker)) add(out, block.is_error ? 'tool result (is_error)' : 'tool result', text, marker);
        } else if (block.type === 'text' && block.text?.includes(marker)) {
          add(out, `${message.role} message`, block.text, marker);
        }
      }
    }
    if (out.length > 0) return out;
  }
  return out;
}

/** Stream messages that only echo hook runs or the conversation itself (not shown as notices). */
const ECHOES = new Set(['hook_started', 'hook_response', 'init']);

/**
 * Every stream-json message that shows the marker to the user, other than the
 * conversation's own messages and the verbose hook echoes.
 * @example userSightings(messages, 'MARK-1') // [{ where: 'system/informational', text: 'PreToolUse:Write says: <reason>' }]
 */
export function userSightings(messages: unknown[], marker: string): Sighting[] {
  const out: Sighting[] = [];
  for (const m of messages as Array<Record<string, unknown>>) {
    if (typeof m !== 'object' || m === null || m.type !== 'system' || ECHOES.has(String(m.subtype))) continue;
    const text = [m.content, m.message, m.text].find((v): v is string => typeof v === 'string' && v.includes(marker));
    if (text) add(out, `system/${String(m.subtype)}`, text, marker);
  }
  return out;
}

/** Sightings as one table cell. */
export function describeSightings(sightings: Sighting[]): string {
  if (sightings.length === 0) return 'nothing';
  return sightings.map((s) => `${s.where}: \`${s.text.replace(/\|/g, '\\|')}\``).join('<br>');
}
