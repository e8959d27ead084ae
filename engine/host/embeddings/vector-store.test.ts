import { fakeEmbedding } from '../../../test/support/fake-model-server';
import { appendToJournal } from '../memory/journal';
import { openMemoryIndex, type MemoryIndex } from '../memory/memory-index';
import { forgetStoreFolders } from '../memory/store-folder';
import { journalRecord, tempStore } from '../memory/test-support';
import type { CompiledEmbeddings } from '../../types';
import { embeddingsAnswer, embeddingsRequest, MAX_EMBEDDED_CHARS } from './embeddings-api';
import { dot, ensureVectorTable, hasVectorTable, loadVectors, saveVectors, unembedded, unembeddedCount, unit } from './vector-store';

const embeddings = (extra: Partial<CompiledEmbeddings> = {}): CompiledEmbeddings => ({ url: 'http://127.0.0.1:11434/v1', model: 'fake-embed', keyEnv: null, timeoutMs: 1000, minSimilarity: 0.5, ...extra });

describe('the embeddings API', () => {
  it('asks /v1/embeddings for every text, cut, the key as a Bearer token', () => {
    const r = embeddingsRequest(embeddings({ keyEnv: 'EMBED_KEY' }), ['JWT', 'x'.repeat(5000)], { EMBED_KEY: 'sk-e' });
    expect(r).toEqual({
      url: 'http://127.0.0.1:11434/v1/embeddings',
      headers: { authorization: 'Bearer sk-e' },
      body: JSON.stringify({ model: 'fake-embed', input: ['JWT', 'x'.repeat(MAX_EMBEDDED_CHARS)] }),
    });
    expect(embeddingsRequest(embeddings({ keyEnv: 'EMBED_KEY' }), ['a'], {})).toEqual({ error: 'the environment variable EMBED_KEY (key_env) is not set' });
  });

  it.each([
    ['in the order of their index', 200, '{"data":[{"index":1,"embedding":[0,1]},{"index":0,"embedding":[1,0]}]}', 2, { vectors: [[1, 0], [0, 1]] }],
    ['an error status', 500, '{"error":{"message":"model not loaded"}}', 1, { error: 'the endpoint answered 500: model not loaded' }],
    ['too few', 200, '{"data":[]}', 1, { error: 'the endpoint\'s answer has 0 embeddings for 1 texts' }],
    ['not numbers', 200, '{"data":[{"index":0,"embedding":["a"]}]}', 1, { error: 'the endpoint\'s answer has an embedding that is not a list of numbers' }],
  ] as const)('the answer: %s', (_, status, body, count, expected) => {
    expect(embeddingsAnswer(status, body, count)).toEqual(expected);
  });
});

describe('vector math', () => {
  it('unit vectors, and their dot product is the cosine', () => {
    expect(unit([3, 4])).toEqual([0.6, 0.8]);
    expect(unit([0, 0])).toEqual([0, 0]);
    expect(dot(new Float32Array([0.6, 0.8]), [1, 0])).toBeCloseTo(0.6);
    expect(dot([1], [1, 0])).toBeNull();
  });
});

describe('vectors in the index', () => {
  let store: ReturnType<typeof tempStore>;
  let index: MemoryIndex;
  beforeEach(() => {
    forgetStoreFolders();
    store = tempStore();
    appendToJournal(store.dir, store.projectRoot, [
      journalRecord({ text: 'JWT login middleware' }),
      journalRecord({ text: 'database migration' }),
      journalRecord({ kind: 'summary-error', text: 'endpoint down' }),
    ]);
    index = openMemoryIndex({ dir: store.dir, projectRoot: store.projectRoot, retentionDays: 90, maxRecords: 20_000, now: () => Date.parse('2026-01-15T10:00:00.000Z') });
  });
  afterEach(() => {
    index.close();
    store.remove();
  });

  it('no table until something is embedded; the process\'s own errors are never embedded', () => {
    expect(hasVectorTable(index.db)).toBe(false);
    expect(loadVectors(index.db, 'm', 10)).toEqual([]);
    expect(unembeddedCount(index.db, 'm')).toBe(2);
    ensureVectorTable(index.db);
    expect(unembedded(index.db, 'm', 10).map((r) => r.text)).toEqual(['database migration', 'JWT login middleware']);
  });

  it('stores unit vectors per model, newest first, and a forgotten record takes its vector along', () => {
    ensureVectorTable(index.db);
    saveVectors(index.db, 'm', [{ id: 1, vector: fakeEmbedding('JWT login middleware') }, { id: 2, vector: [0, 3, 0, 0, 4] }]);
    expect(unembeddedCount(index.db, 'm')).toBe(0);
    expect(unembeddedCount(index.db, 'other')).toBe(2);
    const loaded = loadVectors(index.db, 'm', 10);
    expect(loaded.map((v) => v.id)).toEqual([2, 1]);
    expect([...loaded[0].vector]).toEqual([0, expect.closeTo(0.6, 5), 0, 0, expect.closeTo(0.8, 5)]);
    expect(index.forget({ ids: [2] })).toBe(1);
    expect(loadVectors(index.db, 'm', 10).map((v) => v.id)).toEqual([1]);
    // A vector for a record that is gone is not stored.
    saveVectors(index.db, 'm', [{ id: 2, vector: [1] }]);
    expect(loadVectors(index.db, 'm', 10).map((v) => v.id)).toEqual([1]);
  });
});
