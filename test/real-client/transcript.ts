/**
 * Reading back what the model was shown: tool results by tool_use id, and whether a text
 * reached any request of a script (injected context, hook feedback).
 */
import { contentText, type RecordedRequest } from './model-server';

export interface ToolResult {
  text: string;
  isError: boolean;
}

interface Block {
  type?: string;
  tool_use_id?: string;
  content?: unknown;
  is_error?: boolean;
}

function blocksOf(request: RecordedRequest): Block[] {
  return (request.body?.messages ?? []).flatMap((m) => (Array.isArray(m.content) ? (m.content as Block[]) : []));
}

/**
 * The tool result the model was sent for a tool call, or null when none was sent.
 * Tool ids are `toolu_<m|s0|s1...>_<turn>_<index>` (model-server.ts).
 * @example toolResult(session.requests, 'toolu_m_0_0') // { text: 'PreToolUse:Write hook error: ...', isError: true }
 */
export function toolResult(requests: RecordedRequest[], toolUseId: string): ToolResult | null {
  for (const request of requests) {
    const block = blocksOf(request).find((b) => b.type === 'tool_result' && b.tool_use_id === toolUseId);
    if (block) return { text: contentText(block.content), isError: block.is_error === true };
  }
  return null;
}

/** Everything a request shows the model as text: system prompt and every message. */
export function requestText(request: RecordedRequest): string {
  const system = request.body?.system;
  const systemText = typeof system === 'string' ? system : contentText(system);
  return [systemText, ...(request.body?.messages ?? []).map((m) => contentText(m.content))].join('\n');
}

/** The requests answered by one script ('main' or a subagent's marker). */
export function requestsOf(requests: RecordedRequest[], script: string): RecordedRequest[] {
  return requests.filter((r) => r.script === script);
}

/** True when any of these requests showed the model `text`. */
export function modelSaw(requests: RecordedRequest[], text: string): boolean {
  return requests.some((r) => requestText(r).includes(text));
}

/** The user messages of the last request of a script, as text (what the model read last). */
export function lastUserTexts(requests: RecordedRequest[], script = 'main'): string[] {
  const last = requestsOf(requests, script).at(-1);
  return (last?.body?.messages ?? []).filter((m) => m.role === 'user').map((m) => contentText(m.content));
}
