/**
 * Notices: lines the appender writes into the decision log about the log itself, chained
 * like any record, just before the record it came to append. They say what the chain alone
 * cannot show once the appender has moved on: that the log had lost lines at its end (the
 * appender compares it with the last line it left, log-chain/last-line.ts), that what was
 * at the log's path was set aside (a second name, a symlink, a FIFO), or that the log's end
 * could not be checked. A notice is shaped as a decision record (`event: "LogNotice"`,
 * outcome `none`), so `policy log` lists it; `policy log verify` reports it (verify.ts).
 */

/** The log as its appender last left it: its size in bytes and its last line's hash. */
export interface LogEnd {
  size: number;
  head: string;
}

export type LogNotice =
  /** The log no longer held the line its appender last wrote: it had `found` bytes. */
  | { kind: 'cut'; had: LogEnd; found: number }
  /**
   * What was at the log's path was renamed to `file` (beside it) and a new log begun: `why`.
   * `size` and `head` are the set-aside file's when it was a regular file (null otherwise);
   * `had`: the log its appender knew was not there, in full, any more.
   */
  | { kind: 'set-aside'; file: string; why: string; size: number | null; head: string | null; had?: LogEnd }
  /** The file that keeps the log's end (`.last`) could not be trusted (`why`): set aside, begun anew. */
  | { kind: 'end-unchecked'; why: string };

/** The `event` of a notice line. */
export const NOTICE_EVENT = 'LogNotice';

/**
 * The record a notice is written as (without `prev`, which the appender adds).
 * @example noticeRecord({ kind: 'cut', had: { size: 900, head: 'ab…' }, found: 0 }, '2026-01-15T10:00:00.000Z').event // 'LogNotice'
 */
export function noticeRecord(notice: LogNotice, time: string): Record<string, unknown> {
  return { time, session_id: null, event: NOTICE_EVENT, tool: null, agent: null, outcome: 'none', rules: [], reason: noticeText(notice), paths: [], policy: [], notice };
}

/**
 * What a notice says, for people.
 * @example noticeText({ kind: 'cut', had: { size: 900, head: 'ab…' }, found: 0 }) // 'the log had lost lines at its end: …'
 */
export function noticeText(notice: LogNotice): string {
  switch (notice.kind) {
    case 'cut':
      return `the log had lost lines at its end: ${lostEnd(notice.had, notice.found)}`;
    case 'set-aside':
      return `what was at the log's path (${notice.why}) was set aside as ${notice.file}, and this log begun${notice.had ? `; the log before it had lost lines at its end: ${lostEnd(notice.had, notice.size ?? 0)}` : ''}`;
    case 'end-unchecked':
      return `the log's end could not be checked against the last line its appender wrote: ${notice.why}`;
  }
}

/** How the end was found against what the appender left: `had` bytes ending with line …, now `found`. */
export function lostEnd(had: LogEnd, found: number): string {
  return `its appender had left it at ${had.size} bytes, ending with the line ${had.head.slice(0, 12)}…; it had ${found} bytes${found >= had.size ? ', without that line' : ''}`;
}

/**
 * The notice a parsed line carries, or null when it is not a (well-formed) notice.
 * @example noticeOf({ event: 'LogNotice', notice: { kind: 'end-unchecked', why: 'x' } }) // { kind: 'end-unchecked', why: 'x' }
 */
export function noticeOf(record: Record<string, unknown>): LogNotice | null {
  if (record.event !== NOTICE_EVENT) return null;
  const n = record.notice as Record<string, unknown> | null | undefined;
  if (n === null || typeof n !== 'object') return null;
  if (n.kind === 'cut' && isEnd(n.had) && typeof n.found === 'number') return { kind: 'cut', had: n.had, found: n.found };
  if (n.kind === 'end-unchecked' && typeof n.why === 'string') return { kind: 'end-unchecked', why: n.why };
  if (n.kind === 'set-aside' && typeof n.file === 'string' && typeof n.why === 'string') {
    const size = typeof n.size === 'number' ? n.size : null;
    const head = typeof n.head === 'string' ? n.head : null;
    return isEnd(n.had) ? { kind: 'set-aside', file: n.file, why: n.why, size, head, had: n.had } : { kind: 'set-aside', file: n.file, why: n.why, size, head };
  }
  return null;
}

function isEnd(x: unknown): x is LogEnd {
  return x !== null && typeof x === 'object' && typeof (x as LogEnd).size === 'number' && typeof (x as LogEnd).head === 'string';
}
