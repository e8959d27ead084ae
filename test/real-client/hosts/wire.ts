/**
 * The scripted model for hosts other than Claude Code: one HTTP server on 127.0.0.1 that
 * plays a scenario (test/real-client/scenario.ts) in a host's own wire format, each format
 * in a file of its own (wire-responses.ts for Codex, wire-gemini.ts for Gemini). As for
 * Claude Code (model-server.ts), the script is picked by a subagent's marker in the
 * request's user messages (else the main one) and the turn by how many model turns the
 * request already holds, so a retried request gets the same answer; requests without
 * tools (titles, checks) get a short text; every request is recorded.
 */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { DONE_TEXT, type Scenario, type Turn } from '../scenario';

/** One request as the host sent it, and which script turn answered it. */
export interface HostRequest {
  method: string;
  path: string;
  body: Record<string, unknown> | null;
  /** 'main', a subagent's marker, 'side' (no tools) or 'other' (not a model call). */
  script: string;
  turn: number;
}

/** What a wire reads of a model request. */
export interface WireRequest {
  /** The request offers tools (else it is a side request: a title, a check). */
  hasTools: boolean;
  /** Every user message's text: where a subagent's marker is looked for. */
  userText: string;
  /** How many model turns the request already holds. */
  turn: number;
  /** The ids the host gave to what earlier tool calls made (Codex's spawned agent id), newest last. */
  agentIds: string[];
}

/** A host's wire format. */
export interface Wire {
  /** True for a model call this wire answers. */
  isModelCall(method: string, path: string): boolean;
  read(body: Record<string, unknown>): WireRequest;
  /** Writes one model turn: text, or tool calls whose ids name the script and turn. */
  answer(res: http.ServerResponse, turn: Turn, ids: { script: string; turn: number }, stream: boolean, path: string): void;
  /** Answers another route (token counts, model lists), or returns false for a 404. */
  other?(res: http.ServerResponse, method: string, path: string): boolean;
}

export interface HostModelServer {
  url: string;
  requests: HostRequest[];
  close(): Promise<void>;
}

function pick(scenario: Scenario, read: WireRequest): { name: string; key: string; turns: Turn[] } {
  const index = (scenario.subagents ?? []).findIndex((s) => read.userText.includes(s.marker));
  if (index >= 0) return { name: scenario.subagents![index].marker, key: `s${index}`, turns: scenario.subagents![index].turns };
  return { name: 'main', key: 'm', turns: scenario.main };
}

/** `$AGENT_ID` in a tool's input becomes the newest agent id the host returned (Codex's wait_agent targets). */
function withAgentIds(turn: Turn, ids: string[]): Turn {
  if (!('tools' in turn) || ids.length === 0) return turn;
  return JSON.parse(JSON.stringify(turn).split('$AGENT_ID').join(ids[ids.length - 1])) as Turn;
}

/**
 * Starts the scripted model for one wire on an ephemeral port of 127.0.0.1.
 * @example const model = await startHostModelServer(scenario, responsesWire); model.url // 'http://127.0.0.1:40123'
 */
export async function startHostModelServer(scenario: Scenario, wire: Wire): Promise<HostModelServer> {
  const requests: HostRequest[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const url = req.url ?? '/';
      const pathname = url.split('?')[0];
      let body: Record<string, unknown> | null = null;
      try {
        body = raw ? (JSON.parse(raw) as Record<string, unknown>) : null;
      } catch {
        body = null;
      }
      const method = req.method ?? 'GET';
      if (method === 'POST' && body && wire.isModelCall(method, pathname)) {
        const read = wire.read(body);
        const stream = body.stream === true || url.includes('alt=sse') || pathname.includes('stream');
        if (!read.hasTools) {
          requests.push({ method, path: pathname, body, script: 'side', turn: 0 });
          wire.answer(res, { text: 'Scripted summary.' }, { script: 'x', turn: 0 }, stream, pathname);
          return;
        }
        const script = pick(scenario, read);
        requests.push({ method, path: pathname, body, script: script.name, turn: read.turn });
        wire.answer(res, withAgentIds(script.turns[read.turn] ?? { text: DONE_TEXT }, read.agentIds), { script: script.key, turn: read.turn }, stream, pathname);
        return;
      }
      requests.push({ method, path: pathname, body, script: 'other', turn: 0 });
      if (wire.other?.(res, method, pathname)) return;
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { code: 404, message: `scripted model: no route ${method} ${pathname}` } }));
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

/** The text of a JSON value's strings, joined: what a model request shows the model. */
export function textOf(value: unknown): string {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.map(textOf).join('\n');
  if (value !== null && typeof value === 'object') return Object.values(value).map(textOf).join('\n');
  return '';
}
