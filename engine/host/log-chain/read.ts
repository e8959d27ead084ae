/**
 * Reading a decision log for people: `policy log` lists its records, `policy log verify`
 * checks its chain, `policy report` draws it. The file is opened without blocking (a FIFO
 * planted where the log was must not hang the command) and must be a regular file.
 */
import * as fs from 'fs';
import * as path from 'path';
import { splitLines } from '../../decision-log/chain';
import { matchesFilter, type DecisionLogFilter, type FilterableRecord } from '../../decision-log/filter';
import { verifyChain, type ChainReport, type VerifyChainOptions } from '../../decision-log/verify';
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
 * The chain report of a decision log (decision-log/verify.ts); null when the file does not exist.
 * @example verifyDecisionLog('/p/.claude/decisions.jsonl')?.breaks // []
 */
export function verifyDecisionLog(file: string, options: VerifyChainOptions = {}): ChainReport | null {
  const bytes = readLogBytes(file);
  return bytes === null ? null : verifyChain(splitLines(bytes), options);
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
