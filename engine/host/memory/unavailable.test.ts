/**
 * A project where better-sqlite3 was never built (HOOKPOLICY_NO_SQLITE=1 stands for it):
 * recording appends, reading fails with memory-unavailable, nothing is lost.
 */
import * as fs from 'fs';
import * as path from 'path';
import { appendToJournal, JOURNAL_FILE } from './journal';
import { openMemoryIndex } from './memory-index';
import { MemoryUnavailableError } from './sqlite';
import { journalRecord, tempStore } from './test-support';

describe('without better-sqlite3', () => {
  let store: ReturnType<typeof tempStore>;
  beforeAll(() => {
    process.env.HOOKPOLICY_NO_SQLITE = '1';
    store = tempStore();
  });
  afterAll(() => {
    delete process.env.HOOKPOLICY_NO_SQLITE;
    store.remove();
  });

  it('appends records, and the index says why it cannot be opened', () => {
    appendToJournal(store.dir, store.projectRoot, [journalRecord({ text: 'kept' })]);
    const open = () => openMemoryIndex({ dir: store.dir, projectRoot: store.projectRoot, retentionDays: 90, maxRecords: 100, now: Date.now });
    expect(open).toThrow(MemoryUnavailableError);
    expect(open).toThrow(/better-sqlite3 is not installed or not built \(HOOKPOLICY_NO_SQLITE=1\); records are still kept in the journal/);
    expect(fs.readFileSync(path.join(store.dir, JOURNAL_FILE), 'utf8')).toContain('"kept"');
    expect(fs.existsSync(path.join(store.dir, 'index.db'))).toBe(false);
  });
});
