/**
 * How store-reading lets show records in templates: recent session summaries as the
 * seed's `- [M/D] summary` lines within a token budget, search results as
 * `- TEXT (M/D, relevance: 0.92) #ID`. Dates are the record's UTC date.
 */
import type { MemoryRecord } from '../types';

/**
 * Tokens as the budget counts them: one per 4 characters, rounded up (no tokenizer on the hot path).
 * @example tokensOf('- [1/15] JWT middleware') // 6
 */
export function tokensOf(text: string): number {
  return Math.ceil(text.length / 4);
}

/**
 * `M/D` of an ISO time, as written (UTC for the store's times); '?' when it is not one.
 * @example monthDay('2026-01-15T09:00:00.000Z') // '1/15'
 */
export function monthDay(iso: string): string {
  const m = /^\d{4,}-(\d{2})-(\d{2})/.exec(iso);
  return m ? `${Number(m[1])}/${Number(m[2])}` : '?';
}

/** Records' text on one line: new lines become spaces, so one record is one line. */
function oneLine(text: string): string {
  return text.replace(/\s*[\r\n]+\s*/g, ' ').trim();
}

/**
 * Summary lines, newest first, as many as fit in `budgetTokens` (the first always, cut to the budget).
 * @example summaryLines([{ at: '2026-01-15T..', text: 'JWT middleware done', ... }], 100) // { text: '- [1/15] JWT middleware done', count: 1 }
 */
export function summaryLines(records: readonly MemoryRecord[], budgetTokens: number): { text: string; count: number } {
  const lines: string[] = [];
  let used = 0;
  for (const r of records) {
    const line = `- [${monthDay(r.at)}] ${oneLine(r.text)}`;
    const cost = tokensOf(line) + (lines.length > 0 ? 1 : 0);
    if (used + cost > budgetTokens) {
      // The newest summary is worth a cut line; later ones are left out whole.
      if (lines.length === 0) lines.push(cutLine(line, budgetTokens * 4));
      break;
    }
    lines.push(line);
    used += cost;
  }
  return { text: lines.join('\n'), count: lines.length };
}

/**
 * Search results, best first, each `- TEXT (M/D, relevance: 0.92) #ID`.
 * @example searchLines([{ record: { id: 7, text: 'JWT auth', at: '2026-01-15T..' }, relevance: 0.92 }]) // '- JWT auth (1/15, relevance: 0.92) #7'
 */
export function searchLines(results: ReadonlyArray<{ record: MemoryRecord; relevance: number }>): string {
  return results.map(({ record, relevance }) => `- ${cutLine(oneLine(record.text), 200)} (${monthDay(record.at)}, relevance: ${relevance.toFixed(2)}) #${record.id}`).join('\n');
}

function cutLine(line: string, chars: number): string {
  if (line.length <= chars) return line;
  const cut = Math.max(0, chars - 1);
  // Never leave half of a surrogate pair.
  const end = cut > 0 && isHighSurrogate(line.charCodeAt(cut - 1)) ? cut - 1 : cut;
  return `${line.slice(0, end)}…`;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}
