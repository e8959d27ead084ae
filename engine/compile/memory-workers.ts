/**
 * `settings.memory.summarizer` and `settings.memory.embeddings`: who writes prose
 * summaries and where records are embedded. Both send the project's records off the
 * machine, so only a root policy file may set them (an included file or a pack cannot),
 * and an API key is only ever named (`key_env`), never written.
 */
import type { CompiledEmbeddings, CompiledSummarizer, LoadedFile } from '../types';
import { isObject } from './context';
import { firstDefined } from './precedence';

/** The CLI's alias for its small model. */
export const DEFAULT_CLI_MODEL = 'haiku';
export const DEFAULT_CLI_TIMEOUT_MS = 120_000;
export const DEFAULT_API_TIMEOUT_MS = 60_000;
export const DEFAULT_MAX_PROMPT_CHARS = 24_000;
export const DEFAULT_MAX_TOKENS = 600;
export const DEFAULT_EMBEDDINGS_TIMEOUT_MS = 1000;
export const DEFAULT_MIN_SIMILARITY = 0.5;

/**
 * The summarizer and embeddings of the root files (the last root first), when one sets them.
 * @example compileMemoryWorkers(ordered) // { summarizer: { via: 'command', command: 'claude', model: 'haiku', ... } }
 */
export function compileMemoryWorkers(ordered: readonly LoadedFile[]): { summarizer?: CompiledSummarizer; embeddings?: CompiledEmbeddings } {
  const roots = ordered.filter((f) => f.root);
  const summarizer = compileSummarizer(firstDefined(roots, (d) => d.settings?.memory?.summarizer)?.value);
  const embeddings = compileEmbeddings(firstDefined(roots, (d) => d.settings?.memory?.embeddings)?.value);
  return { ...(summarizer ? { summarizer } : {}), ...(embeddings ? { embeddings } : {}) };
}

function compileSummarizer(raw: unknown): CompiledSummarizer | null {
  if (!isObject(raw)) return null;
  const common = {
    maxPromptChars: int(raw.max_prompt_chars, DEFAULT_MAX_PROMPT_CHARS),
    ...(typeof raw.prompt === 'string' && raw.prompt.trim() !== '' ? { prompt: raw.prompt } : {}),
  };
  if (typeof raw.command === 'string' && raw.command !== '') {
    return { via: 'command', command: raw.command, model: text(raw.model) ?? DEFAULT_CLI_MODEL, timeoutMs: int(raw.timeout_ms, DEFAULT_CLI_TIMEOUT_MS), ...common };
  }
  const url = text(raw.url);
  const model = text(raw.model);
  if (url === null || model === null) return null;
  return {
    via: 'api',
    api: raw.api === 'openai' ? 'openai' : 'anthropic',
    url,
    model,
    keyEnv: text(raw.key_env),
    timeoutMs: int(raw.timeout_ms, DEFAULT_API_TIMEOUT_MS),
    maxTokens: int(raw.max_tokens, DEFAULT_MAX_TOKENS),
    ...common,
  };
}

function compileEmbeddings(raw: unknown): CompiledEmbeddings | null {
  if (!isObject(raw)) return null;
  const url = text(raw.url);
  const model = text(raw.model);
  if (url === null || model === null) return null;
  return {
    url,
    model,
    keyEnv: text(raw.key_env),
    timeoutMs: int(raw.timeout_ms, DEFAULT_EMBEDDINGS_TIMEOUT_MS),
    minSimilarity: typeof raw.min_similarity === 'number' ? raw.min_similarity : DEFAULT_MIN_SIMILARITY,
  };
}

function text(v: unknown): string | null {
  return typeof v === 'string' && v !== '' ? v : null;
}

function int(v: unknown, fallback: number): number {
  return typeof v === 'number' && Number.isInteger(v) && v > 0 ? v : fallback;
}
