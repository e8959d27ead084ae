/**
 * Compiles a rule's `record` action: one mapping or a list, each with templated kind,
 * text and fields, and an importance that is a number in [0, 1] or a template.
 */
import type { CompiledRecord } from '../types';
import { toPointer } from '../load/source-map';
import type { CompileContext } from './context';
import { at, isObject, report } from './context';
import { DEFAULT_IMPORTANCE } from '../evaluate/record';
import { checkTemplate } from './templates';

/**
 * The rule's records, in the order written; undefined when it has no `record`.
 * @example compileRecords(ctx, { kind: 'file-change', text: '{{tool}} {{paths}}', importance: 0.7 }, 0)
 *   // [{ kind: 'file-change', text: '{{tool}} {{paths}}', importance: 0.7, fields: {} }]
 */
export function compileRecords(ctx: CompileContext, raw: unknown, ruleIndex: number): CompiledRecord[] | undefined {
  if (raw === undefined) return undefined;
  const list = Array.isArray(raw) ? raw : [raw];
  const records: CompiledRecord[] = [];
  list.forEach((entry: unknown, i) => {
    if (!isObject(entry) || typeof entry.kind !== 'string' || typeof entry.text !== 'string') return;
    const pointer = (...rest: Array<string | number>) => toPointer(['rules', ruleIndex, 'record', ...(Array.isArray(raw) ? [i] : []), ...rest]);
    checkTemplate(ctx, entry.kind, pointer('kind'));
    checkTemplate(ctx, entry.text, pointer('text'));
    const fields: Record<string, string> = {};
    if (isObject(entry.fields)) {
      for (const [name, template] of Object.entries(entry.fields)) {
        if (typeof template !== 'string') continue;
        checkTemplate(ctx, template, pointer('fields', name));
        fields[name] = template;
      }
    }
    const importance = compileImportance(ctx, entry.importance, pointer('importance'));
    records.push({ kind: entry.kind, text: entry.text, importance, fields });
  });
  return records;
}

/** A number in [0, 1] as it is; a template checked (a literal text must read as such a number). */
function compileImportance(ctx: CompileContext, raw: unknown, pointer: string): number | string {
  if (raw === undefined) return DEFAULT_IMPORTANCE;
  if (typeof raw === 'number') {
    if (raw >= 0 && raw <= 1) return raw;
    report(ctx, 'record-importance', `importance ${raw} is outside 0 to 1`, at(ctx, pointer));
    return DEFAULT_IMPORTANCE;
  }
  if (typeof raw !== 'string') return DEFAULT_IMPORTANCE;
  if (!raw.includes('{{')) {
    const value = raw.trim() === '' ? NaN : Number(raw);
    if (value >= 0 && value <= 1) return value;
    report(ctx, 'record-importance', `importance "${raw}" is not a number from 0 to 1`, at(ctx, pointer), 'write a number such as 0.7, or a template that renders to one');
    return DEFAULT_IMPORTANCE;
  }
  checkTemplate(ctx, raw, pointer);
  return raw;
}
