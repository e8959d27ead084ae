/**
 * Parses one YAML policy text into plain data, a source map and diagnostics.
 */
import { LineCounter, parseDocument } from 'yaml';
import { diagnostic } from '../diagnostics';
import type { Diagnostic, LoadedFile, PlacedDiagnostic } from '../types';
import { createSourceMap, type TextSourceMap } from './source-map';

export interface ParseResult {
  /** The document as plain data; null when the YAML has syntax errors (or is empty). */
  doc: unknown;
  map: TextSourceMap;
  diagnostics: Diagnostic[];
  /** The same diagnostics, placed: a duplicate key at its own pointer, a syntax error at the document (''). */
  placed: PlacedDiagnostic[];
  /** Expressions parsed ahead, for LoadedFile.expressions (a snapshot's; a parse has none). */
  expressions?: LoadedFile['expressions'];
  expressionRegexes?: LoadedFile['expressionRegexes'];
  /** For LoadedFile.valid: a snapshot's whose text validated at build time (a parse has none). */
  valid?: true;
}

/**
 * Parses one policy text, keeping positions for later diagnostics.
 * A duplicate key is an error but the document stays usable (the last value wins);
 * any other YAML error leaves `doc` null.
 * @example parsePolicyText('p.yaml', 'version: 1\n').doc // { version: 1 }
 */
export function parsePolicyText(file: string, text: string): ParseResult {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true });
  const map = createSourceMap(file, doc, lines, text);
  const diagnostics: Diagnostic[] = [];
  const placed: PlacedDiagnostic[] = [];
  let broken = false;
  for (const error of doc.errors) {
    const { line, col } = lines.linePos(error.pos[0]);
    const at = { file, line, column: col };
    if (error.code === 'DUPLICATE_KEY') {
      const d = diagnostic('yaml-duplicate-key', `Duplicate key ${quotedKeyAt(text, error.pos)}`, at, 'the later value would silently replace the earlier one');
      diagnostics.push(d);
      placed.push({ diagnostic: d, file, pointer: map.pointerAt(line, col) });
    } else {
      broken = true;
      diagnostics.push(diagnostic('yaml-syntax', firstLine(error.message), at));
    }
  }
  const data = broken ? null : toData(doc, file, diagnostics);
  for (const d of diagnostics) if (d.code === 'yaml-syntax') placed.push({ diagnostic: d, file, pointer: '' });
  return { doc: data, map, diagnostics, placed };
}

function toData(doc: ReturnType<typeof parseDocument>, file: string, diagnostics: Diagnostic[]): unknown {
  try {
    return doc.toJS({ maxAliasCount: 100 });
  } catch (error) {
    // Only alias bombs get here ("excessive alias count").
    diagnostics.push(diagnostic('yaml-syntax', (error as Error).message, { file, line: 1, column: 1 }));
    return null;
  }
}

function quotedKeyAt(text: string, [start, end]: [number, number]): string {
  const key = text.slice(start, Math.max(end, start + 1)).trim();
  const whole = /^[^:\n]*/.exec(text.slice(start))?.[0].trim() ?? key;
  return `"${whole || key}"`;
}

function firstLine(message: string): string {
  return message.split('\n')[0].replace(/ at line \d+, column \d+:?$/, '');
}
