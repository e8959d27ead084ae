/**
 * The journal: what recording events append, one JSON line per record, and the index
 * ingests when the store is read. An append is one O_APPEND write of whole lines (the
 * decision log's way: no lock, no SQLite), so any number of concurrent hook processes
 * add their records without losing or mixing one; a reader takes complete lines only.
 *
 * What is at the journal's path is never followed, waited on or read without bound: a
 * second name made for the journal (a hard link) has it renamed as a rotation renames it,
 * so the index still ingests its lines; a symlink, a FIFO or a folder there is set aside
 * (log-file.ts); either way a new journal begins. A reader reads at most READ_BYTES a time.
 */
import * as fs from 'fs';
import * as path from 'path';
import type { MemoryRecord } from '../../types';
import { LogRefusedError, openLogForAppend, setAsideAtPath } from '../log-file';
import { ensureStoreFolder } from './store-folder';
import { jsonObject } from '../../json-object';
import { readAt } from '../regular-file';

/** A record as the journal holds it: everything but the id the index gives it. */
export type JournalRecord = Omit<MemoryRecord, 'id'>;

export const JOURNAL_FILE = 'journal.jsonl';
/** Longest text kept (characters); longer text is cut with '…'. */
export const MAX_TEXT = 32 * 1024;
/** Longest field value kept, and most fields kept per record. */
export const MAX_FIELD = 4 * 1024;
export const MAX_FIELDS = 64;
/** Most bytes a read of the journal takes at once; the next read goes on from where it ended. */
export const READ_BYTES = 8 * 1024 * 1024;

const { O_RDONLY } = fs.constants;
const O_NOFOLLOW = fs.constants.O_NOFOLLOW ?? 0;
const O_NONBLOCK = fs.constants.O_NONBLOCK ?? 0;

/**
 * Appends the records to `<dir>/journal.jsonl` in one write (the folder made and checked
 * first). Returns what was set aside from the journal's path (a sentence), or null.
 * Throws what stops it (StoreRefusedError, LogRefusedError, the file system's error).
 * @example appendToJournal('/p/.claude/hookpolicy/memory', '/p', [record]) // null
 */
export function appendToJournal(dir: string, projectRoot: string, records: readonly JournalRecord[]): string | null {
  if (records.length === 0) return null;
  ensureStoreFolder(dir, projectRoot);
  const buffer = Buffer.from(records.map((r) => `${JSON.stringify(boundedRecord(r))}\n`).join(''), 'utf8');
  const file = path.join(dir, JOURNAL_FILE);
  let setAside: string | null = null;
  let fd: number;
  try {
    // Not a symlink or FIFO, in a folder that stays in the project (log-file.ts).
    fd = openLogForAppend(file, projectRoot, { keepLinked: true });
  } catch (e) {
    if (!(e instanceof LogRefusedError) || e.atPath === null) throw e;
    const aside = setAsideAtPath(file);
    setAside = `${JOURNAL_FILE} was ${e.atPath}${aside ? `: set aside as ${aside}` : ''}, and a new journal begun`;
    fd = openLogForAppend(file, projectRoot);
  }
  try {
    const links = fs.fstatSync(fd).nlink;
    if (links > 1) {
      // Another name reaches it: renamed as a rotation renames it (the index reads it to its end), a new one begun.
      fs.closeSync(fd);
      const renamed = `journal-${Date.now()}-${process.pid}.jsonl`;
      fs.renameSync(file, path.join(dir, renamed));
      setAside = `${JOURNAL_FILE} had ${links} links: renamed ${renamed} (the index still reads it), and a new journal begun`;
      fd = openLogForAppend(file, projectRoot);
    }
    for (let written = 0; written < buffer.length;) written += fs.writeSync(fd, buffer, written, buffer.length - written);
  } finally {
    fs.closeSync(fd);
  }
  return setAside;
}

/** The record with its text and fields cut to the journal's limits, keys in a fixed order. */
export function boundedRecord(r: JournalRecord): JournalRecord {
  const fields: Record<string, string> = {};
  for (const [k, v] of Object.entries(r.fields).slice(0, MAX_FIELDS)) fields[k] = cut(String(v), MAX_FIELD);
  return { at: r.at, session: r.session, agent: r.agent, event: r.event, rule: r.rule, kind: r.kind, importance: r.importance, text: cut(r.text, MAX_TEXT), fields };
}

function cut(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

export interface JournalChunk {
  records: JournalRecord[];
  /** The offset past the last complete line read: where the next read starts. */
  end: number;
  /** Complete lines that were not a record (a torn write, an edit by hand); skipped. */
  malformed: number;
}

/**
 * The complete lines of a journal from byte `offset` on; a line still being written (no
 * newline yet) is left for the next read. A missing file reads as empty.
 * @example readJournal('/p/.claude/hookpolicy/memory/journal.jsonl', 0).records.length // 3
 */
export function readJournal(file: string, offset: number): JournalChunk {
  let fd: number;
  try {
    fd = fs.openSync(file, O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { records: [], end: offset, malformed: 0 };
    throw e;
  }
  try {
    const stat = fs.fstatSync(fd);
    if (!stat.isFile()) throw new Error(`${file} is not a regular file`);
    // A journal shorter than the offset was replaced: read it from its start.
    const from = stat.size < offset ? 0 : offset;
    const length = Math.min(stat.size - from, READ_BYTES);
    if (length === 0) return { records: [], end: from, malformed: 0 };
    const buffer = readAt(fd, from, length);
    const last = buffer.lastIndexOf(0x0a, buffer.length - 1);
    // A line longer than a whole read is no record: passed over, so that reads go on.
    if (last < 0) return length === READ_BYTES ? { records: [], end: from + length, malformed: 1 } : { records: [], end: from, malformed: 0 };
    const records: JournalRecord[] = [];
    let malformed = 0;
    for (const line of buffer.toString('utf8', 0, last).split('\n')) {
      if (line.trim() === '') continue;
      const record = parseLine(line);
      if (record) records.push(record);
      else malformed++;
    }
    return { records, end: from + last + 1, malformed };
  } finally {
    fs.closeSync(fd);
  }
}

/** A journal line as a record, or null when it is not one. */
export function parseLine(line: string): JournalRecord | null {
  const r = jsonObject(line);
  if (r === null) return null;
  const text = (k: string) => typeof r[k] === 'string';
  const orNull = (k: string) => r[k] === null || typeof r[k] === 'string';
  if (!text('at') || !text('event') || !text('rule') || !text('kind') || !text('text') || !orNull('session') || !orNull('agent')) return null;
  if (typeof r.importance !== 'number' || !Number.isFinite(r.importance)) return null;
  const fields = r.fields;
  if (fields === null || typeof fields !== 'object' || Array.isArray(fields)) return null;
  if (!Object.values(fields).every((f) => typeof f === 'string')) return null;
  return r as unknown as JournalRecord;
}
