/**
 * The human report: one line per case, the reasons under each failure, the coverage
 * section on request, and a last line exactly `N passed, N failed`.
 */
import type { TestRunResult } from '../../engine/testing/types';
import { unexercisedRules, undecidedRules } from '../../engine/testing/coverage';
import { caseFailureLines, diagnosticLine, displayPath, where, summaryLine, type ReporterOptions } from './common';

/**
 * Renders the pretty report.
 * @example formatPretty(result, { cwd: '/p', coverage: false }).split('\n').pop() // '3 passed, 0 failed'
 */
export function formatPretty(result: TestRunResult, options: ReporterOptions): string {
  const { cwd } = options;
  const lines: string[] = [];
  for (const suite of result.suites) {
    lines.push(displayPath(suite.file, cwd));
    for (const d of suite.diagnostics) lines.push(`  ${diagnosticLine(d, cwd)}`);
    for (const c of suite.cases) {
      lines.push(`  ${c.passed ? '✓' : '✗'} ${c.name}`);
      if (c.passed) continue;
      lines.push(`      at ${where(c.location, cwd)}`);
      for (const l of caseFailureLines(c, cwd)) lines.push(`      ${l}`);
    }
  }
  if (options.coverage || options.threshold !== undefined) lines.push('', ...coverageLines(result, options));
  lines.push('', summaryLine(result));
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
