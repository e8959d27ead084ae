/**
 * The memory process's embedding pass: the newest records without a vector of the
 * policy's model are sent to the embeddings endpoint in batches, and their vectors stored
 * beside them (engine/host/embeddings/vector-store.ts). Bounded per run; what is left
 * waits for the next run. A failure stops the pass and is returned, for an
 * `embedding-error` record (at most one an hour, so an endpoint that is down does not
 * fill the store with them).
 */
import type { CompiledEmbeddings } from '../../types';
import { embeddingsAnswer, embeddingsRequest } from '../embeddings/embeddings-api';
import { ensureVectorTable, saveVectors, unembedded } from '../embeddings/vector-store';
import type { MemoryIndex } from '../memory/memory-index';
import { postJson } from './http-post';
import { redactText } from '../redact';

/** Texts per request. */
export const BATCH = 32;
/** Records embedded per run, at most. */
export const MAX_PER_RUN = 512;
/** How long one batch may take. */
const BATCH_TIMEOUT_MS = 60_000;

export interface EmbedOutcome {
  embedded: number;
  error?: string;
}

/**
 * Embeds up to MAX_PER_RUN records that have no vector yet, newest first.
 * @example await embedRecords(index, embeddings, process.env) // { embedded: 40 }
 */
export async function embedRecords(index: MemoryIndex, e: CompiledEmbeddings, env: Readonly<Record<string, string | undefined>>): Promise<EmbedOutcome> {
  ensureVectorTable(index.db);
  let embedded = 0;
  while (embedded < MAX_PER_RUN) {
    const batch = unembedded(index.db, e.model, Math.min(BATCH, MAX_PER_RUN - embedded));
    if (batch.length === 0) break;
    const request = embeddingsRequest(e, batch.map((r) => redactText(r.text)), env);
    if ('error' in request) return { embedded, error: request.error };
    const answer = await postJson(request.url, request.headers, request.body, BATCH_TIMEOUT_MS);
    if (!answer.ok) return { embedded, error: `the embeddings endpoint did not answer (${answer.error})` };
    const parsed = embeddingsAnswer(answer.status, answer.body, batch.length);
    if ('error' in parsed) return { embedded, error: parsed.error };
    saveVectors(index.db, e.model, batch.map((r, i) => ({ id: r.id, vector: parsed.vectors[i] })));
    embedded += batch.length;
  }
  return { embedded };
}
