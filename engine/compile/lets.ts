/**
 * Compiles a rule's `let` values and its `require` list.
 */
import type { CompiledLet, CompiledRequirement } from '../types';
import type { CompileContext } from './context';
import { isObject } from './context';
import { toPointer } from '../load/source-map';
import { checkExpression } from './expression';
import { compileRegex } from './regex';
import { checkTemplate } from './templates';

const KINDS = ['newest', 'file', 'expr'] as const;
const DEFAULT_MAX_BYTES = 65536;

/**
 * One CompiledLet per named value, in the order written.
 * @example compileLets(ctx, { gc: { newest: 'a/*.md', extract: '^v:(\\S+)' } }, 0)
 *   // [{ name: 'gc', kind: 'newest', target: 'a/*.md', extract: { source: '^v:(\\S+)', flags: 'm' }, field: null, maxBytes: 65536, optional: false }]
 */
export function compileLets(ctx: CompileContext, lets: unknown, ruleIndex: number): CompiledLet[] {
  if (!isObject(lets)) return [];
  const out: CompiledLet[] = [];
  for (const [name, value] of Object.entries(lets)) {
    if (!isObject(value)) continue;
    const kind = KINDS.find((k) => typeof value[k] === 'string');
    if (!kind) continue;
    const target = value[kind] as string;
    const pointer = (key: string) => toPointer(['rules', ruleIndex, 'let', name, key]);
    if (kind === 'expr') checkExpression(ctx, target, pointer(kind));
    else checkTemplate(ctx, target, pointer(kind));
    const extract = typeof value.extract === 'string' ? compileRegex(ctx, value.extract, 'm', pointer('extract')) : null;
    out.push({
      name,
      kind,
      target,
      extract,
      field: typeof value.field === 'string' ? value.field : null,
      maxBytes: typeof value.max_bytes === 'number' ? value.max_bytes : DEFAULT_MAX_BYTES,
      optional: value.optional === true,
    });
  }
  return out;
}

/**
 * The rule's requirements with min_bytes defaulted to 1.
 * @example compileRequires(ctx, [{ file: 'L1.yaml' }], 0) // [{ file: 'L1.yaml', minBytes: 1 }]
 */
export function compileRequires(ctx: CompileContext, requires: unknown, ruleIndex: number): CompiledRequirement[] {
  if (!Array.isArray(requires)) return [];
  return requires.flatMap((entry: unknown, i: number) => {
    if (!isObject(entry) || typeof entry.file !== 'string') return [];
    checkTemplate(ctx, entry.file, toPointer(['rules', ruleIndex, 'require', i, 'file']));
    return [{ file: entry.file, minBytes: typeof entry.min_bytes === 'number' ? entry.min_bytes : 1 }];
  });
}
