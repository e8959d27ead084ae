/**
 * `policy log` and `policy log verify` as text: a table of decisions (outcomes coloured
 * on a terminal), and the chain's verdict with the head to keep elsewhere.
 */
import type { ChainReport } from '../../engine/decision-log/verify';
import type { DecisionLogRead } from '../../engine/host/log-chain';
import type { Palette } from '../color';

const REASON_WIDTH = 60;

function second(at: string): string {
  return /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}/.test(at) ? `${at.slice(0, 10)} ${at.slice(11, 19)}` : at;
}

function cut(text: string, width: number): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > width ? `${line.slice(0, width - 1)}…` : line;
}

/**
 * Control characters shown as escapes: a reason or path can carry text the agent wrote
 * (a command in a message), and raw escape sequences would drive the reader's terminal.
 */
function printable(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

function listed(items: readonly string[]): string {
  if (items.length === 0) return '-';
  return items.length === 1 ? items[0] : `${items[0]} +${items.length - 1}`;
}

/**
 * The records as a table, oldest first, and how many of the log's records they are.
 * @example formatDecisionLog(read, '.claude/decisions.jsonl', palette(false)) // '  time  outcome  event ...\n4 decisions (of 4 in .claude/decisions.jsonl)\n'
 */
export function formatDecisionLog(read: DecisionLogRead, shownFile: string, colors: Palette): string {
  const outcomeColor: Record<string, (t: string) => string> = { deny: colors.red, block: colors.red, ask: colors.yellow, allow: colors.green };
  const header = ['time', 'outcome', 'event', 'tool', 'agent', 'rules', 'paths', 'reason'];
  const rows = read.records.map(({ record: r }) => [
    second(r.time), r.outcome, r.event, r.tool ?? '-', r.agent ?? 'main', listed(r.rules), listed(r.paths), r.reason ? cut(r.reason, REASON_WIDTH) : '-',
  ].map(printable));
  const count = `${read.records.length} decision${read.records.length === 1 ? '' : 's'} (of ${read.total} in ${shownFile})`;
  if (rows.length === 0) return `no decisions (of ${read.total} in ${shownFile})\n`;
  const widths = header.map((_, i) => Math.max(header[i].length, ...rows.map((row) => row[i].length)));
  const line = (cells: string[], style: (cell: string, i: number) => string) =>
    `  ${cells.map((c, i) => (i === cells.length - 1 ? style(c, i) : style(c.padEnd(widths[i]), i))).join('  ')}`.trimEnd();
  const out = [line(header, (c) => colors.dim(c))];
  for (const row of rows) out.push(line(row, (c, i) => (i === 1 ? (outcomeColor[row[1]] ?? ((t: string) => t))(c) : c)));
  return `${out.join('\n')}\n${count}\n`;
}

/**
 * The verdict of `policy log verify` when the chain holds (breaks are printed as diagnostics).
 * @example formatChainIntact(report, '.claude/decisions.jsonl') // '.claude/decisions.jsonl: chain intact, 4 lines, chained from line 1\nhead 9c1e…\n'
 */
export function formatChainReport(report: ChainReport, shownFile: string): string {
  const verdict = report.breaks.length === 0 ? 'chain intact' : `chain broken (${report.breaks.length} broken link${report.breaks.length === 1 ? '' : 's'})`;
  const lines = `${report.lines} line${report.lines === 1 ? '' : 's'}`;
  const chained = report.chainedFrom === null
    ? (report.lines === 0 ? '' : ', no line carries a chain (written before it)')
    : report.chainedFrom === 1 ? ', chained from line 1' : `, chained from line ${report.chainedFrom} (lines 1-${report.chainedFrom - 1} were written before the chain and are not covered)`;
  const out = [`${shownFile}: ${verdict}, ${lines}${chained}`];
  if (report.headLine !== undefined && report.headLine !== null) {
    const after = report.lines - report.headLine;
    out.push(`the head given is line ${report.headLine}${after > 0 ? ` (${after} line${after === 1 ? '' : 's'} appended since)` : ' (the last line)'}`);
  }
  out.push(`head ${report.head ?? '(empty log)'}`);
  return `${out.join('\n')}\n`;
}
