/**
 * The MemoryFacts the runner hands the evaluator: nothing is opened, and neither
 * better-sqlite3 nor the index code is loaded, until a rule's let asks a first question.
 * The index is then opened once for the event (ingesting the journal) and reused.
 */
import type { CompiledEmbeddings, MemoryFacts } from '../../types';
import type * as HybridSearchModule from '../embeddings/hybrid-search';
import type { MemoryIndex, MemoryIndexOptions } from './memory-index';

export interface LazyMemoryFacts extends MemoryFacts {
  /** Closes the index when it was opened. */
  close(): void;
  /** Why the store could not be opened, when a question was asked and it could not; else undefined. */
  failure(): unknown;
}

export interface LazyMemoryOptions extends MemoryIndexOptions {
  /** The policy's embeddings: search then ranks with them too (engine/host/embeddings). */
  embeddings?: CompiledEmbeddings;
  /** Where the embeddings' key is read (default process.env). */
  env?: Readonly<Record<string, string | undefined>>;
}

/**
 * Facts over the store at `options.dir`; a failure to open (MemoryUnavailableError,
 * StoreRefusedError) is thrown by every question, so a let fails as an unreadable file does.
 * @example lazyMemoryFacts({ dir, projectRoot, retentionDays: 90, maxRecords: 20000, now: Date.now }).count('test', 'session', who) // 2
 */
export function lazyMemoryFacts(options: LazyMemoryOptions): LazyMemoryFacts {
  let index: MemoryIndex | undefined;
  let failure: unknown;
  let searchNote: string | null = null;
  const open = (): MemoryIndex => {
    if (index) return index;
    if (failure !== undefined) throw failure;
    try {
      // Its own chunk in dist/ (scripts/build.mjs): a recording event never parses it.
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const { openMemoryIndex } = require('./memory-index') as typeof import('./memory-index');
      index = openMemoryIndex(options);
      return index;
    } catch (e) {
      failure = e;
      throw e;
    }
  };
  return {
    count: (...args) => open().count(...args),
    last: (...args) => open().last(...args),
    summaries: (...args) => open().summaries(...args),
    search: (query, limit) => {
      if (!options.embeddings) return open().search(query, limit);
      const { dir, projectRoot, retentionDays, maxRecords, embeddings, now } = options;
      const found = loadHybridSearch().hybridSearch(open(), query, limit, { embeddings, store: { dir, projectRoot, retentionDays, maxRecords }, env: options.env ?? process.env, now });
      searchNote = found.note;
      return found.results;
    },
    searchNote: () => searchNote,
    sessionRecords: (...args) => open().sessionRecords(...args),
    close: () => index?.close(),
    failure: () => failure,
  };
}

/** Search with embeddings, its own chunk in dist/ (embeddings.cjs): loaded only when a policy configures them. */
function loadHybridSearch(): typeof HybridSearchModule {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('../embeddings/hybrid-search') as typeof HybridSearchModule;
}
