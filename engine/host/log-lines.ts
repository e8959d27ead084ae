/**
 * Reading a decision log line by line without trusting what is at its path: the confined
 * agent can put a FIFO there (a plain read would wait forever), a device, or one line of
 * a gigabyte. The file is opened non-blocking and read only when it is a regular file, in
 * chunks; a line longer than `maxLineChars` is dropped whole (4 Mi characters: no decision record comes near it) and reported as such.
 */
import * as fs from 'fs';
import { StringDecoder } from 'string_decoder';
import { NotPlainFileError, openRegularFile } from './regular-file';

/** What is at the log's path is not a file to read. */
export class LogUnreadableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LogUnreadableError';
  }
}

export interface ReadLogLinesOptions {
  /** Lines longer than this (UTF-16 units) are dropped whole: `onDropped` is called instead. Default 4 MiB. */
  maxLineChars?: number;
  chunkBytes?: number;
}

/**
 * Calls `onLine` with each line of `file` (without its newline), `onDropped` for each line
 * over the bound. Throws the open's error (ENOENT when there is no log) or LogUnreadableError.
 * @example readLogLines('/p/.claude/decisions.jsonl', (line) => aggregator.add(line), () => aggregator.addGarbled())
 */
export function readLogLines(file: string, onLine: (line: string) => void, onDropped: () => void, options: ReadLogLinesOptions = {}): void {
  const maxLine = options.maxLineChars ?? 4 * 1024 * 1024;
  let fd: number;
  try {
    fd = openRegularFile(file, { followLinks: true });
  } catch (e) {
    if (e instanceof NotPlainFileError) throw new LogUnreadableError(`${file} is not a regular file`);
    throw e;
  }
  try {
    const buffer = Buffer.alloc(options.chunkBytes ?? 1024 * 1024);
    const decoder = new StringDecoder('utf8');
    let pending = '';
    let dropping = false;
    for (;;) {
      const n = fs.readSync(fd, buffer, 0, buffer.length, null);
      if (n === 0) break;
      const text = pending + decoder.write(buffer.subarray(0, n));
      const lines = text.split('\n');
      pending = lines.pop() as string;
      for (const line of lines) {
        if (dropping) dropping = false; // the end of a line already dropped
        else onLine(line);
      }
      if (pending.length > maxLine) {
        if (!dropping) onDropped();
        dropping = true;
        pending = '';
      }
    }
    pending += decoder.end();
    if (dropping) return;
    if (pending.length > maxLine) onDropped();
    else if (pending !== '') onLine(pending);
  } finally {
    fs.closeSync(fd);
  }
}
