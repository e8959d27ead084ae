/**
 * What every lint formatter shares: its signature, and how a diagnostic's file is shown
 * (relative to the working directory when inside it).
 */
import * as path from 'path';
import type { Diagnostic } from '../../engine/types';

export interface FormatOptions {
  /** Files under this folder are shown relative to it. */
  cwd: string;
  /** The version of hookpolicy, for SARIF's tool.driver.version. */
  toolVersion?: string;
  /** ANSI colours, for the human format (stylish); see cli/color.ts for when. */
  color?: boolean;
}

export type Formatter = (diagnostics: readonly Diagnostic[], options: FormatOptions) => string;

/**
 * A diagnostic's file as shown: POSIX, relative to `cwd` when inside it.
 * @example displayPath('/p/.claude/policies.yaml', '/p') // '.claude/policies.yaml'
 */
export function displayPath(file: string, cwd: string): string {
  const posix = file.split(path.sep).join('/');
  if (!path.isAbsolute(file)) return posix;
  const rel = path.relative(cwd, file);
  if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel)) return posix;
  return rel.split(path.sep).join('/');
}

/** Counts by severity. */
export function countSeverities(diagnostics: readonly Diagnostic[]): { errors: number; warnings: number; infos: number } {
  let errors = 0;
  let warnings = 0;
  let infos = 0;
  for (const d of diagnostics) {
    if (d.severity === 'error') errors++;
    else if (d.severity === 'warning') warnings++;
    else infos++;
  }
  return { errors, warnings, infos };
}
