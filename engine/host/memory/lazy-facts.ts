/**
 * The MemoryFacts the runner hands the evaluator: nothing is opened, and neither
 * better-sqlite3 nor the index code is loaded, until a rule's let asks a first question.
 * The index is then opened once for the event (ingesting the journal) and reused; with a
 * pool (the policy server), taken from it and given back at close.
 */
import type { CompiledEmbeddings, MemoryFacts } from '../../types';
import type * as HybridSearchModule from '../embeddings/hybrid-search';
import type { MemoryIndexPool } from './index-pool';
import type { MemoryIndex, MemoryIndexOptions } from './memory-index';

export interface LazyMemoryFacts extends MemoryFacts {
  /** Closes the index when it was opened. */
  close(): void;
  /** Why a question could not be answered (the store could not be opened, or failed to answer), the first one; else undefined. */
  failure(): unknown;
}

export interface LazyMemoryOptions extends MemoryIndexOptions {
  /** The policy's embeddings: search then ranks with them too (engine/host/embeddings). */
  embeddings?: CompiledEmbeddings;
  /** Where the embeddings' key is read (default process.env). */
  env?: Readonly<Record<string, string | undefined>>;
  /** Indexes kept open between events (engine/host/memory/index-pool.ts); without it the event opens and closes its own. */
  pool?: MemoryIndexPool;
}

/**
 * Facts over the store at `options.dir`; a failure to open (MemoryUnavailableError,
 * StoreRefusedError) is thrown by every question, so every let that asks fails as `unreadable` (memory-lets.ts).
 * @example lazyMemoryFacts({ dir, projectRoot, retentionDays: 90, maxRecords: 20000, now: Date.now }).count('test', 'session', who) // 2
 */
export function lazyMemoryFacts(options: LazyMemoryOptions): LazyMemoryFacts {
  let index: MemoryIndex | undefined;
  let failure: unknown;
  /** A question failed on the open index: a pool closes it instead of keeping it. */
  let broken = false;
  let closed = false;
  let searchNote: string | null = null;
  const open = (): MemoryIndex => {
    if (index) return index;
    if (failure !== undefined) throw failure;
    try {
      // Its own chunk in dist/ (scripts/build.mjs): a recording event never parses it.
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const { openMemoryIndex } = require('./memory-index') as typeof import('./memory-index');
      index = options.pool ? options.pool.take(options, openMemoryIndex) : openMemoryIndex(options);
      return index;
    } catch (e) {
      failure = e;
      throw e;
    }
  };
  /** `ask` on the open index; a throw marks it broken. */
  const asked = <T>(ask: (index: MemoryIndex) => T): T => {
    const opened = open();
    try {
      return ask(opened);
    } catch (e) {
      broken = true;
      if (failure === undefined) failure = e;
      throw e;
    }
  };
  return {
    count: (...args) => asked((i) => i.count(...args)),
    last: (...args) => asked((i) => i.last(...args)),
    summaries: (...args) => asked((i) => i.summaries(...args)),
    search: (query, limit) => {
      if (!options.embeddings) return asked((i) => i.search(query, limit));
      const { dir, projectRoot, retentionDays, maxRecords, embeddings, now } = options;
      const found = asked((i) => loadHybridSearch().hybridSearch(i, query, limit, { embeddings, store: { dir, projectRoot, retentionDays, maxRecords }, env: options.env ?? process.env, now }));
      searchNote = found.note;
      return found.results;
    },
    searchNote: () => searchNote,
    sessionRecords: (...args) => asked((i) => i.sessionRecords(...args)),
    close: () => {
      if (!index || closed) return;
      closed = true;
      if (options.pool) options.pool.give(index, broken);
      else index.close();
    },
    failure: () => failure,
  };
}

/** Search with embeddings, its own chunk in dist/ (embeddings.cjs): loaded only when a policy configures them. */
function loadHybridSearch(): typeof HybridSearchModule {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('../embeddings/hybrid-search') as typeof HybridSearchModule;
}
