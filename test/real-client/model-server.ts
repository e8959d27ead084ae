/**
 * A scripted Anthropic Messages API on 127.0.0.1 for the real Claude Code client.
 *
 * `POST /v1/messages` answers from the scenario: the script is picked by the request's
 * first user message (a subagent's marker, else the main script) and the turn by how many
 * assistant messages the request already holds, so a retried request gets the same answer.
 * Requests without tools (titles, summaries) get a short text. It streams (SSE) when the
 * request says `stream`, and answers plain JSON otherwise. `count_tokens` and the models
 * endpoints answer sensibly; anything else is a 404. Every request is recorded.
 */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { DONE_TEXT, type Scenario, type Turn } from './scenario';

export const MODEL_ID = 'claude-scripted-1';

/** One request as the client sent it, and which script turn answered it. */
export interface RecordedRequest {
  method: string;
  path: string;
  body: MessagesBody | null;
  /** 'main', a subagent's marker, 'side' (no tools) or 'other' (not /v1/messages). */
  script: string;
  turn: number;
  /** When the request's body had arrived and when the answer was written out (ms, `performance.timeOrigin` based). */
  receivedAt?: number;
  answeredAt?: number;
}

export interface MessagesBody {
  model?: string;
  stream?: boolean;
  system?: unknown;
  tools?: Array<{ name: string }>;
  messages?: Array<{ role: string; content: unknown }>;
}

export interface ModelServer {
  url: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

interface ContentBlock {
  type: 'text' | 'tool_use';
  text?: string;
  id?: string;
  name?: string;
  input?: Record<string, unknown>;
}

/** The text of every text block in a message's content (string or block list). */
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((b: { type?: string; text?: string; content?: unknown }) => {
      if (b.type === 'text') return b.text ?? '';
      if (b.type === 'tool_result') return contentText(b.content);
      return '';
    })
    .join('\n');
}

function pickScript(body: MessagesBody, scenario: Scenario): { name: string; key: string; turns: Turn[] } {
  const firstUser = body.messages?.find((m) => m.role === 'user');
  const text = firstUser ? contentText(firstUser.content) : '';
  const index = (scenario.subagents ?? []).findIndex((s) => text.includes(s.marker));
  if (index >= 0) {
    const sub = scenario.subagents![index];
    return { name: sub.marker, key: `s${index}`, turns: sub.turns };
  }
  return { name: 'main', key: 'm', turns: scenario.main };
}

function answerFor(body: MessagesBody, scenario: Scenario): { record: Omit<RecordedRequest, 'method' | 'path' | 'body'>; blocks: ContentBlock[] } {
  if (!body.tools || body.tools.length === 0) {
    return { record: { script: 'side', turn: 0 }, blocks: [{ type: 'text', text: 'Scripted summary.' }] };
  }
  const script = pickScript(body, scenario);
  const turn = (body.messages ?? []).filter((m) => m.role === 'assistant').length;
  const step = script.turns[turn] ?? { text: DONE_TEXT };
  const blocks: ContentBlock[] = 'text' in step
    ? [{ type: 'text', text: step.text }]
    : step.tools.map((call, i) => ({ type: 'tool_use', id: `toolu_${script.key}_${turn}_${i}`, name: call.name, input: call.input }));
  return { record: { script: script.name, turn }, blocks };
}

function messageOf(blocks: ContentBlock[], id: string): Record<string, unknown> {
  return {
    id,
    type: 'message',
    role: 'assistant',
    model: MODEL_ID,
    content: blocks,
    stop_reason: blocks.some((b) => b.type === 'tool_use') ? 'tool_use' : 'end_turn',
    stop_sequence: null,
    usage: { input_tokens: 10, output_tokens: 10, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
  };
}

function streamMessage(res: http.ServerResponse, message: Record<string, unknown>): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const send = (type: string, data: Record<string, unknown>) => res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
  const blocks = message.content as ContentBlock[];
  send('message_start', { message: { ...message, content: [], stop_reason: null, usage: { input_tokens: 10, output_tokens: 1 } } });
  blocks.forEach((block, index) => {
    if (block.type === 'text') {
      send('content_block_start', { index, content_block: { type: 'text', text: '' } });
      send('content_block_delta', { index, delta: { type: 'text_delta', text: block.text } });
    } else {
      send('content_block_start', { index, content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} } });
      send('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: JSON.stringify(block.input) } });
    }
    send('content_block_stop', { index });
  });
  send('message_delta', { delta: { stop_reason: message.stop_reason, stop_sequence: null }, usage: { output_tokens: 10 } });
  send('message_stop', {});
  res.end();
}

function json(res: http.ServerResponse, status: number, value: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(value));
}

/** Wall-clock milliseconds with sub-millisecond precision. */
function now(): number {
  return performance.timeOrigin + performance.now();
}

const MODEL_INFO = { type: 'model', id: MODEL_ID, display_name: 'Scripted model', created_at: '2026-01-01T00:00:00Z' };

/**
 * Starts the server on an ephemeral port of 127.0.0.1.
 * @example const model = await startModelServer({ main: [say('hi')] }); model.url // 'http://127.0.0.1:40123'
 */
export async function startModelServer(scenario: Scenario): Promise<ModelServer> {
  const requests: RecordedRequest[] = [];
  let counter = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const pathname = (req.url ?? '/').split('?')[0];
      let body: MessagesBody | null = null;
      try {
        body = raw ? (JSON.parse(raw) as MessagesBody) : null;
      } catch {
        body = null;
      }
      const base = { method: req.method ?? 'GET', path: pathname, body, receivedAt: now() };
      if (req.method === 'POST' && pathname === '/v1/messages' && body) {
        const { record, blocks } = answerFor(body, scenario);
        const recorded: RecordedRequest = { ...base, ...record };
        requests.push(recorded);
        res.once('finish', () => { recorded.answeredAt = now(); });
        const message = messageOf(blocks, `msg_scripted_${++counter}`);
        if (body.stream) streamMessage(res, message);
        else json(res, 200, message);
        return;
      }
      requests.push({ ...base, script: 'other', turn: 0 });
      if (req.method === 'POST' && pathname === '/v1/messages/count_tokens') {
        return json(res, 200, { input_tokens: Math.max(1, Math.ceil(raw.length / 4)) });
      }
      if (req.method === 'GET' && pathname === '/v1/models') {
        return json(res, 200, { data: [MODEL_INFO], has_more: false, first_id: MODEL_ID, last_id: MODEL_ID });
      }
      if (req.method === 'GET' && pathname === `/v1/models/${MODEL_ID}`) return json(res, 200, MODEL_INFO);
      json(res, 404, { type: 'error', error: { type: 'not_found_error', message: `scripted model: no route ${req.method} ${pathname}` } });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
