/**
 * The machine report: one JSON document with every suite, case, failure and the rule
 * coverage. Paths are relative to the working folder.
 */
import type { Diagnostic } from '../../engine/types';
import type { CaseResult, TestRunResult } from '../../engine/testing/types';
import { displayPath, type ReporterOptions } from './common';

/**
 * Renders the JSON report (pretty-printed, one trailing newline).
 * @example JSON.parse(formatJson(result, { cwd: '/p', coverage: false })).summary // { passed: 3, failed: 0 }
 */
export function formatJson(result: TestRunResult, options: ReporterOptions): string {
  const { cwd } = options;
  const rel = (file: string) => displayPath(file, cwd);
  const diag = (d: Diagnostic) => (d.file ? { ...d, file: rel(d.file) } : d);
  const kase = (c: CaseResult) => ({
    name: c.name,
    file: rel(c.location.file),
    line: c.location.line,
    column: c.location.column,
    passed: c.passed,
    outcome: c.outcome,
    rules: c.decidedBy.map((r) => ({ id: r.id, file: rel(r.source.file), line: r.source.line, column: r.source.column })),
    failures: c.failures.map((f) => ({
      key: f.key,
      message: f.message,
      expected: f.expected,
      actual: f.actual,
      ...(f.diff ? { diff: f.diff } : {}),
      ...(f.location ? { line: f.location.line, column: f.location.column } : {}),
    })),
    ...(c.error ? { error: diag(c.error) } : {}),
    durationMs: c.durationMs,
  });
  const doc = {
    summary: { passed: result.passed, failed: result.failed },
    suites: result.suites.map((s) => ({ file: rel(s.file), diagnostics: s.diagnostics.map(diag), cases: s.cases.map(kase) })),
    coverage: {
      total: result.coverage.total,
      decided: result.coverage.decided,
      percent: result.coverage.percent,
      ...(options.threshold !== undefined ? { threshold: options.threshold } : {}),
      rules: result.coverage.rules.map((r) => ({ id: r.id, file: rel(r.source.file), line: r.source.line, exercised: r.exercised, decided: r.decided })),
    },
    durationMs: result.durationMs,
  };
  return JSON.stringify(doc, null, 2) + '\n';
}
