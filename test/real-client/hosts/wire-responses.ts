/**
 * OpenAI's Responses API (`POST /v1/responses`, streamed as server-sent events), as Codex
 * CLI speaks it to a provider with `wire_api = "responses"`. A model turn is one output
 * item per tool call (`function_call`, with the tool's namespace when it has one) or one
 * assistant `message`; tool call ids are `call_<script>_<turn>_<index>`, so the turn a
 * request is at is read back from the calls and messages its input already holds.
 */
import type * as http from 'node:http';
import type { Turn } from '../scenario';
import { textOf, type HostRequest, type Wire, type WireRequest } from './wire';

interface Item {
  type?: string;
  role?: string;
  call_id?: string;
  output?: unknown;
  content?: unknown;
  name?: string;
  arguments?: string;
}

const OUR_CALL = /^call_[a-z0-9]+_(\d+)_\d+$/;

function items(body: Record<string, unknown>): Item[] {
  return Array.isArray(body.input) ? (body.input as Item[]) : [];
}

function read(body: Record<string, unknown>): WireRequest {
  const input = items(body);
  const turns = new Set<string>();
  for (const i of input) {
    const m = i.type === 'function_call' && typeof i.call_id === 'string' ? OUR_CALL.exec(i.call_id) : null;
    if (m) turns.add(m[1]);
  }
  const messages = input.filter((i) => i.type === 'message' && i.role === 'assistant').length;
  const agentIds: string[] = [];
  for (const i of input.filter((x) => x.type === 'function_call_output')) {
    try {
      const id = (JSON.parse(String(i.output)) as { agent_id?: unknown }).agent_id;
      if (typeof id === 'string') agentIds.push(id);
    } catch {
      // Not JSON: no agent id.
    }
  }
  return {
    hasTools: Array.isArray(body.tools) && body.tools.length > 0,
    userText: input.filter((i) => i.type === 'message' && i.role === 'user').map((i) => textOf(i.content)).join('\n'),
    turn: turns.size + messages,
    agentIds,
  };
}

function outputItems(turn: Turn, ids: { script: string; turn: number }): Array<Record<string, unknown>> {
  if ('text' in turn) return [{ type: 'message', id: `msg_${ids.script}_${ids.turn}`, role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: turn.text, annotations: [] }] }];
  return turn.tools.map((call, i) => ({
    type: 'function_call', id: `fc_${ids.script}_${ids.turn}_${i}`, call_id: `call_${ids.script}_${ids.turn}_${i}`, name: call.name,
    ...(call.namespace ? { namespace: call.namespace } : {}), arguments: JSON.stringify(call.input), status: 'completed',
  }));
}

let counter = 0;

export const responsesWire: Wire = {
  isModelCall: (method, path) => method === 'POST' && path.endsWith('/responses'),
  read,
  answer(res: http.ServerResponse, turn: Turn, ids, stream) {
    const id = `resp_scripted_${++counter}`;
    const output = outputItems(turn, ids);
    const usage = { input_tokens: 10, output_tokens: 10, total_tokens: 20, input_tokens_details: { cached_tokens: 0 }, output_tokens_details: { reasoning_tokens: 0 } };
    const response = { id, object: 'response', status: 'completed', output, usage };
    if (!stream) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(response));
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    const send = (type: string, data: Record<string, unknown>) => res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
    send('response.created', { response: { id, object: 'response', status: 'in_progress', output: [] } });
    output.forEach((item, index) => {
      send('response.output_item.added', { output_index: index, item });
      send('response.output_item.done', { output_index: index, item });
    });
    send('response.completed', { response });
    res.end();
  },
  other(res, method, path) {
    if (method !== 'GET' || !path.endsWith('/models')) return false;
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ object: 'list', data: [] }));
    return true;
  },
};

/**
 * What a tool call returned to the model: the `function_call_output` for its id, or null.
 * @example codexToolOutput(requests, 'call_m_0_0') // 'Command blocked by PreToolUse hook: ...'
 */
export function codexToolOutput(requests: HostRequest[], callId: string): string | null {
  for (const r of requests) {
    const found = items(r.body ?? {}).find((i) => i.type === 'function_call_output' && i.call_id === callId);
    if (found) return textOf(found.output);
  }
  return null;
}

/** Everything a request shows the model (instructions and every input item), as text. */
export function codexRequestText(request: HostRequest): string {
  return [textOf(request.body?.instructions), ...items(request.body ?? {}).map((i) => textOf(i.content ?? i.output ?? ''))].join('\n');
}

/**
 * Every distinct place a marker reached the model, in the first request that shows it:
 * a tool's output, or a message of a role.
 * @example codexSightings(requests, 'HPMARK1Z') // [{ where: 'tool output', text: 'Command blocked by PreToolUse hook: <reason>...' }]
 */
export function codexSightings(requests: HostRequest[], marker: string): Array<{ where: string; text: string }> {
  for (const r of requests.filter((x) => x.script === 'main')) {
    const found: Array<{ where: string; text: string }> = [];
    for (const i of items(r.body ?? {})) {
      const text = textOf(i.type === 'function_call_output' ? i.output : i.content);
      if (!text.includes(marker)) continue;
      const where = i.type === 'function_call_output' ? 'tool output' : `${i.role ?? i.type} message`;
      const line = text.split('\n').find((l) => l.includes(marker)) ?? text;
      if (!found.some((f) => f.where === where && f.text === line)) found.push({ where, text: line });
    }
    if (found.length > 0) return found;
  }
  return [];
}
