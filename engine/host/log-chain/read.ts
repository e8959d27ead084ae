/**
 * Reading a decision log for people: `policy log` lists its records, `policy log verify`
 * checks its chain, `policy report` draws it. The file is opened without blocking (a FIFO
 * planted where the log was must not hang the command) and must be a regular file.
 * Verify also checks the log's end against the file its appender keeps beside it
 * (last-line.ts), and the logs its notices say were set aside against what they held.
 */
import * as fs from 'fs';
import * as path from 'path';
import { splitLines } from '../../decision-log/chain';
import { matchesFilter, type DecisionLogFilter, type FilterableRecord } from '../../decision-log/filter';
import { verifyChain, type ChainReport, type SetAsideLog, type VerifyChainOptions } from '../../decision-log/verify';
import { lineHash } from '../../decision-log/chain';
import { lastLinePathOf, readLogEnd } from './last-line';
import type { DecisionRecord } from '../decision-log';
import { jsonObject } from '../../json-object';
import { NotPlainFileError, openRegularFile } from '../regular-file';

/** The log cannot be read (not a regular file, no permission): the command stops, exit 2. */
export class LogReadError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LogReadError';
  }
}

/** One record of the log, with where it is. */
export interface LoggedDecision {
  /** 1-based line number in the file. */
  line: number;
  /** The line as written (its `prev` included). */
  text: string;
  record: DecisionRecord;
}

export interface DecisionLogRead {
  /** The file read (absolute). */
  file: string;
  /** Every record of the file, before the filter. */
  total: number;
  /** The records the filter kept, oldest first. */
  records: LoggedDecision[];
  /** Lines that are not decision records (garbled, cut short, blank), by number. */
  skipped: number[];
}

/**
 * The records of a decision log that pass `filter`; null when the file does not exist.
 * @example readDecisionLog('/p/.claude/decisions.jsonl', { outcomes: ['deny'], sinceMs: Date.now() - 86_400_000 })?.records.length // 3
 */
export function readDecisionLog(file: string, filter: DecisionLogFilter = {}): DecisionLogRead | null {
  const bytes = readLogBytes(file);
  if (bytes === null) return null;
  const records: LoggedDecision[] = [];
  const skipped: number[] = [];
  let total = 0;
  splitLines(bytes).lines.forEach((raw, i) => {
    const text = Buffer.from(raw.buffer, raw.byteOffset, raw.length).toString('utf8');
    const record = asRecord(text);
    if (!record) {
      skipped.push(i + 1);
      return;
    }
    total++;
    if (matchesFilter(record, filter)) records.push({ line: i + 1, text, record });
  });
  const kept = filter.limit !== undefined && records.length > filter.limit ? records.slice(records.length - filter.limit) : records;
  return { file: path.resolve(file), total, records: kept, skipped };
}

/**
 * The chain report of a decision log (decision-log/verify.ts), its end checked against
 * the file beside it; null when neither the log nor that file exists (a log that is gone
 * while that file names its end reads as emptied).
 * @example verifyDecisionLog('/p/.claude/decisions.jsonl')?.breaks // []
 */
export function verifyDecisionLog(file: string, options: VerifyChainOptions = {}): ChainReport | null {
  // The end first: an appender writes the log, then this file, so the log read after it is at least as long.
  const kept = readLogEnd(lastLinePathOf(file));
  const bytes = readLogBytes(file);
  if (bytes === null && (kept === null || 'problem' in kept)) return null;
  const end = kept === null ? {} : 'problem' in kept ? { endUnreadable: kept.problem } : { end: kept.end };
  const report = verifyChain(splitLines(bytes ?? Buffer.alloc(0)), { ...options, ...end });
  for (const aside of report.setAside ?? []) {
    const problem = setAsideProblem(path.join(path.dirname(file), aside.file), aside);
    if (problem) report.breaks.push({ line: aside.line, kind: 'set-aside-changed', message: problem });
  }
  report.breaks.sort((a, b) => a.line - b.line);
  return report;
}

/**
 * Why a log set aside no longer holds what it held when it was set aside (it is gone, or
 * shorter, or its last line then is not there); null when it does, or when nothing of it
 * was noted. Read as the log is (a regular file, never waited on).
 */
function setAsideProblem(file: string, aside: SetAsideLog): string | null {
  if (aside.end === null || !/^[^/\\]+$/.test(aside.file)) return null;
  let bytes: Buffer | null;
  try {
    bytes = readLogBytes(file);
  } catch (e) {
    return `the log set aside as ${aside.file} (line ${aside.line}) cannot be read: ${(e as Error).message}`;
  }
  if (bytes === null) return `the log set aside as ${aside.file} (line ${aside.line}) is gone`;
  const { size, head } = aside.end;
  const holds = splitLines(bytes).lines.some((line) => lineHash(line) === head);
  return holds ? null : `the log set aside as ${aside.file} (line ${aside.line}) no longer holds its last line then (${size} bytes then, ${bytes.length} now): lines were removed from its end, or it was rewritten`;
}

/** The file's bytes; null when it does not exist. Throws LogReadError otherwise. */
function readLogBytes(file: string): Buffer | null {
  let fd: number;
  try {
    fd = openRegularFile(file, { followLinks: true });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    if (e instanceof NotPlainFileError) throw new LogReadError(`${file} is not a regular file`);
    throw new LogReadError(`cannot read ${file}: ${(e as Error).message}`);
  }
  try {
    return fs.readFileSync(fd);
  } catch (e) {
    throw new LogReadError(`cannot read ${file}: ${(e as Error).message}`);
  } finally {
    fs.closeSync(fd);
  }
}

/** A parsed line, when it has what every decision record has. */
function asRecord(text: string): DecisionRecord | null {
  const r = jsonObject(text);
  if (r === null) return null;
  const nullableString = (x: unknown) => x === null || x === undefined || typeof x === 'string';
  if (typeof r.time !== 'string' || typeof r.event !== 'string' || typeof r.outcome !== 'string' || !Array.isArray(r.rules)) return null;
  if (!nullableString(r.session_id) || !nullableString(r.tool) || !nullableString(r.agent)) return null;
  const record = { ...r, session_id: r.session_id ?? null, tool: r.tool ?? null, agent: r.agent ?? null, rules: r.rules.filter((x) => typeof x === 'string'), paths: Array.isArray(r.paths) ? r.paths.filter((x) => typeof x === 'string') : [] };
  return record as unknown as DecisionRecord & FilterableRecord;
}
