/**
 * `policy memory` as text: records as aligned one-line rows (id, time, kind, agent, text),
 * search results with their relevance, and one record in full. Times are UTC, as stored.
 */
import type { MemoryRecord } from '../../engine/types';

const TEXT_WIDTH = 100;

/** `2026-01-15 10:00` from an ISO time. */
function minute(at: string): string {
  return /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(at) ? `${at.slice(0, 10)} ${at.slice(11, 16)}` : at;
}

function oneLine(text: string, width = TEXT_WIDTH): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > width ? `${line.slice(0, width - 1)}…` : line;
}

function agentOf(r: MemoryRecord): string {
  return r.agent ?? '(main)';
}

/** Rows with every column but the last padded to its widest cell. */
function table(rows: string[][]): string {
  if (rows.length === 0) return '';
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  return rows.map((r) => r.map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i]))).join('  ').trimEnd()).join('\n') + '\n';
}

/**
 * One row per record, then how many.
 * @example formatRecordList([record]) // '#1  2026-01-15 10:00  command  (main)  npm test\n1 record\n'
 */
export function formatRecordList(records: readonly MemoryRecord[]): string {
  if (records.length === 0) return 'no records\n';
  const rows = records.map((r) => [`#${r.id}`, minute(r.at), r.kind, agentOf(r), oneLine(r.text)]);
  return `${table(rows)}${records.length} record${records.length === 1 ? '' : 's'}\n`;
}

/**
 * One row per result, best first, with its relevance.
 * @example formatSearchResults([{ record, relevance: 0.92 }]) // '#1  0.92  2026-01-15 10:00  command  (main)  npm test\n'
 */
export function formatSearchResults(results: ReadonlyArray<{ record: MemoryRecord; relevance: number }>): string {
  if (results.length === 0) return 'nothing found\n';
  return table(results.map(({ record: r, relevance }) => [`#${r.id}`, relevance.toFixed(2), minute(r.at), r.kind, agentOf(r), oneLine(r.text)]));
}

/**
 * One record in full: its header, where it came from, its fields and its whole text.
 * @example formatRecordDetail(record) // '#1 command (importance 0.5)\n  at       2026-01-15T10:00:00.000Z\n...'
 */
export function formatRecordDetail(r: MemoryRecord): string {
  const lines = [
    `#${r.id} ${r.kind} (importance ${r.importance})`,
    ...table([
      ['  at', r.at],
      ['  session', r.session ?? '(none)'],
      ['  agent', r.agent ?? '(main session)'],
      ['  event', r.event],
      ['  rule', r.rule],
    ]).trimEnd().split('\n'),
  ];
  const fields = Object.entries(r.fields);
  if (fields.length > 0) lines.push('  fields', ...table(fields.map(([k, v]) => [`    ${k}`, oneLine(v, 200)])).trimEnd().split('\n'));
  lines.push('', ...r.text.split('\n'));
  return `${lines.join('\n')}\n`;
}
