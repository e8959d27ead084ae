/**
 * The MemoryFacts the runner hands the evaluator: nothing is opened, and neither
 * better-sqlite3 nor the index code is loaded, until a rule's let asks a first question.
 * The index is then opened once for the event (ingesting the journal) and reused.
 */
import type { MemoryFacts } from '../../types';
import type { MemoryIndex, MemoryIndexOptions } from './memory-index';

export interface LazyMemoryFacts extends MemoryFacts {
  /** Closes the index when it was opened. */
  close(): void;
  /** Why the store could not be opened, when a question was asked and it could not; else undefined. */
  failure(): unknown;
}

/**
 * Facts over the store at `options.dir`; a failure to open (MemoryUnavailableError,
 * StoreRefusedError) is thrown by every question, so a let fails as an unreadable file does.
 * @example lazyMemoryFacts({ dir, projectRoot, retentionDays: 90, maxRecords: 20000, now: Date.now }).count('test', 'session', who) // 2
 */
export function lazyMemoryFacts(options: MemoryIndexOptions): LazyMemoryFacts {
  let index: MemoryIndex | undefined;
  let failure: unknown;
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
    search: (...args) => open().search(...args),
    sessionRecords: (...args) => open().sessionRecords(...args),
    close: () => index?.close(),
    failure: () => failure,
  };
}
