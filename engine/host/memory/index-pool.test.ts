import * as fs from 'fs';
import * as path from 'path';
import { createMemoryIndexPool, type MemoryIndexPool } from './index-pool';
import { INDEX_FILE } from './index-schema';
import { appendToJournal } from './journal';
import { lazyMemoryFacts } from './lazy-facts';
import { openMemoryIndex, type MemoryIndex, type MemoryIndexOptions } from './memory-index';
import { forgetStoreFolders } from './store-folder';
import { journalRecord, tempStore } from './test-support';

const T0 = Date.parse('2026-01-15T10:00:00.000Z');
const DAY = 86_400_000;
const who = { session: 's1', agent: null };

let store: ReturnType<typeof tempStore>;
let now: number;
let pool: MemoryIndexPool;
let opened: number;
const options = (extra: Partial<MemoryIndexOptions> = {}): MemoryIndexOptions =>
  ({ dir: store.dir, projectRoot: store.projectRoot, retentionDays: 90, maxRecords: 20_000, now: () => now, ...extra });
const counting = (o: MemoryIndexOptions): MemoryIndex => {
  opened++;
  return openMemoryIndex(o);
};
const append = (...records: Array<Parameters<typeof journalRecord>[0]>) => appendToJournal(store.dir, store.projectRoot, records.map((r) => journalRecord(r)));
const take = (extra?: Partial<MemoryIndexOptions>) => pool.take(options(extra), counting);
const isOpen = (index: MemoryIndex) => (index.db as unknown as { open: boolean }).open;

beforeEach(() => {
  forgetStoreFolders();
  store = tempStore();
  now = T0;
  opened = 0;
  pool = createMemoryIndexPool({ clock: () => now });
});
afterEach(() => {
  pool.close();
  store.remove();
});

describe('a pooled index', () => {
  it('stays open from one event to the next, and each event sees what the journal gained since', () => {
    append({ text: 'a' });
    const first = take();
    expect(first.last('*', 'session', who)?.text).toBe('a');
    pool.give(first);
    expect(isOpen(first)).toBe(true);

    append({ text: 'b' });
    const second = take();
    expect(second).toBe(first);
    expect(opened).toBe(1);
    expect(second.last('*', 'session', who)?.text).toBe('b');
    expect(second.count('*', 'session', who)).toBe(2);
    pool.give(second);
  });

  it('is opened again when its file was replaced or removed, and the one open before is closed', () => {
    append({ text: 'a' });
    const first = take();
    pool.give(first);
    // Another process starts the index over: a new file where the old one was.
    for (const f of fs.readdirSync(store.dir)) if (f.startsWith(INDEX_FILE)) fs.rmSync(path.join(store.dir, f));
    const fresh = openMemoryIndex(options());
    fresh.close();
    const second = take();
    expect(second).not.toBe(first);
    expect(isOpen(first)).toBe(false);
    expect(second.count('*', 'session', who)).toBe(1);
    pool.give(second);

    for (const f of fs.readdirSync(store.dir)) if (f.startsWith(INDEX_FILE)) fs.rmSync(path.join(store.dir, f));
    const third = take();
    expect(third).not.toBe(second);
    expect(opened).toBe(3);
    pool.give(third);
  });

  it('is closed, not kept, when a question failed on it', () => {
    const first = take();
    pool.give(first, true);
    expect(isOpen(first)).toBe(false);
    const second = take();
    expect(second).not.toBe(first);
    pool.give(second);
  });

  it('closes after idleMs unused, never while an event holds it', () => {
    pool = createMemoryIndexPool({ idleMs: 1000, clock: () => now });
    const held = take();
    now += 5000;
    pool.sweep(now);
    expect(isOpen(held)).toBe(true);
    pool.give(held);
    pool.sweep(now + 999);
    expect(isOpen(held)).toBe(true);
    pool.sweep(now + 1000);
    expect(isOpen(held)).toBe(false);
    expect(take()).not.toBe(held);
  });

  it('keeps one index per store and per retention settings', () => {
    const a = take();
    const b = take({ maxRecords: 5 });
    expect(b).not.toBe(a);
    pool.give(a);
    pool.give(b);
    expect(take()).toBe(a);
  });

  it('closing the pool closes what no event holds, and what one holds once it is given back', () => {
    const idle = take();
    pool.give(idle);
    const held = take({ maxRecords: 5 });
    pool.close();
    expect(isOpen(idle)).toBe(false);
    expect(isOpen(held)).toBe(true);
    pool.give(held);
    expect(isOpen(held)).toBe(false);
  });

  it('empties the write-ahead log when an ingest removed records, so their text is not left in it', () => {
    append({ text: 'secret old note', at: new Date(T0).toISOString() });
    const first = take({ retentionDays: 1 });
    expect(first.count('*', 'session', who)).toBe(1);
    pool.give(first);
    now = T0 + 3 * DAY;
    append({ text: 'new', at: new Date(now).toISOString() });
    const second = take({ retentionDays: 1 });
    expect(second.count('*', 'session', who)).toBe(1);
    const wal = path.join(store.dir, `${INDEX_FILE}-wal`);
    expect(fs.existsSync(wal) ? fs.statSync(wal).size : 0).toBe(0);
    pool.give(second);
  });
});

describe('lazy facts over a pool', () => {
  it('take the index at the first question and give it back at close, open for the next event', () => {
    append({ text: 'a' });
    const facts = lazyMemoryFacts({ ...options(), pool });
    expect(facts.last('*', 'session', who)?.text).toBe('a');
    facts.close();
    facts.close();
    const again = lazyMemoryFacts({ ...options(), pool });
    append({ text: 'b' });
    expect(again.count('*', 'session', who)).toBe(2);
    again.close();
    // lazy-facts loads the index code itself (the memory chunk when bundled): one index for both events.
    const index = take();
    expect(opened).toBe(0);
    expect(index.count('*', 'session', who)).toBe(2);
    pool.give(index);
  });

  it('give back a broken index when a question throws, so the next event opens its own', () => {
    const facts = lazyMemoryFacts({ ...options(), pool });
    facts.count('*', 'session', who);
    const index = take();
    pool.give(index);
    (index.db as unknown as { close(): void }).close();
    expect(() => facts.count('*', 'session', who)).toThrow();
    facts.close();
    const next = take();
    expect(next).not.toBe(index);
    expect(next.count('*', 'session', who)).toBe(0);
    pool.give(next);
  });
});
