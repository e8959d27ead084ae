/**
 * The deterministic summary of a session: what its records say about files changed,
 * commands run, test runs and failures, in one line. The same records always give the
 * same text (no clock, no model). Pure.
 */
import type { MemoryRecord } from '../types';
import { isCommand, isFailure, isFileChange, isTestRun, recordPaths } from './record-kinds';

/** Kinds that are about the session rather than in it: earlier summaries, metrics, the memory process's own failures. */
const SKIPPED_KINDS = new Set(['summary', 'metric', 'summary-error', 'embedding-error']);
const MAX_NAMED = 3;
const MAX_ITEM = 60;

/**
 * One line: `N files changed (a, b, c, +2 more); N commands (x, y); N test runs, N failed;
 * N failures (text)`, each part left out when empty; `N records` when no part applies;
 * '' for no records. Records of kind `summary`, `metric`, `summary-error` and `embedding-error` are not summarized.
 * @example summarizeSession([{ kind: 'file-change', fields: { paths: 'src/a.ts' }, ... }]) // '1 file changed (src/a.ts)'
 */
export function summarizeSession(records: readonly MemoryRecord[]): string {
  const own = records.filter((r) => !SKIPPED_KINDS.has(r.kind));
  if (own.length === 0) return '';
  const files: string[] = [];
  const commands: string[] = [];
  const failures: string[] = [];
  let tests = 0;
  let failedTests = 0;
  for (const record of own) {
    const failed = isFailure(record);
    if (isTestRun(record)) {
      tests++;
      // A failed test run is counted with the tests, not again with the failures.
      if (failed) failedTests++;
      continue;
    }
    if (isCommand(record)) {
      commands.push(record.fields.command?.trim() || record.text.trim());
    } else if (isFileChange(record)) {
      const paths = recordPaths(record);
      files.push(...(paths.length > 0 ? paths : [record.text.trim()]));
    }
    if (failed) failures.push(record.text.trim());
  }
  const parts: string[] = [];
  const distinctFiles = distinct(files);
  if (distinctFiles.length > 0) parts.push(`${counted(distinctFiles.length, 'file')} changed (${named(distinctFiles)})`);
  if (commands.length > 0) parts.push(`${counted(commands.length, 'command')} (${named(distinct(commands))})`);
  if (tests > 0) parts.push(`${counted(tests, 'test run')}${failedTests > 0 ? `, ${failedTests} failed` : ''}`);
  if (failures.length > 0) parts.push(`${counted(failures.length, 'failure')} (${named(distinct(failures))})`);
  return parts.length > 0 ? parts.join('; ') : counted(own.length, 'record');
}

function counted(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

/** The first few items, each cut short, and how many more there are. */
function named(items: readonly string[]): string {
  const shown = items.slice(0, MAX_NAMED).map(shorten);
  return items.length > MAX_NAMED ? `${shown.join(', ')}, +${items.length - MAX_NAMED} more` : shown.join(', ');
}

function shorten(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > MAX_ITEM ? `${line.slice(0, MAX_ITEM - 1)}…` : line;
}

function distinct(items: readonly string[]): string[] {
  return [...new Set(items.filter((i) => i !== ''))];
}
