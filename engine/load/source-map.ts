/**
 * Maps JSON pointers into a parsed YAML document back to line:column positions, by
 * walking the YAML syntax tree along the pointer. Results are cached per pointer.
 */
import { isAlias, isMap, isPair, isScalar, isSeq, Scalar } from 'yaml';
import type { Document, LineCounter, Node as YamlNode } from 'yaml';
import type { SourceLocation, SourceMap } from '../types';

/** A SourceMap that can also point inside a scalar's text (for errors at an offset). */
export interface TextSourceMap extends SourceMap {
  /** Location of character `offset` of the string value at `pointer` (approximate for escapes and folding). */
  locateIn(pointer: string, offset: number): SourceLocation;
  /**
   * JSON pointer of the deepest key or value written at a 1-based line and column; '' when
   * outside every top-level entry.
   * @example map.pointerAt(4, 5) // '/rules/0/on'
   */
  pointerAt(line: number, column: number): string;
}

/**
 * Splits a JSON pointer into unescaped segments.
 * @example pointerSegments('/rules/0/a~1b') // ['rules', '0', 'a/b']
 */
export function pointerSegments(pointer: string): string[] {
  if (pointer === '' || pointer === '/') return [];
  return pointer.slice(1).split('/').map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/**
 * Joins segments into a JSON pointer, escaping `~` and `/`.
 * @example toPointer(['rules', 0, 'paths']) // '/rules/0/paths'
 */
export function toPointer(segments: ReadonlyArray<string | number>): string {
  return segments.map((s) => '/' + String(s).replace(/~/g, '~0').replace(/\//g, '~1')).join('');
}

interface Found {
  /** The deepest node reached (the value node, or the key when the value is empty). */
  node: YamlNode | null;
  key: YamlNode | null;
  /** True when the whole pointer was resolved. */
  exact: boolean;
}

/**
 * Builds the source map of a parsed document.
 * @example createSourceMap('p.yaml', doc, lineCounter, text).locate('/rules/0/id') // { file: 'p.yaml', line: 3, column: 9 }
 */
export function createSourceMap(file: string, doc: Document, lines: LineCounter, text: string): TextSourceMap {
  const cache = new Map<string, Found>();

  const at = (offset: number): SourceLocation => {
    const { line, col } = lines.linePos(Math.max(0, Math.min(offset, text.length)));
    return { file, line, column: col };
  };

  const find = (pointer: string): Found => {
    let found = cache.get(pointer);
    if (!found) {
      found = walk(doc, pointerSegments(pointer));
      cache.set(pointer, found);
    }
    return found;
  };

  const start = (node: YamlNode | null): number => node?.range?.[0] ?? 0;

  return {
    file,
    locate(pointer, part = 'value') {
      const { node, key } = find(pointer);
      if (part === 'key' && key) return at(start(key));
      return at(start(node ?? key));
    },
    locateIn(pointer, offset) {
      const { node, exact } = find(pointer);
      if (!exact || !isScalar(node) || typeof node.value !== 'string') return at(start(node));
      return at(scalarOffset(node, offset, text));
    },
    pointerAt(line, column) {
      const start = lines.lineStarts[line - 1];
      return start === undefined ? '' : toPointer(segmentsAt(doc.contents as YamlNode | null, start + column - 1));
    },
  };
}

/** The keys and indices leading to the deepest node written at `offset`. */
function segmentsAt(root: YamlNode | null, offset: number): Array<string | number> {
  const segments: Array<string | number> = [];
  let node = root;
  while (node) {
    if (isMap(node)) {
      const pair = node.items.find((p) => isPair(p) && contains(p.key as YamlNode | null, p.value as YamlNode | null, offset));
      const key = pair ? keyText(pair.key) : null;
      if (!pair || key === null) break;
      segments.push(key);
      const value = pair.value as YamlNode | null;
      // On the key itself, or on an empty value: the key's own pointer.
      if (!value?.range || offset < value.range[0]) break;
      node = value;
    } else if (isSeq(node)) {
      const i = node.items.findIndex((item) => contains(item as YamlNode | null, null, offset));
      if (i < 0) break;
      segments.push(i);
      node = node.items[i] as YamlNode;
    } else {
      break;
    }
  }
  return segments;
}

/** True when `offset` lies from the start of `first` to the end of `last` (or of `first`). */
function contains(first: YamlNode | null, last: YamlNode | null, offset: number): boolean {
  const begin = first?.range?.[0];
  const end = (last?.range ?? first?.range)?.[2];
  return begin !== undefined && end !== undefined && offset >= begin && offset < Math.max(end, begin + 1);
}

function walk(doc: Document, segments: string[]): Found {
  let node = (doc.contents as YamlNode | null) ?? null;
  let key: YamlNode | null = null;
  for (const segment of segments) {
    if (isAlias(node)) node = (node.resolve(doc) as YamlNode | undefined) ?? node;
    let next: { node: YamlNode | null; key: YamlNode | null } | null = null;
    if (isMap(node)) {
      const pair = node.items.find((p) => isPair(p) && keyText(p.key) === segment);
      if (pair) next = { node: written(pair.value as YamlNode | null), key: pair.key as YamlNode };
    } else if (isSeq(node) && /^\d+$/.test(segment)) {
      const item = node.items[Number(segment)] as YamlNode | undefined;
      if (item !== undefined) next = { node: item ?? null, key: null };
    }
    if (!next) return { node, key, exact: false };
    // An empty value (`key:`) has no node of its own: point at the key.
    node = next.node ?? next.key;
    key = next.key;
  }
  return { node, key, exact: true };
}

/** An empty value (`key:`) is a zero-width null scalar in the tree; treat it as absent. */
function written(node: YamlNode | null): YamlNode | null {
  if (!node) return null;
  const range = node.range;
  return isScalar(node) && node.value === null && range && range[0] === range[1] ? null : node;
}

function keyText(key: unknown): string | null {
  if (isScalar(key)) return String(key.value);
  return null;
}

/** Source offset of character `offset` of a string scalar's value. */
function scalarOffset(node: Scalar, offset: number, text: string): number {
  const [begin, end] = node.range ?? [0, 0];
  const value = String(node.value);
  const clamped = Math.max(0, Math.min(offset, value.length));
  switch (node.type) {
    case Scalar.QUOTE_DOUBLE:
    case Scalar.QUOTE_SINGLE:
      return Math.min(begin + 1 + clamped, end);
    case Scalar.BLOCK_LITERAL:
      return blockOffset(text, begin, value, clamped);
    case Scalar.BLOCK_FOLDED:
      return begin;
    default:
      return Math.min(begin + clamped, end);
  }
}

/** Literal block scalars keep lines 1:1; content starts on the line after the header. */
function blockOffset(text: string, headerStart: number, value: string, offset: number): number {
  const before = value.slice(0, offset);
  const lineIndex = (before.match(/\n/g) ?? []).length;
  const column = offset - (before.lastIndexOf('\n') + 1);
  let pos = text.indexOf('\n', headerStart);
  if (pos < 0) return headerStart;
  const contentStart = pos + 1;
  const indent = (/^[ ]*/.exec(text.slice(contentStart)) ?? [''])[0].length;
  pos = contentStart;
  for (let i = 0; i < lineIndex; i++) {
    const nl = text.indexOf('\n', pos);
    if (nl < 0) return pos;
    pos = nl + 1;
  }
  return pos + indent + column;
}
