/**
 * The Gemini API (`POST /v1beta/models/<model>:streamGenerateContent?alt=sse`, and the
 * plain `:generateContent`), as Gemini CLI speaks it to `GOOGLE_GEMINI_BASE_URL`. A model
 * turn is one `model` content whose parts are text or `functionCall`s; the turn a request
 * is at is the number of `model` contents it already holds.
 */
import type * as http from 'node:http';
import type { Turn } from '../scenario';
import { textOf, type HostRequest, type Wire, type WireRequest } from './wire';

interface Content {
  role?: string;
  parts?: Array<{ text?: string; functionCall?: unknown; functionResponse?: { name?: string; id?: string; response?: unknown } }>;
}

function contents(body: Record<string, unknown>): Content[] {
  return Array.isArray(body.contents) ? (body.contents as Content[]) : [];
}

function read(body: Record<string, unknown>): WireRequest {
  const all = contents(body);
  const declared = Array.isArray(body.tools) && (body.tools as Array<{ functionDeclarations?: unknown[] }>).some((t) => (t.functionDeclarations ?? []).length > 0);
  return {
    hasTools: declared,
    userText: all.filter((c) => c.role === 'user').flatMap((c) => (c.parts ?? []).map((p) => p.text ?? '')).join('\n'),
    turn: all.filter((c) => c.role === 'model').length,
    agentIds: [],
  };
}

export const geminiWire: Wire = {
  isModelCall: (method, path) => method === 'POST' && /:(stream)?[gG]enerateContent$/.test(path),
  read,
  answer(res: http.ServerResponse, turn: Turn, _ids, stream) {
    const parts = 'text' in turn ? [{ text: turn.text }] : turn.tools.map((call) => ({ functionCall: { name: call.name, args: call.input } }));
    const chunk = { candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }], usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 10, totalTokenCount: 20 }, modelVersion: 'scripted' };
    if (stream) {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(`data: ${JSON.stringify(chunk)}\n\n`);
    } else {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(chunk));
    }
  },
  other(res, method, path) {
    if (method !== 'POST' || !path.endsWith(':countTokens')) return false;
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ totalTokens: 10 }));
    return true;
  },
};

/**
 * What a tool call returned to the model, the nth call of `tool` in the script (Gemini gives
 * the ids itself): its `functionResponse.response` as text, or null.
 * @example geminiToolOutput(requests, 'run_shell_command') // 'Tool execution blocked: ...'
 */
export function geminiToolOutput(requests: HostRequest[], tool: string, nth = 0): string | null {
  const seen = requests.flatMap((r) => contents(r.body ?? {}).flatMap((c) => (c.parts ?? []).filter((p) => p.functionResponse?.name === tool)));
  const unique = [...new Map(seen.map((p) => [p.functionResponse?.id ?? JSON.stringify(p), p])).values()];
  const part = unique[nth];
  return part ? textOf(part.functionResponse?.response) : null;
}

/** Everything a request shows the model, as text. */
export function geminiRequestText(request: HostRequest): string {
  return [textOf(request.body?.systemInstruction), ...contents(request.body ?? {}).map((c) => textOf(c.parts))].join('\n');
}

/**
 * Every distinct place a marker reached the model, in the first request that shows it: a
 * tool's response, or a user or model text.
 * @example geminiSightings(requests, 'HPMARK1Z') // [{ where: 'tool response (error)', text: 'Tool execution blocked: <reason>' }]
 */
export function geminiSightings(requests: HostRequest[], marker: string): Array<{ where: string; text: string }> {
  for (const r of requests.filter((x) => x.script === 'main')) {
    const found: Array<{ where: string; text: string }> = [];
    for (const c of contents(r.body ?? {})) {
      for (const p of c.parts ?? []) {
        const response = p.functionResponse?.response as Record<string, unknown> | undefined;
        const text = p.functionResponse ? textOf(response) : (p.text ?? '');
        if (!text.includes(marker)) continue;
        const where = p.functionResponse ? `tool response${response && 'error' in response ? ' (error)' : ''}` : `${c.role} text`;
        const line = text.split('\n').find((l) => l.includes(marker)) ?? text;
        if (!found.some((f) => f.where === where && f.text === line)) found.push({ where, text: line });
      }
    }
    if (found.length > 0) return found;
  }
  return [];
}
