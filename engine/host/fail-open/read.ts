/**
 * Reading the fail-open counter back: `policy stats`, `policy report` and the exporters.
 */
import * as fs from 'fs';
import * as path from 'path';
import { cacheDirectories } from '../cache';
import { FAIL_OPEN_FILE, FAIL_OPEN_ROTATE_BYTES, type FailOpenRecord } from './record';
import { NotPlainFileError, openRegularFile, readAt } from '../regular-file';

export interface ReadFailOpensOptions {
  env: Readonly<Record<string, string | undefined>>;
  /** Only this project's lines (compared as resolved paths). */
  projectRoot?: string;
  /** Only lines at or after this time (ms since the epoch). */
  since?: number;
  /** The cache folders (tests); defaults to cacheDirectories(env). */
  dirs?: string[];
}

export interface FailOpenReport {
  /** The files that were read (those that exist), newest generation last. */
  files: string[];
  /** Fail-opens: calls let through unjudged, oldest first. */
  records: FailOpenRecord[];
  count: number;
  /** The newest fail-open, or null. */
  last: FailOpenRecord | null;
  /** For comparison: answers that stopped the event unjudged (on_error: closed). */
  failClosed: number;
  /** Those answers, oldest first. */
  closed: FailOpenRecord[];
  /**
   * What is wrong with a counter file that is there but not a plain file of its own (a
   * FIFO, a symlink, a folder, hard links): a sign of tampering; the count may be short.
   */
  problems: string[];
}

/**
 * The fail-opens recorded for this user, in every cache folder (the primary and the
 * temp fallback), with both generations of the file; malformed lines are skipped.
 * @example readFailOpens({ env: process.env, projectRoot: '/p', since: Date.now() - 86_400_000 }).count // 2
 */
export function readFailOpens(options: ReadFailOpensOptions): FailOpenReport {
  const files: string[] = [];
  const problems: string[] = [];
  const all: FailOpenRecord[] = [];
  const project = options.projectRoot === undefined ? undefined : path.resolve(options.projectRoot);
  for (const dir of options.dirs ?? cacheDirectories(options.env)) {
    for (const name of [FAIL_OPEN_FILE.replace('.jsonl', '.1.jsonl'), FAIL_OPEN_FILE]) {
      const file = path.join(dir, name);
      const text = readCounter(file, problems);
      if (text === null) continue;
      files.push(file);
      for (const line of text.split('\n')) {
        const record = parseLine(line);
        if (!record) continue;
        if (project !== undefined && path.resolve(record.project) !== project) continue;
        if (options.since !== undefined && !(Date.parse(record.time) >= options.since)) continue;
        all.push(record);
      }
    }
  }
  all.sort((a, b) => (a.time < b.time ? -1 : a.time > b.time ? 1 : 0));
  const records = all.filter((r) => r.on_error === 'open');
  const closed = all.filter((r) => r.on_error === 'closed');
  return { files, records, count: records.length, last: records[records.length - 1] ?? null, failClosed: closed.length, closed, problems };
}

/**
 * The file's text, or null when it is missing or not a plain file of its own (then a
 * problem says why). Opened non-blocking and without following a symlink: a FIFO planted
 * at its path must not hang the reader.
 */
function readCounter(file: string, problems: string[]): string | null {
  let fd: number;
  try {
    fd = openRegularFile(file);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (e instanceof NotPlainFileError && e.kind === 'a symbolic link') problems.push(`${file} cannot be read (a symbolic link)`);
    else if (e instanceof NotPlainFileError) problems.push(`${file} is not a regular file (${e.kind === 'a FIFO' || e.kind === 'a folder' ? e.kind : 'a special file'})`);
    else if (code !== 'ENOENT') problems.push(`${file} cannot be read (${code ?? (e as Error).message})`);
    return null;
  }
  try {
    const stat = fs.fstatSync(fd);
    if (stat.nlink > 1) problems.push(`${file} has ${stat.nlink} hard links`);
    // The file rotates at FAIL_OPEN_ROTATE_BYTES: one grown past twice that is read from its last lines only.
    const cap = 2 * FAIL_OPEN_ROTATE_BYTES;
    if (stat.size <= cap) return readAt(fd, 0, stat.size).toString('utf8');
    problems.push(`${file} is ${stat.size} bytes: only its last ${cap} are read`);
    const tail = readAt(fd, stat.size - cap, cap);
    return tail.toString('utf8', tail.indexOf(0x0a) + 1);
  } catch (e) {
    problems.push(`${file} cannot be read (${(e as Error).message})`);
    return null;
  } finally {
    fs.closeSync(fd);
  }
}

function parseLine(line: string): FailOpenRecord | null {
  if (line.trim() === '') return null;
  try {
    const v = JSON.parse(line) as Record<string, unknown>;
    if (typeof v.time !== 'string' || typeof v.project !== 'string' || typeof v.code !== 'string') return null;
    if (v.on_error !== 'open' && v.on_error !== 'closed') return null;
    return {
      time: v.time,
      project: v.project,
      session_id: typeof v.session_id === 'string' ? v.session_id : null,
      event: typeof v.event === 'string' ? v.event : null,
      tool: typeof v.tool === 'string' ? v.tool : null,
      code: v.code,
      message: typeof v.message === 'string' ? v.message : '',
      on_error: v.on_error,
    };
  } catch {
    return null;
  }
}
