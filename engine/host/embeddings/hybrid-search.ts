/**
 * Search with embeddings, for readers of a store whose policy configures them: the full-
 * text candidates (FTS5, relevance as memory-index.ts gives it) and the records whose
 * vectors are nearest the query's, each ranked by the higher of its full-text relevance and
 * its cosine similarity (a similarity below min_similarity counts as none). The query is
 * embedded on the spot, waiting at most embeddings.timeout_ms; when the endpoint does not
 * answer, the ranking is full text alone and the note says why (it reaches the let's
 * trace). A search that finds records not embedded yet starts the memory process to embed
 * them, at most once a minute. Loaded only by such a search (dist/embeddings.cjs).
 */
import type { CompiledEmbeddings, MemoryRecord } from '../../types';
import type { MemoryIndex } from '../memory/memory-index';
import type { SummarizerJob } from '../summarizer/job';
import { startSummarizer } from '../summarizer/start';
import { embeddingsAnswer, embeddingsRequest } from './embeddings-api';
import { redactText } from '../redact';
import { postJsonSync } from './sync-post';
import { dot, loadVectors, setStateValue, stateValue, unembeddedCount, unit } from './vector-store';

/** Full-text candidates taken before ranking. */
const CANDIDATES = 50;
/** Embedded records compared with the query: the newest this many. */
export const MAX_COMPARED = 2000;
/** The least time between two memory processes a search starts. */
const START_EVERY_MS = 60_000;

export const BOTH = 'full text and embeddings';

export interface HybridSearchOptions {
  embeddings: CompiledEmbeddings;
  store: SummarizerJob['store'];
  env: Readonly<Record<string, string | undefined>>;
  now: () => number;
  /** The request; replaceable in tests. */
  post?: typeof postJsonSync;
  /** Starts the memory process to embed what is missing; replaceable in tests. */
  start?: (job: SummarizerJob) => void;
}

export interface HybridSearchResult {
  results: Array<{ record: MemoryRecord; relevance: number }>;
  /** How they were ranked: BOTH, or `full text only: <why>`. */
  note: string;
}

/**
 * The `limit` best records for `query`, with how they were ranked.
 * @example hybridSearch(index, 'token expiry', 3, options) // { results: [{ record, relevance: 0.83 }], note: 'full text and embeddings' }
 */
export function hybridSearch(index: MemoryIndex, query: string, limit: number, options: HybridSearchOptions): HybridSearchResult {
  const fts = index.search(query, Math.max(CANDIDATES, limit));
  const fullText = (why: string): HybridSearchResult => ({ results: fts.slice(0, limit), note: `full text only: ${why}` });
  const e = options.embeddings;
  const request = embeddingsRequest(e, [redactText(query)], options.env);
  if ('error' in request) return fullText(request.error);
  const answer = (options.post ?? postJsonSync)(request.url, request.headers, request.body, e.timeoutMs);
  if (!answer.ok) return fullText(`the embeddings endpoint did not answer (${answer.error})`);
  const parsed = embeddingsAnswer(answer.status, answer.body, 1);
  if ('error' in parsed) return fullText(parsed.error);
  startWhenMissing(index, options);
  const vectors = loadVectors(index.db, e.model, MAX_COMPARED);
  if (vectors.length === 0) return fullText('no record has an embedding yet');
  const q = unit(parsed.vectors[0]);
  const similar = new Map<number, number>();
  for (const v of vectors) {
    const similarity = dot(v.vector, q);
    if (similarity !== null && similarity >= e.minSimilarity) similar.set(v.id, Math.min(1, similarity));
  }
  const ranked = new Map<number, { record: MemoryRecord; relevance: number }>();
  for (const r of fts) ranked.set(r.record.id, { record: r.record, relevance: Math.max(r.relevance, similar.get(r.record.id) ?? 0) });
  // The nearest records full text did not find, as many as could make the list.
  const nearest = [...similar.entries()].filter(([id]) => !ranked.has(id)).sort((a, b) => b[1] - a[1]).slice(0, limit);
  for (const [id, similarity] of nearest) {
    const record = index.get(id);
    if (record) ranked.set(id, { record, relevance: similarity });
  }
  const results = [...ranked.values()].sort((a, b) => b.relevance - a.relevance || b.record.id - a.record.id).slice(0, limit);
  return { results, note: BOTH };
}

/** Starts the memory process when records wait for their vectors and none was started in the last minute. */
function startWhenMissing(index: MemoryIndex, options: HybridSearchOptions): void {
  const { db } = index;
  if (unembeddedCount(db, options.embeddings.model) === 0) return;
  const last = Number(stateValue(db, 'started_at') ?? 0);
  const now = options.now();
  if (now - last < START_EVERY_MS) return;
  try {
    setStateValue(db, 'started_at', String(now));
  } catch {
    // Another reader holds the write lock: it may start one itself; this search goes on.
    return;
  }
  const job: SummarizerJob = { store: options.store, summary: null, summarizer: null, embeddings: options.embeddings, privacy: [] };
  if (options.start) options.start(job);
  else startSummarizer(job, { env: options.env });
}
