import * as fs from 'fs';
import * as path from 'path';
import { appendToJournal, JOURNAL_FILE } from './journal';
import { ROTATED_GRACE_MS, ROTATE_BYTES } from './ingest';
import { openMemoryIndex, type MemoryIndex } from './memory-index';
import { forgetStoreFolders } from './store-folder';
import { journalRecord, tempStore } from './test-support';

const T0 = Date.parse('2026-01-15T10:00:00.000Z');
const MINUTE = 60_000;
const DAY = 86_400_000;

let store: ReturnType<typeof tempStore>;
let now: number;
const open = (extra: { retentionDays?: number; maxRecords?: number } = {}): MemoryIndex =>
  openMemoryIndex({ dir: store.dir, projectRoot: store.projectRoot, retentionDays: extra.retentionDays ?? 90, maxRecords: extra.maxRecords ?? 20_000, now: () => now });
const append = (...records: Array<Parameters<typeof journalRecord>[0]>) => appendToJournal(store.dir, store.projectRoot, records.map((r) => journalRecord(r)));
const at = (ms: number) => new Date(ms).toISOString();

beforeEach(() => {
  forgetStoreFolders();
  store = tempStore();
  now = T0;
});
afterEach(() => store.remove());

describe('ingesting the journal', () => {
  it('gives ids in journal order, each line once, however often the index is opened', () => {
    append({ text: 'a' }, { text: 'b' });
    const first = open();
    expect(first.ingest.ingested).toBe(2);
    first.close();
    append({ text: 'c' });
    const second = open();
    expect(second.ingest.ingested).toBe(1);
    expect(second.list().map((r) => [r.id, r.text])).toEqual([[3, 'c'], [2, 'b'], [1, 'a']]);
    expect(open().ingest.ingested).toBe(0);
  });

  it('refresh() takes what was appended while the index was open', () => {
    const index = open();
    append({ text: 'late' });
    expect(index.refresh().ingested).toBe(1);
    expect(index.status()).toEqual({ records: 1, malformed: 0 });
  });

  it('skips malformed lines and counts them', () => {
    append({ text: 'a' });
    fs.appendFileSync(path.join(store.dir, JOURNAL_FILE), 'torn line\n');
    append({ text: 'b' });
    expect(open().status()).toEqual({ records: 2, malformed: 1 });
  });

  it('renames a long journal aside once ingested, still reads lines appended to it late, and removes it after the grace', () => {
    const big = 'x'.repeat(4096);
    const count = Math.ceil(ROTATE_BYTES / 4200) + 1;
    append(...Array.from({ length: count }, (_, i) => ({ text: `${i} ${big}` })));
    open().close();
    const renamed = fs.readdirSync(store.dir).filter((f) => f.startsWith('journal-'));
    expect(renamed).toHaveLength(1);
    expect(fs.existsSync(path.join(store.dir, JOURNAL_FILE))).toBe(false);
    // A writer that opened the journal before the rename appends to the renamed file.
    fs.appendFileSync(path.join(store.dir, renamed[0]), `${JSON.stringify(journalRecord({ text: 'late writer' }))}\n`);
    append({ text: 'new journal' });
    now += ROTATED_GRACE_MS;
    const index = open();
    expect(index.status().records).toBe(count + 2);
    expect(index.list({ limit: 2 }).map((r) => r.text).sort()).toEqual(['late writer', 'new journal']);
    expect(fs.readdirSync(store.dir).filter((f) => f.startsWith('journal-'))).toEqual([]);
  });

  it('finishes a journal renamed by a rotation that never committed, and reads the new one from its start', () => {
    append({ text: 'a' });
    open().close();
    append({ text: 'b' });
    // As a crash between the rename and the commit leaves it.
    fs.renameSync(path.join(store.dir, JOURNAL_FILE), path.join(store.dir, 'journal-1-1.jsonl'));
    append({ text: 'c' });
    expect(open().list().map((r) => r.text)).toEqual(['c', 'b', 'a']);
  });
});

describe('retention', () => {
  it('drops records older than retention_days', () => {
    append({ text: 'old', at: at(T0 - 10 * DAY) }, { text: 'new', at: at(T0) });
    const index = open({ retentionDays: 7 });
    expect(index.list().map((r) => r.text)).toEqual(['new']);
    expect(index.ingest.removed).toBe(1);
  });

  it('keeps the newest max_records', () => {
    append({ text: '1' }, { text: '2' }, { text: '3' });
    expect(open({ maxRecords: 2 }).list().map((r) => r.text)).toEqual(['3', '2']);
  });

  it('counts the records, not the span of their ids, once some were forgotten', () => {
    append(...['1', '2', '3', '4', '5'].map((text) => ({ text })));
    const first = open();
    first.forget({ ids: [2, 3] });
    first.close();
    append({ text: '6' });
    // Ids 1..6 span six, but four records are left: max_records 4 keeps them all.
    const kept = open({ maxRecords: 4 });
    expect(kept.list().map((r) => r.text)).toEqual(['6', '5', '4', '1']);
    expect(kept.ingest.removed).toBe(0);
    kept.close();
    append({ text: '7' });
    // Five now: only the oldest goes, across the gap.
    const trimmed = open({ maxRecords: 4 });
    expect(trimmed.list().map((r) => r.text)).toEqual(['7', '6', '5', '4']);
    expect(trimmed.ingest.removed).toBe(1);
  });
});

describe('MemoryFacts', () => {
  const main = { session: 's1', agent: null };
  beforeEach(() => {
    append(
      { kind: 'test', text: 't1', session: 's1', at: at(T0 - 30 * MINUTE) },
      { kind: 'test', text: 't2', session: 's1', agent: 'murdock', at: at(T0 - 5 * MINUTE) },
      { kind: 'test', text: 't3', session: 's2', at: at(T0 - 1 * MINUTE) },
      { kind: 'summary', text: 'first session, early', session: 's0' },
      { kind: 'summary', text: 'first session, late', session: 's0' },
      { kind: 'summary', text: 'this session', session: 's1' },
      { kind: 'summary', text: 'second session', session: 's2' },
    );
  });

  it.each([
    ['session', main, undefined, 2],
    ['agent', { session: 's1', agent: 'murdock' }, undefined, 1],
    ['project', main, undefined, 3],
    ['project', main, T0 - 10 * MINUTE, 2],
  ] as const)('count in the %s scope', (scope, who, since, n) => {
    expect(open().count('test', scope, who, since)).toBe(n);
  });

  it('counts any kind with *', () => {
    expect(open().count('*', 'session', main)).toBe(3);
  });

  it('last and first in a scope; null when none', () => {
    const index = open();
    expect(index.last('test', 'project', main)?.text).toBe('t3');
    expect(index.last('test', 'project', main, true)?.text).toBe('t1');
    expect(index.last('test', 'agent', { session: 's1', agent: 'murdock' })?.text).toBe('t2');
    expect(index.last('deploy', 'project', main)).toBeNull();
  });

  it('summaries: the newest per other session, newest first, at most limit', () => {
    const index = open();
    expect(index.summaries(5, 's1').map((r) => r.text)).toEqual(['second session', 'first session, late']);
    expect(index.summaries(1, 's1').map((r) => r.text)).toEqual(['second session']);
    expect(index.summaries(5, null).map((r) => r.text)).toEqual(['second session', 'this session', 'first session, late']);
  });

  it('sessionRecords: one session, oldest first, with fields', () => {
    expect(open().sessionRecords('s1').map((r) => [r.text, r.fields])).toEqual([
      ['t1', { tool: 'Write' }], ['t2', { tool: 'Write' }], ['this session', { tool: 'Write' }],
    ]);
  });
});

describe('search', () => {
  beforeEach(() => {
    append(
      { text: 'JWT authentication middleware implemented' },
      { text: 'user model schema defined' },
      { text: 'error handling pattern for JWT refresh tokens, JWT expiry' },
      { text: '인증을 위한 미들웨어 구현' },
    );
  });

  it('finds by words and prefixes, best first, relevance in (0, 1]', () => {
    const found = open().search('JWT auth', 5);
    expect(found.map((f) => f.record.text)).toEqual([
      'JWT authentication middleware implemented',
      'error handling pattern for JWT refresh tokens, JWT expiry',
    ]);
    for (const f of found) expect(f.relevance > 0 && f.relevance <= 1).toBe(true);
    expect(found[0].relevance).toBeGreaterThanOrEqual(found[1].relevance);
  });

  it('finds Korean words followed by a particle', () => {
    expect(open().search('인증', 5).map((f) => f.record.text)).toEqual(['인증을 위한 미들웨어 구현']);
  });

  it('returns nothing for no words, no match or limit 0, and takes FTS5 syntax as text', () => {
    const index = open();
    expect(index.search('?!', 5)).toEqual([]);
    expect(index.search('kubernetes', 5)).toEqual([]);
    expect(index.search('JWT', 0)).toEqual([]);
    expect(index.search('schema AND NOT "user" NEAR(x) text:model', 5).map((f) => f.record.text)).toEqual(['user model schema defined']);
  });
});

describe('list, get, each, forget', () => {
  beforeEach(() => {
    append(
      { kind: 'command', text: 'npm test', session: 's1' },
      { kind: 'command', text: 'secret=hunter2', session: 's1', agent: 'ba' },
      { kind: 'file-change', text: 'Write a.ts', session: 's2', at: at(T0 - 2 * DAY) },
    );
  });

  it('lists by kind, session and agent, newest first, up to limit', () => {
    const index = open();
    expect(index.list({ kind: 'command' }).map((r) => r.id)).toEqual([2, 1]);
    expect(index.list({ session: 's2' }).map((r) => r.id)).toEqual([3]);
    expect(index.list({ agent: 'ba' }).map((r) => r.id)).toEqual([2]);
    expect(index.list({ limit: 1 }).map((r) => r.id)).toEqual([3]);
    expect(index.list({ sinceMs: T0 - DAY }).map((r) => r.id)).toEqual([2, 1]);
    expect(index.get(2)?.text).toBe('secret=hunter2');
    expect(index.get(99)).toBeNull();
    expect([...index.each()].map((r) => r.id)).toEqual([1, 2, 3]);
  });

  it('forgets by id, session, kind or age; the text leaves the index, the search and the journal', () => {
    const index = open();
    expect(index.forget({ ids: [2] })).toBe(1);
    expect(index.get(2)).toBeNull();
    expect(index.search('hunter2', 5)).toEqual([]);
    const journal = path.join(store.dir, JOURNAL_FILE);
    expect(fs.existsSync(journal) ? fs.readFileSync(journal, 'utf8') : '').not.toContain('hunter2');
    now += ROTATED_GRACE_MS;
    index.refresh();
    for (const f of fs.readdirSync(store.dir)) expect([f, fs.readFileSync(path.join(store.dir, f)).includes('hunter2')]).toEqual([f, false]);
    expect(index.forget({ beforeMs: T0 - DAY })).toBe(1);
    expect(index.forget({ kind: 'command', session: 's1' })).toBe(1);
    expect(index.status().records).toBe(0);
  });

  it('forgets nothing for an empty id list', () => {
    expect(open().forget({ ids: [] })).toBe(0);
  });
});
