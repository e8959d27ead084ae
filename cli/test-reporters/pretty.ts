/**
 * The human report: one line per case, the reasons under each failure, the coverage
 * section on request, and a last line exactly `N passed, N failed`.
 */
import type { TestRunResult } from '../../engine/testing/types';
import { unexercisedRules, undecidedRules } from '../../engine/testing/coverage';
import { palette, type Palette } from '../color';
import { caseFailureLines, diagnosticLine, displayPath, where, summaryLine, type ReporterOptions } from './common';

/**
 * Renders the pretty report. With `color`: ✓ green, ✗ red, expected (-) green and actual
 * (+) red, positions dim, problems of a suite red or yellow. The summary line is never
 * coloured: CI logs read it as it is. With `quiet`: only the failed cases, the suites'
 * errors, a coverage below the threshold, and the summary line.
 * @example formatPretty(result, { cwd: '/p', coverage: false }).split('\n').pop() // '3 passed, 0 failed'
 */
export function formatPretty(result: TestRunResult, options: ReporterOptions): string {
  const { cwd, quiet } = options;
  const p = palette(options.color);
  const lines: string[] = [];
  for (const suite of result.suites) {
    const diagnostics = quiet ? suite.diagnostics.filter((d) => d.severity === 'error') : suite.diagnostics;
    const cases = quiet ? suite.cases.filter((c) => !c.passed) : suite.cases;
    if (quiet && diagnostics.length === 0 && cases.length === 0) continue;
    lines.push(p.underline(displayPath(suite.file, cwd)));
    for (const d of diagnostics) lines.push(`  ${(d.severity === 'error' ? p.red : p.yellow)(diagnosticLine(d, cwd))}`);
    for (const c of cases) {
      lines.push(`  ${c.passed ? p.green('✓') : p.red('✗')} ${c.name}`);
      if (c.passed) continue;
      lines.push(`      ${p.dim(`at ${where(c.location, cwd)}`)}`);
      for (const l of caseFailureLines(c, cwd)) lines.push(`      ${paintFailureLine(l, p)}`);
    }
  }
  const belowThreshold = options.threshold !== undefined && result.coverage.percent < options.threshold;
  if (quiet ? belowThreshold : options.coverage || options.threshold !== undefined) {
    if (lines.length > 0) lines.push('');
    lines.push(...coverageLines(result, { ...options, coverage: options.coverage && !quiet }));
  }
  if (lines.length > 0) lines.push('');
  lines.push(summaryLine(result));
  return lines.join('\n') + '\n';
}

function coverageLines(result: TestRunResult, options: ReporterOptions): string[] {
  const cov = result.coverage;
  const lines = [`coverage: ${cov.decided}/${cov.total} rules decided in some case (${cov.percent}%)`];
  if (options.threshold !== undefined && cov.percent < options.threshold) {
    lines.push(`coverage ${cov.percent}% is below the threshold of ${options.threshold}%`);
  }
  if (!options.coverage) return lines;
  const unexercised = unexercisedRules(cov);
  const undecided = undecidedRules(cov).filter((r) => r.exercised > 0);
  if (unexercised.length > 0) lines.push('  never exercised (no case made them a candidate):');
  for (const r of unexercised) lines.push(`    ${r.id} (${where(r.source, options.cwd)})`);
  if (undecided.length > 0) lines.push('  exercised but never decided:');
  for (const r of undecided) lines.push(`    ${r.id} (${where(r.source, options.cwd)})`);
  return lines;
}

function paintFailureLine(line: string, p: Palette): string {
  if (line.startsWith('- ')) return p.green(line);
  if (line.startsWith('+ ')) return p.red(line);
  return line;
}
