/**
 * A parse kept as data: the document and the position of every key and value in it, for
 * a text known ahead (the shipped packs, parsed when the package is built; see
 * scripts/build.mjs). A compile that meets the same text again (same SHA-256) takes the
 * data instead of parsing the YAML, which is most of what the first event after an edit
 * costs. What the table does not hold (a pointer that is not in the document, a position
 * inside a string, the pointer at a line and column: only diagnostics ask those) is
 * answered by a parse of the text, made at that first question.
 */
import type { LoadedFile, SourceLocation } from '../types';
import type { ParseResult } from './parse';
import { toPointer, type TextSourceMap } from './source-map';

/**
 * What a parse leaves: the document, per JSON pointer [value line, value column, key line,
 * key column], and (added by whoever makes the snapshot) the fast form of the expressions
 * the document holds and their regex literals, by text (LoadedFile.expressions,
 * LoadedFile.expressionRegexes), and whether the document
 * validates without a diagnostic (LoadedFile.valid).
 */
export interface ParseSnapshot {
  doc: unknown;
  at: Record<string, [number, number, number, number]>;
  expressions?: LoadedFile['expressions'];
  expressionRegexes?: LoadedFile['expressionRegexes'];
  valid?: true;
}

/**
 * The snapshot of a clean parse (no diagnostics, a document); null otherwise, for a text
 * that is then always parsed.
 * @example snapshotOf(parsePolicyText('a.yaml', 'version: 1\n'))?.at['/version'] // [1, 10, 1, 1]
 */
export function snapshotOf(parsed: ParseResult): ParseSnapshot | null {
  if (parsed.diagnostics.length > 0 || parsed.doc === null || parsed.doc === undefined) return null;
  const at: ParseSnapshot['at'] = {};
  const visit = (value: unknown, segments: Array<string | number>) => {
    const pointer = toPointer(segments);
    const v = parsed.map.locate(pointer, 'value');
    const k = parsed.map.locate(pointer, 'key');
    at[pointer] = [v.line, v.column, k.line, k.column];
    if (Array.isArray(value)) value.forEach((item, i) => visit(item, [...segments, i]));
    else if (value !== null && typeof value === 'object') for (const [key, item] of Object.entries(value)) visit(item, [...segments, key]);
  };
  visit(parsed.doc, []);
  return { doc: parsed.doc, at };
}

/**
 * The source map of a snapshot taken for `file`'s text: positions from the table, anything
 * else from `exact()` (the text's own parse, asked once, at the first such question).
 * @example snapshotSourceMap('/pkg/policies/dia.yaml', snapshot, () => parsePolicyText(file, text).map).locate('/rules/0/id')
 */
export function snapshotSourceMap(file: string, snapshot: ParseSnapshot, exact: () => TextSourceMap): TextSourceMap {
  let parsed: TextSourceMap | null = null;
  const fallback = () => (parsed ??= exact());
  const location = (line: number, column: number): SourceLocation => ({ file, line, column });
  return {
    file,
    locate(pointer, part = 'value') {
      const found = Object.hasOwn(snapshot.at, pointer) ? snapshot.at[pointer] : undefined;
      if (!found) return fallback().locate(pointer, part);
      return part === 'key' ? location(found[2], found[3]) : location(found[0], found[1]);
    },
    locateIn: (pointer, offset) => fallback().locateIn(pointer, offset),
    pointerAt: (line, column) => fallback().pointerAt(line, column),
  };
}
