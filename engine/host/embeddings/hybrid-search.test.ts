import { fakeEmbedding } from '../../../test/support/fake-model-server';
import type { CompiledEmbeddings } from '../../types';
import { appendToJournal } from '../memory/journal';
import { openMemoryIndex, type MemoryIndex } from '../memory/memory-index';
import { forgetStoreFolders } from '../memory/store-folder';
import { journalRecord, tempStore } from '../memory/test-support';
import type { HttpResult } from '../summarizer/http-post';
import type { SummarizerJob } from '../summarizer/job';
import { BOTH, hybridSearch, type HybridSearchOptions } from './hybrid-search';
import { ensureVectorTable, saveVectors } from './vector-store';

const NOW = Date.parse('2026-01-15T10:00:00.000Z');
const embeddings: CompiledEmbeddings = { url: 'http://127.0.0.1:11434/v1', model: 'fake-embed', keyEnv: null, timeoutMs: 1000, minSimilarity: 0.5 };

/** An endpoint in-process: each text's fake embedding. */
const answering = (body: string): HttpResult => {
  const input = (JSON.parse(body) as { input: string[] }).input;
  return { ok: true, status: 200, body: JSON.stringify({ data: input.map((t, index) => ({ index, embedding: fakeEmbedding(t) })) }) };
};

let store: ReturnType<typeof tempStore>;
let index: MemoryIndex;
let started: SummarizerJob[];
let now: number;
const options = (extra: Partial<HybridSearchOptions> = {}): HybridSearchOptions => ({
  embeddings, store: { dir: store.dir, projectRoot: store.projectRoot, retentionDays: 90, maxRecords: 20_000 }, env: {}, now: () => now,
  post: (_url, _headers, body) => answering(body), start: (job) => started.push(job), ...extra,
});

beforeEach(() => {
  forgetStoreFolders();
  store = tempStore();
  started = [];
  now = NOW;
  appendToJournal(store.dir, store.projectRoot, [
    journalRecord({ text: 'Write src/auth/jwt.ts: JWT middleware' }),
    journalRecord({ text: 'ran the database migration' }),
    journalRecord({ text: 'fixed the failing jest tests' }),
  ]);
  index = openMemoryIndex({ dir: store.dir, projectRoot: store.projectRoot, retentionDays: 90, maxRecords: 20_000, now: () => now });
});
afterEach(() => {
  index.close();
  store.remove();
});

const embedAll = () => {
  ensureVectorTable(index.db);
  saveVectors(index.db, embeddings.model, index.list().map((r) => ({ id: r.id, vector: fakeEmbedding(r.text) })));
};

describe('hybridSearch', () => {
  it('finds by meaning what full text cannot: a login query and the JWT record', () => {
    embedAll();
    expect(index.search('login', 3)).toEqual([]);
    const found = hybridSearch(index, 'login', 3, options());
    expect(found.note).toBe(BOTH);
    expect(found.results.map((r) => [r.record.text, Number(r.relevance.toFixed(2))])).toEqual([['Write src/auth/jwt.ts: JWT middleware', 0.99]]);
  });

  it('a record full text finds keeps the higher of its two relevances', () => {
    embedAll();
    const fts = index.search('migration', 3);
    const found = hybridSearch(index, 'migration', 3, options());
    expect(found.results[0].record.id).toBe(fts[0].record.id);
    expect(found.results[0].relevance).toBeGreaterThanOrEqual(fts[0].relevance);
  });

  it('a similarity below min_similarity counts as none', () => {
    embedAll();
    expect(hybridSearch(index, 'login', 3, options({ embeddings: { ...embeddings, minSimilarity: 0.999 } })).results).toEqual([]);
  });

  it('the endpoint down or late: full text, and the note says why', () => {
    embedAll();
    const down = hybridSearch(index, 'migration', 3, options({ post: () => ({ ok: false, error: 'no answer within 1000 ms' }) }));
    expect(down.note).toBe('full text only: the embeddings endpoint did not answer (no answer within 1000 ms)');
    expect(down.results.map((r) => r.record.text)).toEqual(['ran the database migration']);
    expect(hybridSearch(index, 'x', 3, options({ post: () => ({ ok: true, status: 503, body: '' }) })).note).toBe('full text only: the endpoint answered 503');
    expect(hybridSearch(index, 'x', 3, options({ embeddings: { ...embeddings, keyEnv: 'K' } })).note).toBe('full text only: the environment variable K (key_env) is not set');
  });

  it('records not embedded yet: full text, and the memory process is started to embed them, at most once a minute', () => {
    const first = hybridSearch(index, 'migration', 3, options());
    expect(first.note).toBe('full text only: no record has an embedding yet');
    expect(started).toEqual([{ store: options().store, summary: null, summarizer: null, embeddings, privacy: [] }]);
    now += 30_000;
    hybridSearch(index, 'migration', 3, options());
    expect(started.length).toBe(1);
    now += 31_000;
    hybridSearch(index, 'migration', 3, options());
    expect(started.length).toBe(2);
    embedAll();
    now += 120_000;
    expect(hybridSearch(index, 'login', 3, options()).note).toBe(BOTH);
    expect(started.length).toBe(2);
  });
});
