/**
 * Talking to the policy server on 127.0.0.1:<port> as its own user: is it there, is it
 * ours (it proves it holds the token, for a nonce of ours), register a session, stop it.
 * The token never travels: every message carries a proof made with it.
 */
import * as crypto from 'crypto';
import * as http from 'http';
import { listenerOwner } from './processes';
import type { SessionRegistration } from './registry';
import { proofOf, sameProof } from './state';

/**
 * What is on the port: nothing, this user's server (of which build), something that
 * answered but cannot prove it is (foreign), or something that took the connection and did
 * not answer in time (silent: a server of ours busy on a loaded machine looks the same).
 */
export type PortHolder =
  | { kind: 'none' }
  | { kind: 'ours'; pid: number; build: string; sessions: number }
  | { kind: 'foreign'; why: string; owner: number | null }
  | { kind: 'silent'; why: string };

interface Reply {
  status: number;
  body: string;
}

/** One request to 127.0.0.1:port; rejects with the socket error (ECONNREFUSED when nothing listens). */
export function request(port: number, method: 'GET' | 'POST', path: string, body: string | null, timeoutMs: number): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path, method, agent: false, headers: body === null ? {} : { 'content-type': 'application/json' }, timeout: timeoutMs }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(Object.assign(new Error(`no answer within ${timeoutMs} ms`), { code: 'ETIMEDOUT' })));
    req.on('error', reject);
    req.end(body ?? undefined);
  });
}

/**
 * Who holds the port. A server that answers the nonce with a valid proof is ours; anything
 * else listening there (another program, another user's server, one that would not say)
 * is foreign, with the user that owns the listening socket where /proc tells.
 * @example await portHolder(8707, token) // { kind: 'ours', pid: 4242, build: '0.1.0+3f9a1c2e', sessions: 1 }
 */
export async function portHolder(port: number, token: string, timeoutMs = 2000): Promise<PortHolder> {
  const nonce = crypto.randomBytes(16).toString('hex');
  let reply: Reply;
  try {
    reply = await request(port, 'GET', `/hookpolicy/hello?nonce=${nonce}`, null, timeoutMs);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ECONNREFUSED') return { kind: 'none' };
    return { kind: 'silent', why: `it took the connection but gave no answer (${code ?? (e as Error).message})` };
  }
  const answer = parseObject(reply.body);
  const pid = Number(answer?.pid);
  const build = typeof answer?.build === 'string' ? answer.build : '';
  if (reply.status !== 200 || !answer || !Number.isInteger(pid)) {
    return { kind: 'foreign', why: `it answered the greeting with HTTP ${reply.status}, not as a policy server`, owner: listenerOwner(port) };
  }
  if (!sameProof(answer.proof, proofOf(token, 'server', `${nonce}\n${build}\n${pid}`))) {
    return { kind: 'foreign', why: 'it cannot prove it holds this user\'s token', owner: listenerOwner(port) };
  }
  return { kind: 'ours', pid, build, sessions: Number(answer.sessions) || 0 };
}

/**
 * Registers a session with the server (only after portHolder said it is ours).
 * @example await registerSession(8707, token, registration) // { ok: true }
 */
export async function registerSession(port: number, token: string, registration: SessionRegistration, timeoutMs = 5000): Promise<{ ok: true } | { ok: false; reason: string; status: number }> {
  const body = JSON.stringify({ registration, proof: proofOf(token, 'register', JSON.stringify(registration)) });
  const reply = await request(port, 'POST', '/hookpolicy/session', body, timeoutMs);
  if (reply.status === 200) return { ok: true };
  const error = parseObject(reply.body)?.error;
  return { ok: false, reason: typeof error === 'string' ? error : `HTTP ${reply.status}`, status: reply.status };
}

/**
 * Asks the server to stop.
 * @example await stopServer(8707, token) // true
 */
export async function stopServer(port: number, token: string, timeoutMs = 5000): Promise<boolean> {
  const at = String(Date.now());
  const reply = await request(port, 'POST', '/hookpolicy/stop', JSON.stringify({ at: Number(at), proof: proofOf(token, 'stop', at) }), timeoutMs);
  return reply.status === 200;
}

function parseObject(text: string): Record<string, unknown> | null {
  try {
    const v = JSON.parse(text) as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}
