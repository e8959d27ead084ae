/**
 * Checks a decision log's hash chain (chain.ts) line by line, and says for each broken
 * link what most likely broke it: a line edited, removed, inserted or moved, a line cut
 * short or garbled, a line without `prev` after the chain began. Lines written before the
 * runner chained its records (no `prev` at all, at the start of the file) are not covered,
 * and the first chained line after them is checked against the line before it.
 *
 * The chain cannot show lines removed from the end. Two things can: the end its appender
 * last left (`end`, read from the file beside the log), which the log must still hold, and
 * the notices the appender wrote when it found the end gone (notice.ts).
 */
import { GENESIS, HASH_PATTERN, lineHash, type SplitLines } from './chain';
import { lostEnd, noticeOf, noticeText, type LogEnd } from './notice';

export type ChainBreakKind = 'garbled' | 'unterminated' | 'unchained' | 'malformed-prev' | 'mismatch' | 'head' | 'cut' | 'end-unchecked' | 'set-aside-changed';

/** One broken link: `line` (1-based) is the line whose link or content fails. */
export interface ChainBreak {
  line: number;
  kind: ChainBreakKind;
  message: string;
}

export interface ChainReport {
  lines: number;
  /** The first line that carries `prev` (1-based); null when none does. */
  chainedFrom: number | null;
  /** The last line's hash, to keep elsewhere and check later with `head`; null for an empty log. */
  head: string | null;
  /** With `head`: the line whose hash it is; null when no line has it. */
  headLine?: number | null;
  /** In line order; empty when the chain is intact. */
  breaks: ChainBreak[];
  /** Logs set aside before this one began (its notices), for the caller to check they still hold what they held. */
  setAside?: SetAsideLog[];
}

/** A log set aside, as the notice at `line` names it. */
export interface SetAsideLog {
  line: number;
  /** Its name, beside the log. */
  file: string;
  /** Its size and last line's hash when it was set aside; null when it was not a regular file. */
  end: LogEnd | null;
}

export interface VerifyChainOptions {
  /** A head kept elsewhere earlier: some line of the log must have this hash. */
  head?: string;
  /** The end its appender last left the log at: the log must still hold that line there. */
  end?: LogEnd;
  /** Why the end its appender left cannot be read (the file beside the log is not its own). */
  endUnreadable?: string;
}

/**
 * @example verifyChain(splitLines(bytes)).breaks // [] when intact
 * @example verifyChain(splitLines(bytes)).breaks[0] // { line: 3, kind: 'mismatch', message: 'prev does not match line 2: …' }
 */
export function verifyChain(split: SplitLines, options: VerifyChainOptions = {}): ChainReport {
  const { lines } = split;
  const hashes = lines.map(lineHash);
  const lineOf = new Map<string, number>();
  hashes.forEach((h, i) => {
    if (!lineOf.has(h)) lineOf.set(h, i + 1);
  });
  const breaks: ChainBreak[] = [];
  const setAside: SetAsideLog[] = [];
  let chainedFrom: number | null = null;
  for (let i = 0; i < lines.length; i++) {
    const n = i + 1;
    const at = (kind: ChainBreakKind, message: string) => breaks.push({ line: n, kind, message });
    const record = parseRecord(lines[i]);
    if (!split.terminated && n === lines.length) at('unterminated', `line ${n} does not end with a new line: the last write was cut short`);
    if (record === null) {
      at('garbled', lines[i].length === 0 ? `line ${n} is empty` : `line ${n} is not a JSON record (cut short or garbled)`);
      continue;
    }
    if (!('prev' in record)) {
      if (chainedFrom !== null) at('unchained', `line ${n} has no prev, but the chain began at line ${chainedFrom}: a line added by other means than the runner`);
      continue;
    }
    chainedFrom ??= n;
    const notice = noticeOf(record);
    if (notice?.kind === 'cut' || notice?.kind === 'end-unchecked') at(notice.kind, `before line ${n}, ${noticeText(notice)}`);
    if (notice?.kind === 'set-aside') {
      if (notice.had) at('cut', `before line ${n}, the log had lost lines at its end: ${lostEnd(notice.had, notice.size ?? 0)}; it was set aside as ${notice.file} (${notice.why})`);
      setAside.push({ line: n, file: notice.file, end: notice.size !== null && notice.head !== null ? { size: notice.size, head: notice.head } : null });
    }
    const prev = record.prev;
    if (typeof prev !== 'string' || !HASH_PATTERN.test(prev)) {
      at('malformed-prev', `line ${n}'s prev is not a SHA-256 hash (64 lower-case hex digits)`);
      continue;
    }
    const expected = i === 0 ? GENESIS : hashes[i - 1];
    if (prev !== expected) at('mismatch', mismatch(n, prev, lineOf));
  }
  const endBreak = options.endUnreadable !== undefined ? { kind: 'end-unchecked' as const, message: `the log's end cannot be checked: ${options.endUnreadable}` } : options.end ? missingEnd(split, lineOf, options.end) : null;
  if (endBreak) breaks.push({ line: lines.length, ...endBreak });
  const report: ChainReport = { lines: lines.length, chainedFrom, head: hashes.length > 0 ? hashes[hashes.length - 1] : null, breaks };
  if (setAside.length > 0) report.setAside = setAside;
  if (options.head !== undefined) {
    const wanted = options.head.toLowerCase();
    report.headLine = lineOf.get(wanted) ?? null;
    if (report.headLine === null) {
      breaks.push({ line: lines.length, kind: 'head', message: `no line has the head hash given (${wanted.slice(0, 12)}…): lines were removed from the end, or the log was rewritten` });
    }
  }
  return report;
}

/**
 * A break when the log no longer holds the line whose hash is `end.head` (the last line its
 * appender wrote; lines after it are fine, lines edited before it are the chain's to show);
 * null when it does.
 */
function missingEnd(split: SplitLines, lineOf: ReadonlyMap<string, number>, end: LogEnd): { kind: 'cut'; message: string } | null {
  if (lineOf.has(end.head)) return null;
  const size = split.lines.reduce((n, line) => n + line.length + 1, split.terminated || split.lines.length === 0 ? 0 : -1);
  if (size < end.size) return { kind: 'cut', message: `the log ends before the last line its appender wrote: lines were removed from its end, or it was emptied (${lostEnd(end, size)})` };
  return { kind: 'cut', message: `the last line its appender wrote is not in the log: it was changed, or removed with the lines after it (${lostEnd(end, size)})` };
}

/** Why line `n`'s prev is not the hash of line n-1 (or the genesis value for line 1). */
function mismatch(n: number, prev: string, lineOf: ReadonlyMap<string, number>): string {
  if (prev === GENESIS) return `line ${n} starts a chain of its own (its prev is the genesis value): the lines before it were added, or another log was joined to this one`;
  const named = lineOf.get(prev);
  if (named === undefined) {
    return n === 1
      ? 'line 1\'s prev is not the genesis value: lines were removed from the start of the log'
      : `prev does not match line ${n - 1}: line ${n - 1} was changed, or lines after it were removed`;
  }
  if (named >= n) return `prev names line ${named}, which comes after it: lines were reordered`;
  const between = named + 1 === n - 1 ? `line ${n - 1} was` : `lines ${named + 1}-${n - 1} were`;
  return `prev names line ${named}, not line ${n - 1}: ${between} inserted, or lines were moved`;
}

function parseRecord(line: Uint8Array): Record<string, unknown> | null {
  if (line.length === 0) return null;
  try {
    const value: unknown = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(line));
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}
