/**
 * The TAP version 13 report: one test point per case (and per suite that failed to
 * load), failures as a YAML block under the point.
 */
import type { TestRunResult } from '../../engine/testing/types';
import { caseFailureLines, diagnosticLine, displayPath, summaryLine, where, type ReporterOptions } from './common';

/**
 * Renders the TAP report.
 * @example formatTap(result, { cwd: '/p', coverage: false }).split('\n').slice(0, 2) // ['TAP version 13', '1..3']
 */
export function formatTap(result: TestRunResult, options: ReporterOptions): string {
  const { cwd } = options;
  const points: string[] = [];
  let n = 0;
  for (const suite of result.suites) {
    const name = displayPath(suite.file, cwd);
    if (suite.diagnostics.length > 0) {
      points.push(`not ok ${++n} - ${name} (load)`);
      points.push(...block(suite.diagnostics.map((d) => diagnosticLine(d, cwd)), null));
    }
    for (const c of suite.cases) {
      points.push(`${c.passed ? 'ok' : 'not ok'} ${++n} - ${name} > ${c.name.replace(/#/g, '\\#')}`);
      if (!c.passed) points.push(...block(caseFailureLines(c, cwd), where(c.location, cwd)));
    }
  }
  const tail = [`# ${summaryLine(result)}`];
  if (options.coverage || options.threshold !== undefined) {
    tail.push(`# coverage: ${result.coverage.decided}/${result.coverage.total} rules decided (${result.coverage.percent}%)`);
  }
  return ['TAP version 13', `1..${n}`, ...points, ...tail].join('\n') + '\n';
}

/** A YAML diagnostic block: `at` and the explanation as a literal block. */
function block(lines: string[], at: string | null): string[] {
  const out = ['  ---'];
  if (at) out.push(`  at: ${JSON.stringify(at)}`);
  out.push('  message: |-', ...lines.map((l) => `    ${l}`), '  ...');
  return out;
}
