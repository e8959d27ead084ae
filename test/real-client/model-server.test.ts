/**
 * The scripted model on its own (no client needed): streamed and plain answers, the
 * script and turn it picks, the side endpoints, 404s, the record of requests, and the
 * scenario example of docs/real-client.md.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { DONE_TEXT, say, tools, type Scenario } from './scenario';
import { startModelServer, type ModelServer } from './model-server';

let server: ModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function post(url: string, body: unknown): Promise<Response> {
  return fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
}

/** A JSON answer, loosely typed: the assertions say what it must hold. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Answer = any;

async function answer(url: string, body: unknown): Promise<Answer> {
  return (await post(url, body)).json();
}

const TOOLS = [{ name: 'Write' }];
const user = (text: string) => ({ role: 'user', content: [{ type: 'text', text }] });
const assistant = { role: 'assistant', content: [{ type: 'text', text: 'earlier' }] };

/** Reassembles an SSE stream into its events. */
function sseEvents(text: string): Array<{ event: string; data: Record<string, unknown> }> {
  return text.trim().split('\n\n').map((chunk) => {
    const [eventLine, dataLine] = chunk.split('\n');
    return { event: eventLine.replace('event: ', ''), data: JSON.parse(dataLine.replace('data: ', '')) };
  });
}

describe('scripted model server', () => {
  const scenario: Scenario = {
    main: [tools({ name: 'Write', input: { file_path: 'a.txt', content: 'x' } }), say('main done')],
    subagents: [{ marker: 'SUB-ONE', turns: [say('sub done')] }],
  };

  it('answers the main script turn by turn as JSON, with tool_use ids by script, turn and index', async () => {
    server = await startModelServer(scenario);
    const first = await answer(`${server.url}/v1/messages`, { tools: TOOLS, messages: [user('go')] });
    expect(first).toMatchObject({ stop_reason: 'tool_use', content: [{ type: 'tool_use', id: 'toolu_m_0_0', name: 'Write', input: { file_path: 'a.txt', content: 'x' } }] });
    const second = await answer(`${server.url}/v1/messages`, { tools: TOOLS, messages: [user('go'), assistant, user('result')] });
    expect(second).toMatchObject({ stop_reason: 'end_turn', content: [{ type: 'text', text: 'main done' }] });
    const third = await answer(`${server.url}/v1/messages`, { tools: TOOLS, messages: [user('go'), assistant, user('r'), assistant, user('r')] });
    expect(third.content[0].text).toBe(DONE_TEXT);
    expect(server.requests.map((r) => [r.script, r.turn])).toEqual([['main', 0], ['main', 1], ['main', 2]]);
  });

  it('streams the same answer as SSE when asked, tool input as one input_json_delta', async () => {
    server = await startModelServer(scenario);
    const res = await post(`${server.url}/v1/messages`, { stream: true, tools: TOOLS, messages: [user('go')] });
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    const events = sseEvents(await res.text());
    expect(events.map((e) => e.event)).toEqual(['message_start', 'content_block_start', 'content_block_delta', 'content_block_stop', 'message_delta', 'message_stop']);
    expect(events[1].data).toMatchObject({ index: 0, content_block: { type: 'tool_use', id: 'toolu_m_0_0', name: 'Write', input: {} } });
    expect(JSON.parse((events[2].data.delta as { partial_json: string }).partial_json)).toEqual({ file_path: 'a.txt', content: 'x' });
    expect(events[4].data).toMatchObject({ delta: { stop_reason: 'tool_use' } });
  });

  it('picks a subagent script by the marker in the first user message; requests without tools are side requests', async () => {
    server = await startModelServer(scenario);
    const sub = await answer(`${server.url}/v1/messages`, { tools: TOOLS, messages: [user('SUB-ONE: please')] });
    expect(sub.content).toEqual([{ type: 'text', text: 'sub done' }]);
    const side = await answer(`${server.url}/v1/messages`, { messages: [user('title this')] });
    expect(side.content[0].type).toBe('text');
    expect(server.requests.map((r) => r.script)).toEqual(['SUB-ONE', 'side']);
  });

  it('answers count_tokens and the models endpoints, and 404 for anything else (recorded too)', async () => {
    server = await startModelServer(scenario);
    const count = await answer(`${server.url}/v1/messages/count_tokens`, { messages: [user('hello world')] });
    expect(count.input_tokens).toBeGreaterThan(0);
    const models = (await (await fetch(`${server.url}/v1/models`)).json()) as Answer;
    expect(models.data[0].id).toBe('claude-scripted-1');
    expect((await fetch(`${server.url}/v1/models/claude-scripted-1`)).status).toBe(200);
    const missing = await fetch(`${server.url}/v1/files`);
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as Answer).error.type).toBe('not_found_error');
    expect(server.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['POST /v1/messages/count_tokens', 'GET /v1/models', 'GET /v1/models/claude-scripted-1', 'GET /v1/files']);
  });

  it('plays the scenario example of docs/real-client.md', async () => {
    const doc = fs.readFileSync(path.join(__dirname, '..', '..', 'docs', 'real-client.md'), 'utf8');
    const code = /```ts\nconst scenario: Scenario = ([\s\S]*?);\n```/.exec(doc)?.[1];
    expect(code).toBeDefined();
    const example = new Function('tools', 'say', `return ${code}`)(tools, say) as Scenario;
    server = await startModelServer(example);
    const main = await answer(`${server.url}/v1/messages`, { tools: TOOLS, messages: [user('go')] });
    expect(main.content[0]).toMatchObject({ type: 'tool_use', id: 'toolu_m_0_0', name: 'Agent', input: { subagent_type: 'lynch' } });
    const sub = await answer(`${server.url}/v1/messages`, { tools: TOOLS, messages: [user(main.content[0].input.prompt)] });
    expect(sub.content[0]).toMatchObject({ type: 'tool_use', id: 'toolu_s0_0_0', name: 'Write' });
  });
});
