import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { appendToJournal, JOURNAL_FILE, MAX_FIELD, MAX_TEXT, parseLine, READ_BYTES, readJournal } from './journal';
import { forgetStoreFolders, StoreRefusedError } from './store-folder';
import { journalRecord, tempStore } from './test-support';

let store: ReturnType<typeof tempStore>;
beforeEach(() => {
  forgetStoreFolders();
  store = tempStore();
});
afterEach(() => store.remove());

const journal = () => path.join(store.dir, JOURNAL_FILE);

describe('appendToJournal', () => {
  it('makes the folder (0700) and appends one line per record, in order', () => {
    appendToJournal(store.dir, store.projectRoot, [journalRecord({ text: 'a' }), journalRecord({ text: 'b' })]);
    appendToJournal(store.dir, store.projectRoot, [journalRecord({ text: 'c' })]);
    const lines = fs.readFileSync(journal(), 'utf8').split('\n');
    expect(lines.pop()).toBe('');
    expect(lines.map((l) => JSON.parse(l).text)).toEqual(['a', 'b', 'c']);
    if (process.platform !== 'win32') expect(fs.statSync(store.dir).mode & 0o777).toBe(0o700);
  });

  it('writes nothing, and makes no folder, for no records', () => {
    appendToJournal(store.dir, store.projectRoot, []);
    expect(fs.existsSync(store.dir)).toBe(false);
  });

  it('cuts a long text and long fields, and keeps at most 64 fields', () => {
    const fields = Object.fromEntries(Array.from({ length: 70 }, (_, i) => [`f${i}`, 'y'.repeat(MAX_FIELD + 5)]));
    appendToJournal(store.dir, store.projectRoot, [journalRecord({ text: 'x'.repeat(MAX_TEXT + 10), fields })]);
    const line = JSON.parse(fs.readFileSync(journal(), 'utf8'));
    expect(line.text).toHaveLength(MAX_TEXT);
    expect(line.text.endsWith('…')).toBe(true);
    expect(Object.keys(line.fields)).toHaveLength(64);
    expect(line.fields.f0).toHaveLength(MAX_FIELD);
  });

  const posix = process.platform === 'win32' ? it.skip : it;

  posix('refuses a store folder others can write', () => {
    fs.mkdirSync(store.dir, { recursive: true });
    fs.chmodSync(store.dir, 0o777);
    expect(() => appendToJournal(store.dir, store.projectRoot, [journalRecord()])).toThrow(StoreRefusedError);
    expect(fs.existsSync(journal())).toBe(false);
  });

  posix('refuses a store folder that is a symlink, and one whose parent leads out of the project', () => {
    const outside = tempStore();
    try {
      fs.mkdirSync(path.dirname(store.dir), { recursive: true });
      fs.mkdirSync(outside.projectRoot, { recursive: true });
      fs.symlinkSync(outside.projectRoot, store.dir);
      expect(() => appendToJournal(store.dir, store.projectRoot, [journalRecord()])).toThrow(/symbolic link/);
      fs.rmSync(store.dir);
      fs.rmSync(path.dirname(store.dir), { recursive: true });
      fs.symlinkSync(outside.projectRoot, path.dirname(store.dir));
      expect(() => appendToJournal(store.dir, store.projectRoot, [journalRecord()])).toThrow(/leads out of the project/);
      expect(fs.readdirSync(outside.projectRoot)).toEqual([]);
    } finally {
      outside.remove();
    }
  });
});

describe('readJournal', () => {
  it('reads complete lines from an offset, and leaves a line still being written', () => {
    appendToJournal(store.dir, store.projectRoot, [journalRecord({ text: 'a' }), journalRecord({ text: 'b' })]);
    const first = readJournal(journal(), 0);
    expect(first.records.map((r) => r.text)).toEqual(['a', 'b']);
    expect(first.end).toBe(fs.statSync(journal()).size);
    fs.appendFileSync(journal(), JSON.stringify(journalRecord({ text: 'c' })).slice(0, 20));
    const second = readJournal(journal(), first.end);
    expect([second.records, second.end]).toEqual([[], first.end]);
  });

  it('counts and skips lines that are not records', () => {
    fs.mkdirSync(store.dir, { recursive: true });
    fs.writeFileSync(journal(), `not json\n{"text":"no other key"}\n${JSON.stringify(journalRecord())}\n\n`);
    const chunk = readJournal(journal(), 0);
    expect([chunk.records.length, chunk.malformed]).toEqual([1, 2]);
  });

  it('reads a missing journal as empty, and a journal shorter than the offset from its start', () => {
    expect(readJournal(journal(), 0)).toEqual({ records: [], end: 0, malformed: 0 });
    appendToJournal(store.dir, store.projectRoot, [journalRecord()]);
    expect(readJournal(journal(), 10_000).records).toHaveLength(1);
  });
});

describe('what is at the journal\'s path, and how much of it is read', () => {
  const posix = process.platform === 'win32' ? it.skip : it;

  posix.each([
    ['a symlink', 'a symbolic link', (at: string, target: string) => fs.symlinkSync(target, at)],
    ['a FIFO', 'a FIFO or a socket', (at: string) => execFileSync('mkfifo', [at])],
  ])('%s at the journal\'s path: set aside unfollowed and unopened, a new journal begun with the records', (_name, why, plant) => {
    fs.mkdirSync(store.dir, { recursive: true, mode: 0o700 });
    const target = path.join(store.projectRoot, 'elsewhere.txt');
    fs.writeFileSync(target, '');
    plant(journal(), target);
    expect(appendToJournal(store.dir, store.projectRoot, [journalRecord({ text: 'kept' })])).toMatch(new RegExp(`^journal\\.jsonl was ${why}: set aside as journal\\.jsonl\\.set-aside-`));
    expect(fs.readFileSync(target, 'utf8')).toBe('');
    expect(readJournal(journal(), 0).records.map((r) => r.text)).toEqual(['kept']);
  });

  posix('a second name made for the journal: renamed as a rotation renames it (so the index reads it on), a new journal begun', () => {
    appendToJournal(store.dir, store.projectRoot, [journalRecord({ text: 'before' })]);
    fs.linkSync(journal(), path.join(store.projectRoot, 'other-name.jsonl'));
    expect(appendToJournal(store.dir, store.projectRoot, [journalRecord({ text: 'after' })])).toMatch(/^journal\.jsonl had 2 links: renamed journal-\d+-\d+\.jsonl/);
    const renamed = fs.readdirSync(store.dir).filter((n) => /^journal-\d+-\d+\.jsonl$/.test(n));
    expect(renamed).toHaveLength(1);
    expect(readJournal(path.join(store.dir, renamed[0]), 0).records.map((r) => r.text)).toEqual(['before']);
    expect(readJournal(journal(), 0).records.map((r) => r.text)).toEqual(['after']);
    // Writing through the other name no longer reaches the journal.
    fs.writeFileSync(path.join(store.projectRoot, 'other-name.jsonl'), '');
    expect(readJournal(journal(), 0).records.map((r) => r.text)).toEqual(['after']);
  });

  it('reads at most READ_BYTES at a time, and passes over a line longer than that (a journal grown to gigabytes costs no more memory)', () => {
    fs.mkdirSync(store.dir, { recursive: true });
    const record = `${JSON.stringify(journalRecord({ text: 'after' }))}\n`;
    fs.writeFileSync(journal(), '');
    // A sparse giant line: READ_BYTES * 2 bytes of zeros, then a record.
    fs.truncateSync(journal(), READ_BYTES * 2);
    fs.appendFileSync(journal(), `\n${record}`);
    const first = readJournal(journal(), 0);
    expect(first).toEqual({ records: [], end: READ_BYTES, malformed: 1 });
    const second = readJournal(journal(), first.end);
    expect(second.records).toEqual([]);
    expect(second.end).toBe(READ_BYTES * 2);
    expect(readJournal(journal(), second.end).records.map((r) => r.text)).toEqual(['after']);
  });
});

describe('parseLine', () => {
  it.each([
    ['a whole record', JSON.stringify(journalRecord()), true],
    ['a null session and agent', JSON.stringify(journalRecord({ session: null, agent: null })), true],
    ['an importance that is text', JSON.stringify({ ...journalRecord(), importance: '0.5' }), false],
    ['a field that is a number', JSON.stringify({ ...journalRecord(), fields: { n: 1 } }), false],
    ['an array', '[]', false],
    ['torn', '{"at":"2026', false],
  ])('%s', (_name, line, ok) => {
    expect(parseLine(line) !== null).toBe(ok);
  });
});
