/**
 * better-sqlite3 installed but its addon never built (npm 11 skipped its build step): the
 * JavaScript loads, the addon fails at the first open, and the store says how to fix it.
 */
import { appendToJournal } from './journal';
import { openMemoryIndex } from './memory-index';
import { MemoryUnavailableError } from './sqlite';
import { journalRecord, tempStore } from './test-support';

jest.mock('better-sqlite3', () => class {
  constructor() {
    throw new Error('Could not locate the bindings file. Tried:\n → /p/node_modules/better-sqlite3/build/better_sqlite3.node');
  }
});

describe('an unbuilt better-sqlite3', () => {
  let store: ReturnType<typeof tempStore>;
  beforeAll(() => {
    store = tempStore();
  });
  afterAll(() => store.remove());

  it('is memory-unavailable, at the first open and after it; recording goes on', () => {
    appendToJournal(store.dir, store.projectRoot, [journalRecord()]);
    const open = () => openMemoryIndex({ dir: store.dir, projectRoot: store.projectRoot, retentionDays: 90, maxRecords: 100, now: Date.now });
    expect(open).toThrow(MemoryUnavailableError);
    expect(open).toThrow(/not installed or not built \(Could not locate the bindings file\. Tried:\)/);
    appendToJournal(store.dir, store.projectRoot, [journalRecord()]);
  });
});
