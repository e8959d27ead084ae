/**
 * The OpenAI-compatible embeddings API (`POST /v1/embeddings`, `{ model, input: [...] }`
 * in, `{ data: [{ index, embedding }] }` out): the request for some texts and the vectors
 * of its answer. The key is read from the variable the policy names, at the moment of the call.
 */
import type { CompiledEmbeddings } from '../../types';
import { answerError, endpointUrl } from '../summarizer/http-post';

/** The longest text sent to be embedded (characters): a record's start says what it is about. */
export const MAX_EMBEDDED_CHARS = 2000;

export interface EmbeddingsRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
}

/**
 * The request that embeds `texts`, or why it cannot be made (the key's variable is named but empty).
 * @example embeddingsRequest({ url: 'http://127.0.0.1:11434/v1', model: 'm', keyEnv: null, ... }, ['JWT'], {}).url // 'http://127.0.0.1:11434/v1/embeddings'
 */
export function embeddingsRequest(e: CompiledEmbeddings, texts: readonly string[], env: Readonly<Record<string, string | undefined>>): EmbeddingsRequest | { error: string } {
  const key = e.keyEnv ? env[e.keyEnv] ?? '' : null;
  if (key === '') return { error: `the environment variable ${e.keyEnv} (key_env) is not set` };
  return {
    url: endpointUrl(e.url, '/embeddings'),
    headers: key ? { authorization: `Bearer ${key}` } : {},
    body: JSON.stringify({ model: e.model, input: texts.map((t) => t.slice(0, MAX_EMBEDDED_CHARS)) }),
  };
}

/**
 * The `count` vectors of an answer, in the order of the texts, or why there are none.
 * @example embeddingsAnswer(200, '{"data":[{"index":0,"embedding":[0.1,0.2]}]}', 1) // { vectors: [[0.1, 0.2]] }
 */
export function embeddingsAnswer(status: number, body: string, count: number): { vectors: number[][] } | { error: string } {
  if (status < 200 || status > 299) return { error: answerError(status, body) };
  let data: unknown;
  try {
    data = (JSON.parse(body) as { data?: unknown }).data;
  } catch {
    return { error: 'the endpoint\'s answer is not JSON' };
  }
  if (!Array.isArray(data) || data.length !== count) return { error: `the endpoint's answer has ${Array.isArray(data) ? data.length : 'no'} embeddings for ${count} texts` };
  const vectors: number[][] = new Array(count);
  data.forEach((item: { index?: unknown; embedding?: unknown }, i) => {
    const at = typeof item?.index === 'number' ? item.index : i;
    if (Array.isArray(item?.embedding) && item.embedding.length > 0 && item.embedding.every((x) => typeof x === 'number' && Number.isFinite(x))) vectors[at] = item.embedding as number[];
  });
  for (let i = 0; i < count; i++) if (!vectors[i]) return { error: 'the endpoint\'s answer has an embedding that is not a list of numbers' };
  return { vectors };
}
