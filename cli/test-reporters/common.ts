/**
 * What every reporter needs: paths shown relative to the working folder, locations as
 * `file:line:col`, and the lines that explain one failed expectation.
 */
import * as path from 'path';
import type { Diagnostic, SourceLocation } from '../../engine/types';
import type { CaseResult, ExpectationFailure, TestRunResult } from '../../engine/testing/types';
import { formatDiagnostic } from '../../engine/diagnostics';

export interface ReporterOptions {
  /** Paths are shown relative to this folder. */
  cwd: string;
  /** Include the coverage section (pretty and tap; json and junit always carry what they carry). */
  coverage: boolean;
  /** Coverage threshold in percent, when one was given. */
  threshold?: number;
  /** ANSI colours, for the human report (pretty); see cli/color.ts for when. */
  color?: boolean;
  /** The human report (pretty) shows failures and the summary only; the others are whole documents. */
  quiet?: boolean;
}

/** A reporter turns a finished run into the text written to stdout. */
export type Reporter = (result: TestRunResult, options: ReporterOptions) => string;

/**
 * A path relative to `cwd` with `/` separators, or the path itself when outside it.
 * @example displayPath('/p/policies/a.yaml', '/p') // 'policies/a.yaml'
 */
export function displayPath(file: string, cwd: string): string {
  const rel = path.relative(cwd, file);
  if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel)) return file.split(path.sep).join('/');
  return rel.split(path.sep).join('/');
}

/** `file:line:col`, with the file relative to cwd. */
export function where(loc: SourceLocation, cwd: string): string {
  return `${displayPath(loc.file, cwd)}:${loc.line}:${loc.column}`;
}

/** A diagnostic on one line, its file relative to cwd. */
export function diagnosticLine(d: Diagnostic, cwd: string): string {
  return formatDiagnostic(d.file ? { ...d, file: displayPath(d.file, cwd) } : d);
}

/**
 * The lines explaining one failed expectation: the message with where it was expected,
 * then `- expected` / `+ actual` (a line diff for JSON).
 * @example failureLines({ key: 'outcome', message: 'outcome differs', expected: 'deny', actual: 'allow' }, '/p')
 *   // ['outcome differs', '- deny', '+ allow']
 */
export function failureLines(f: ExpectationFailure, cwd: string): string[] {
  const head = f.location ? `${f.message} (expected at ${where(f.location, cwd)})` : f.message;
  const body = f.diff ?? [...f.expected.split('\n').map((l) => `- ${l}`), ...f.actual.split('\n').map((l) => `+ ${l}`)];
  return [head, ...body];
}

/** Every line explaining why a case failed: its error or its failures, then the deciding rules. */
export function caseFailureLines(c: CaseResult, cwd: string): string[] {
  const lines: string[] = [];
  if (c.error) lines.push(diagnosticLine(c.error, cwd));
  for (const f of c.failures) lines.push(...failureLines(f, cwd));
  if (!c.error) lines.push(`decided by: ${decidedByText(c, cwd)}`);
  return lines;
}

/** The deciding rules with their positions, or "no rule". */
export function decidedByText(c: CaseResult, cwd: string): string {
  if (c.decidedBy.length === 0) return `no rule (outcome ${c.outcome ?? 'none'})`;
  return c.decidedBy.map((r) => `${r.id} (${where(r.source, cwd)})`).join(', ');
}

/** The exact last line of the pretty report; CI systems read it. */
export function summaryLine(result: TestRunResult): string {
  return `${result.passed} passed, ${result.failed} failed`;
}
