/**
 * The JUnit XML report that CI systems read: one <testsuite> per suite file, one
 * <testcase> per case; a failed case has a <failure>, a case or suite that could not
 * run has an <error>.
 */
import type { SuiteResult, TestRunResult } from '../../engine/testing/types';
import { caseFailureLines, diagnosticLine, displayPath, where, type ReporterOptions } from './common';

/**
 * Renders the JUnit report.
 * @example formatJunit(result, { cwd: '/p', coverage: false }).startsWith('<?xml') // true
 */
export function formatJunit(result: TestRunResult, options: ReporterOptions): string {
  const { cwd } = options;
  const suites = result.suites.map((s) => suiteXml(s, cwd));
  const errors = result.suites.reduce((n, s) => n + errorCount(s), 0);
  const tests = result.suites.reduce((n, s) => n + testCount(s), 0);
  const head = `<testsuites name="policy test" tests="${tests}" failures="${result.failed - caseErrors(result)}" errors="${errors}" time="${seconds(result.durationMs)}">`;
  return ['<?xml version="1.0" encoding="UTF-8"?>', head, ...suites, '</testsuites>'].join('\n') + '\n';
}

function suiteXml(s: SuiteResult, cwd: string): string {
  const name = displayPath(s.file, cwd);
  const failures = s.cases.filter((c) => !c.passed && !c.error).length;
  const time = s.cases.reduce((t, c) => t + c.durationMs, 0);
  const lines = [`  <testsuite name="${attr(name)}" tests="${testCount(s)}" failures="${failures}" errors="${errorCount(s)}" time="${seconds(time)}">`];
  if (s.diagnostics.length > 0) {
    const text = s.diagnostics.map((d) => diagnosticLine(d, cwd)).join('\n');
    lines.push(`    <testcase name="(load)" classname="${attr(name)}" file="${attr(name)}" time="0">`);
    lines.push(`      <error message="${attr(s.diagnostics[0].message)}" type="${attr(s.diagnostics[0].code)}">${text_(text)}</error>`);
    lines.push('    </testcase>');
  }
  for (const c of s.cases) {
    const open = `    <testcase name="${attr(c.name)}" classname="${attr(name)}" file="${attr(name)}" line="${c.location.line}" time="${seconds(c.durationMs)}"`;
    if (c.passed) {
      lines.push(`${open}/>`);
      continue;
    }
    const body = [`at ${where(c.location, cwd)}`, ...caseFailureLines(c, cwd)].join('\n');
    const tag = c.error ? 'error' : 'failure';
    const message = c.error ? c.error.message : c.failures.map((f) => f.message).join('; ');
    const type = c.error ? c.error.code : c.failures.map((f) => f.key).join(',');
    lines.push(`${open}>`);
    lines.push(`      <${tag} message="${attr(message)}" type="${attr(type)}">${text_(body)}</${tag}>`);
    lines.push('    </testcase>');
  }
  lines.push('  </testsuite>');
  return lines.join('\n');
}

function testCount(s: SuiteResult): number {
  return s.cases.length + (s.diagnostics.length > 0 ? 1 : 0);
}

function errorCount(s: SuiteResult): number {
  return s.cases.filter((c) => c.error).length + (s.diagnostics.length > 0 ? 1 : 0);
}

function caseErrors(result: TestRunResult): number {
  return result.suites.reduce((n, s) => n + s.cases.filter((c) => c.error).length, 0);
}

function seconds(ms: number): string {
  return (ms / 1000).toFixed(3);
}

/**
 * Text XML 1.0 can hold: a control character (but tab, LF and CR) becomes its `\uXXXX`
 * escape, a lone surrogate or U+FFFE/U+FFFF becomes U+FFFD.
 * @example xmlChars('a\u0001b') // 'a\\u0001b'
 */
function xmlChars(s: string): string {
  return s.replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, (c) =>
    (c < '\u0020' ? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}` : '\uFFFD'));
}

/** Element text: `>` escaped too, so `]]>` can never appear; CR kept as a reference (parsers turn a raw one into LF). */
function text_(s: string): string {
  return xmlChars(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\r/g, '&#13;');
}

/** Attribute values: quotes escaped, and tab and LF as references (a parser would turn them into spaces). */
function attr(s: string): string {
  return text_(s).replace(/"/g, '&quot;').replace(/'/g, '&apos;').replace(/\n/g, '&#10;').replace(/\t/g, '&#9;');
}
