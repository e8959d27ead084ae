/**
 * Lints policy text held in memory, for the checks' tests and for tools that hold policy
 * text already. Pure: files come from a memory reader.
 */
import { lintSources } from '../lint';
import { memoryReader } from '../load/memory-reader';
import type { Diagnostic } from '../types';
import type { LintOptions } from './context';

/**
 * Every diagnostic of `text` (as file `p.yaml`, plus any `others`), as `line:col code` strings
 * when `code` is given, else the diagnostics themselves.
 * @example lintedAt('version: 1\nrules: [{id: a, on: Stop, deny: x}]\n', 'outcome-impossible') // ['2:30 outcome-impossible']
 */
export function lintedAt(text: string, code: string, options: LintOptions = {}, others: Record<string, string> = {}): string[] {
  return lintText(text, options, others)
    .filter((d) => d.code === code)
    .map((d) => `${d.file === 'p.yaml' ? '' : `${d.file}:`}${d.line}:${d.column} ${d.code}`);
}

/** Every diagnostic of `text` linted as `p.yaml`. */
export function lintText(text: string, options: LintOptions = {}, others: Record<string, string> = {}): Diagnostic[] {
  return lintSources(['p.yaml'], memoryReader({ 'p.yaml': text, ...others }), options).diagnostics;
}
