/**
 * A rule's `record` action when it fires: each record rendered once from its templates
 * (a value the agent put in the event is text, never a template again), cut to size,
 * then passed through the privacy filter. What passes goes to Decision.records; the store
 * writes it after the answer (the runner), one JSON line per record.
 */
import type { CompiledRecord, RecordDraft } from '../types';
import { privacyMatch } from '../memory/privacy';
import { renderTemplate } from './template';

/** The importance of a record that gives none: the seed's "other" observations. */
export const DEFAULT_IMPORTANCE = 0.5;
/** The longest record text stored; the rest is cut here, before the store sees it. */
export const RECORD_TEXT_CHARS = 4000;
/** The longest field value stored. */
export const RECORD_FIELD_CHARS = 1000;
/** The longest kind stored. */
export const RECORD_KIND_CHARS = 100;

export interface RenderedRecords {
  records: RecordDraft[];
  /** How many the privacy filter dropped. */
  dropped: number;
}

/**
 * The records of `ruleId` for one event. A record whose kind renders empty is not made;
 * one whose text or a field matches a privacy glob (before or after the cut) is dropped.
 * @example renderRecords('observe', [{ kind: 'file-change', text: '{{tool}} {{paths}}', importance: 0.7, fields: {} }], lookup, [])
 *   // { records: [{ rule: 'observe', kind: 'file-change', importance: 0.7, text: 'Write src/a.ts', fields: {} }], dropped: 0 }
 */
export function renderRecords(ruleId: string, records: readonly CompiledRecord[], lookup: (name: string) => string | undefined, privacy: readonly string[]): RenderedRecords {
  const out: RenderedRecords = { records: [], dropped: 0 };
  for (const r of records) {
    const kind = cutChars(renderTemplate(r.kind, lookup).trim(), RECORD_KIND_CHARS);
    if (kind === '') continue;
    const text = renderTemplate(r.text, lookup);
    const fields: Record<string, string> = {};
    const full: string[] = [text];
    for (const [name, template] of Object.entries(r.fields)) {
      const value = renderTemplate(template, lookup);
      full.push(value);
      fields[name] = cutChars(value, RECORD_FIELD_CHARS);
    }
    const draft: RecordDraft = { rule: ruleId, kind, importance: importanceOf(r.importance, lookup), text: cutChars(text, RECORD_TEXT_CHARS), fields };
    if (privacyMatch(privacy, full) !== null || privacyMatch(privacy, [draft.text, ...Object.values(fields)]) !== null) {
      out.dropped++;
      continue;
    }
    out.records.push(draft);
  }
  return out;
}

/**
 * A static importance as it is; a template's rendering as a number clamped to [0, 1]
 * (the default 0.5 when it is not a number).
 * @example importanceOf('{{weight}}', () => '1.4') // 1
 */
export function importanceOf(importance: number | string, lookup: (name: string) => string | undefined): number {
  if (typeof importance === 'number') return importance;
  const text = renderTemplate(importance, lookup).trim();
  const n = text === '' ? NaN : Number(text);
  if (!Number.isFinite(n)) return DEFAULT_IMPORTANCE;
  return Math.min(1, Math.max(0, n));
}

/** The first `limit` UTF-16 units, never leaving half of a surrogate pair. */
function cutChars(text: string, limit: number): string {
  if (text.length <= limit) return text;
  const code = text.charCodeAt(limit - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? limit - 1 : limit);
}
