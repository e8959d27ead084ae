/**
 * What every compile step shares: the file being compiled, positions, and the diagnostics sink.
 */
import { diagnostic } from '../diagnostics';
import type { BuiltinDiagnosticCode } from '../diagnostics';
import type { Diagnostic, LoadedFile, SourceLocation } from '../types';
import type { TextSourceMap } from '../load/source-map';

export interface CompileContext {
  file: LoadedFile;
  diagnostics: Diagnostic[];
}

/**
 * Location of the value (or key) at `pointer` in the context's file.
 * @example at(ctx, '/rules/0/on') // { file: 'p.yaml', line: 4, column: 9 }
 */
export function at(ctx: CompileContext, pointer: string, part: 'key' | 'value' = 'value'): SourceLocation {
  return ctx.file.map.locate(pointer, part);
}

/**
 * Location of character `offset` inside the string at `pointer`; the value's start when the
 * map cannot point inside scalars.
 * @example atOffset(ctx, '/rules/0/when', 4) // { file: 'p.yaml', line: 5, column: 15 }
 */
export function atOffset(ctx: CompileContext, pointer: string, offset: number): SourceLocation {
  const map = ctx.file.map as Partial<TextSourceMap> & LoadedFile['map'];
  return typeof map.locateIn === 'function' ? map.locateIn(pointer, offset) : map.locate(pointer);
}

/** Records a diagnostic. */
export function report(ctx: CompileContext, code: BuiltinDiagnosticCode, message: string, where: SourceLocation, hint?: string): void {
  ctx.diagnostics.push(diagnostic(code, message, where, hint));
}

/**
 * A string or list of strings as a list; anything else as [].
 * @example asList('Write') // ['Write']
 */
export function asList(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === 'string');
  return [];
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
