/**
 * Memory indexes kept open between events, for a process that answers many of them (the
 * policy server). A runner process opens the index at the first question of its event and
 * closes it at the end; in the server that open and close (~1 ms and ~0.6 ms: the schema
 * read, the journal check, the WAL checkpoint of the last connection) came to most of a
 * recall's answer. Taken from the pool, the index only ingests what the journal gained
 * since, as an index just opened does.
 *
 * An index is opened again when its file is no longer the one open (removed, replaced: a
 * `policy memory` command or another process made a new one), when a question failed on
 * it, and after `idleMs` unused; an ingest that removed records checkpoints the WAL at
 * once (TRUNCATE), so removed text does not stay on disk in the log while the connection
 * lives, as closing the last connection would have done.
 */
import * as fs from 'fs';
import * as path from 'path';
import { INDEX_FILE } from './index-schema';
import type { MemoryIndex, MemoryIndexOptions } from './memory-index';

/** How long an index nobody used stays open. */
export const POOLED_INDEX_IDLE_MS = 30_000;

export interface MemoryIndexPool {
  /**
   * The store's index, open and up to date with its journal: the pooled one when its file
   * is still the one open, else one `open` makes. Give it back with `give`.
   */
  take(options: MemoryIndexOptions, open: (options: MemoryIndexOptions) => MemoryIndex): MemoryIndex;
  /** Gives back what `take` gave, at the end of the event; `broken`: a question failed on it, so it is closed. */
  give(index: MemoryIndex, broken?: boolean): void;
  /** Closes the indexes unused since `idleMs` before `nowMs`. */
  sweep(nowMs: number): void;
  /** Closes every index; the pool can still be used (it opens them again). */
  close(): void;
}

interface Entry {
  key: string;
  index: MemoryIndex;
  /** The index file's identity when it was opened (`dev:ino`); '' when it could not be read, and then never pooled. */
  file: string;
  /** The clock of the event using it (the index asks its options' `now` at each ingest). */
  now: () => number;
  users: number;
  lastUsed: number;
  /** Out of the pool: closed when its last user gives it back. */
  retired: boolean;
}

/**
 * @example const pool = createMemoryIndexPool(); const index = pool.take(options, openMemoryIndex); try { index.count(...) } finally { pool.give(index) }
 */
export function createMemoryIndexPool(options: { idleMs?: number; clock?: () => number } = {}): MemoryIndexPool {
  const idleMs = options.idleMs ?? POOLED_INDEX_IDLE_MS;
  const clock = options.clock ?? Date.now;
  const entries = new Map<string, Entry>();
  const byIndex = new Map<MemoryIndex, Entry>();
  // Sweeps while something is pooled; never keeps the process alive.
  let timer: NodeJS.Timeout | null = null;
  const sweep = (nowMs: number) => {
    for (const entry of [...entries.values()]) if (entry.users === 0 && nowMs - entry.lastUsed >= idleMs) retire(entry);
  };

  const retire = (entry: Entry) => {
    if (entries.get(entry.key) === entry) entries.delete(entry.key);
    if (entries.size === 0 && timer) {
      clearInterval(timer);
      timer = null;
    }
    entry.retired = true;
    if (entry.users === 0) shut(entry);
  };
  const shut = (entry: Entry) => {
    byIndex.delete(entry.index);
    try {
      entry.index.close();
    } catch {
      // Closing can only fail on a database already gone.
    }
  };
  const reuse = (entry: Entry, now: () => number): MemoryIndex => {
    entry.now = now;
    entry.users++;
    entry.lastUsed = clock();
    try {
      afterIngest(entry.index, entry.index.refresh());
      return entry.index;
    } catch (e) {
      entry.users--;
      retire(entry);
      throw e;
    }
  };
  const openNew = (key: string, storeOptions: MemoryIndexOptions, open: (options: MemoryIndexOptions) => MemoryIndex): MemoryIndex => {
    const entry = { key, file: '', now: storeOptions.now, users: 1, lastUsed: clock(), retired: false } as Entry;
    // The index asks `now` at each ingest: the clock of whichever event uses it then.
    entry.index = open({ ...storeOptions, now: () => entry.now() });
    try {
      afterIngest(entry.index, entry.index.ingest);
    } catch (e) {
      entry.index.close();
      throw e;
    }
    entry.file = fileIdentity(storeOptions.dir) ?? '';
    byIndex.set(entry.index, entry);
    if (entry.file === '') {
      entry.retired = true;
    } else {
      entries.set(key, entry);
      timer ??= setInterval(() => sweep(clock()), Math.max(1000, Math.min(idleMs, 10_000))).unref();
    }
    return entry.index;
  };

  return {
    take(storeOptions, open) {
      const key = keyOf(storeOptions);
      const found = entries.get(key);
      if (found && fileIdentity(storeOptions.dir) === found.file) return reuse(found, storeOptions.now);
      if (found) retire(found);
      return openNew(key, storeOptions, open);
    },
    give(index, broken = false) {
      const entry = byIndex.get(index);
      if (!entry) return;
      entry.users = Math.max(0, entry.users - 1);
      entry.lastUsed = clock();
      if (broken || entry.retired) retire(entry);
    },
    sweep,
    close() {
      for (const entry of [...entries.values()]) retire(entry);
    },
  };
}

/** Removed records' text leaves the write-ahead log at once, as the last connection's close would take it. */
function afterIngest(index: MemoryIndex, ingest: { removed: number }): void {
  if (ingest.removed > 0) index.db.pragma('wal_checkpoint(TRUNCATE)');
}

function keyOf(options: MemoryIndexOptions): string {
  return [options.dir, options.projectRoot, options.retentionDays, options.maxRecords].join('\0');
}

/** `dev:ino` of the store's index file, or null when there is none (or it is not a regular file). */
function fileIdentity(dir: string): string | null {
  try {
    const st = fs.lstatSync(path.join(dir, INDEX_FILE));
    return st.isFile() ? `${st.dev}:${st.ino}` : null;
  } catch {
    return null;
  }
}
