/**
 * A prose summary from an endpoint: the Anthropic Messages API (`/v1/messages`) or an
 * OpenAI-compatible Chat Completions API (`/v1/chat/completions`). The key is read from
 * the environment variable the policy names, at the moment of the call, and sent only in
 * the header its API expects.
 */
import type { CompiledApiSummarizer } from '../../types';
import { answerError, endpointUrl, postJson } from './http-post';

export type ModelAnswer = { ok: true; text: string } | { ok: false; error: string };

/** The Messages API version sent as anthropic-version. */
export const ANTHROPIC_VERSION = '2023-06-01';

export interface ModelRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
}

/**
 * The request that asks `s`'s endpoint for `prompt`, or why it cannot be made (the key's
 * variable is named but empty).
 * @example chatRequest({ api: 'anthropic', url: 'https://api.anthropic.com', model: 'm', keyEnv: 'K', maxTokens: 600, ... }, 'Summarize', { K: 'sk' }).url // 'https://api.anthropic.com/v1/messages'
 */
export function chatRequest(s: CompiledApiSummarizer, prompt: string, env: Readonly<Record<string, string | undefined>>): ModelRequest | { error: string } {
  const key = s.keyEnv ? env[s.keyEnv] ?? '' : null;
  if (key === '') return { error: `the environment variable ${s.keyEnv} (key_env) is not set` };
  const messages = [{ role: 'user', content: prompt }];
  if (s.api === 'anthropic') {
    return {
      url: endpointUrl(s.url, '/messages'),
      headers: { 'anthropic-version': ANTHROPIC_VERSION, ...(key ? { 'x-api-key': key } : {}) },
      body: JSON.stringify({ model: s.model, max_tokens: s.maxTokens, messages }),
    };
  }
  return {
    url: endpointUrl(s.url, '/chat/completions'),
    headers: key ? { authorization: `Bearer ${key}` } : {},
    body: JSON.stringify({ model: s.model, max_tokens: s.maxTokens, messages }),
  };
}

/**
 * The text of an answer: the Messages API's text blocks, or Chat Completions' first choice.
 * @example chatAnswer('anthropic', 200, '{"content":[{"type":"text","text":"Built JWT."}]}') // { ok: true, text: 'Built JWT.' }
 */
export function chatAnswer(api: 'anthropic' | 'openai', status: number, body: string): ModelAnswer {
  if (status < 200 || status > 299) return { ok: false, error: answerError(status, body) };
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return { ok: false, error: 'the endpoint\'s answer is not JSON' };
  }
  const text = api === 'anthropic' ? messagesText(parsed) : completionText(parsed);
  return text === null ? { ok: false, error: `the endpoint's answer has no text (not a${api === 'anthropic' ? ' Messages' : ' Chat Completions'} answer?)` } : { ok: true, text };
}

function messagesText(v: unknown): string | null {
  const content = (v as { content?: unknown })?.content;
  if (!Array.isArray(content)) return null;
  const texts = content.filter((b) => b?.type === 'text' && typeof b.text === 'string').map((b) => b.text as string);
  return texts.length > 0 ? texts.join('\n') : null;
}

function completionText(v: unknown): string | null {
  const choices = (v as { choices?: unknown })?.choices;
  const content = Array.isArray(choices) ? (choices[0] as { message?: { content?: unknown } })?.message?.content : undefined;
  return typeof content === 'string' ? content : null;
}

/**
 * Asks the endpoint for a summary of `prompt`.
 * @example await askEndpoint(summarizer, prompt, process.env) // { ok: true, text: 'Built the JWT middleware; ...' }
 */
export async function askEndpoint(s: CompiledApiSummarizer, prompt: string, env: Readonly<Record<string, string | undefined>>): Promise<ModelAnswer> {
  const request = chatRequest(s, prompt, env);
  if ('error' in request) return { ok: false, error: request.error };
  const answer = await postJson(request.url, request.headers, request.body, s.timeoutMs);
  return answer.ok ? chatAnswer(s.api, answer.status, answer.body) : { ok: false, error: answer.error };
}
