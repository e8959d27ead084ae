import { InMemoryMemory, memoryRecords, seedTime } from './in-memory';
import { monthDay, searchLines, summaryLines, tokensOf } from './lines';
import type { MemoryRecord } from '../types';

const NOW = Date.parse('2026-01-15T10:00:00Z');

describe('seedTime', () => {
  test.each<[string | undefined, number | null]>([
    [undefined, NOW],
    ['-45m', NOW - 45 * 60_000],
    ['-2h', NOW - 2 * 3_600_000],
    ['-1.5d', NOW - 1.5 * 86_400_000],
    ['2026-01-01T00:00:00Z', Date.parse('2026-01-01T00:00:00Z')],
    ['yesterday', null],
  ])('%j', (at, expected) => {
    expect(seedTime(at, NOW)).toBe(expected);
  });
});

describe('InMemoryMemory', () => {
  const records = memoryRecords([
    { kind: 'a', text: 'one', at: '-3m' },
    { kind: 'a', text: 'two', at: '-2m', agent: 'ba' },
    { kind: 'b', text: 'three', session: 's2', at: '-1m' },
    { kind: 'summary', text: 'old s2', session: 's2', at: '-2d' },
    { kind: 'summary', text: 'new s2', session: 's2', at: '-1d' },
    { kind: 'summary', text: 's3', session: 's3', at: '-3d' },
  ], { session: 's1', nowMs: NOW });
  const memory = new InMemoryMemory(records);
  const main = { session: 's1', agent: null };

  test('ids in list order, defaults filled in', () => {
    expect(records[0]).toEqual({ id: 1, rule: '(memory)', kind: 'a', importance: 0.5, text: 'one', fields: {}, at: '2026-01-15T09:57:00.000Z', session: 's1', agent: null, event: '' });
  });

  test('count and last by scope', () => {
    expect(memory.count('a', 'session', main)).toBe(2);
    expect(memory.count('a', 'agent', main)).toBe(1);
    expect(memory.count('a', 'agent', { session: 's1', agent: 'ba' })).toBe(1);
    expect(memory.count('*', 'project', main)).toBe(6);
    expect(memory.count('a', 'session', main, NOW - 150_000)).toBe(1);
    expect(memory.last('a', 'session', main)?.text).toBe('two');
    expect(memory.last('a', 'session', main, true)?.text).toBe('one');
    expect(memory.last('b', 'session', main)).toBeNull();
  });

  test('summaries: one per other session, newest first', () => {
    expect(memory.summaries(5, 's1').map((r) => r.text)).toEqual(['new s2', 's3']);
    expect(memory.summaries(5, 's2').map((r) => r.text)).toEqual(['s3']);
    expect(memory.summaries(1, null).map((r) => r.text)).toEqual(['new s2']);
  });

  test('search: the share of query words found, best first', () => {
    expect(memory.search('one three', 5).map((r) => [r.record.text, r.relevance])).toEqual([['three', 0.5], ['one', 0.5]]);
    expect(memory.search('', 5)).toEqual([]);
  });

  test('sessionRecords: oldest first', () => {
    expect(memory.sessionRecords('s2').map((r) => r.text)).toEqual(['old s2', 'new s2', 'three']);
  });
});

describe('lines', () => {
  const record = (id: number, text: string, at: string): MemoryRecord => ({ id, rule: 'r', kind: 'summary', importance: 0.5, text, fields: {}, at, session: 'x', agent: null, event: '' });

  test('monthDay and tokensOf', () => {
    expect(monthDay('2026-01-05T23:00:00.000Z')).toBe('1/5');
    expect(monthDay('nope')).toBe('?');
    expect(tokensOf('12345')).toBe(2);
  });

  test('a summary over budget is cut when it is the first, later ones left out; new lines become spaces', () => {
    const lines = summaryLines([record(1, 'a\nb', '2026-01-15T00:00:00Z'), record(2, 'x'.repeat(100), '2026-01-14T00:00:00Z')], 10);
    expect(lines).toEqual({ text: '- [1/15] a b', count: 1 });
    expect(summaryLines([record(1, 'y'.repeat(100), '2026-01-15T00:00:00Z')], 5).text).toBe(`- [1/15] ${'y'.repeat(10)}…`);
  });

  test('search lines', () => {
    expect(searchLines([{ record: record(7, 'JWT auth', '2026-01-15T00:00:00Z'), relevance: 0.923 }])).toBe('- JWT auth (1/15, relevance: 0.92) #7');
  });
});
