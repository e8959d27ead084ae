/**
 * Checking a case's expectations against what the runner produced. Outcome, rules,
 * message, context and warning are read from the Decision; stdout, stderr and exit_code
 * from the rendered response, exactly as Claude Code would receive it.
 */
import type { Decision, RecordDraft } from '../types';
import { lineDiff, stableJson } from './diff';
import type { CaseActual, Expectation, ExpectationFailure, RecordExpectation, TextMatcher } from './types';

/**
 * Ids of the rules whose outcome took effect: the rules that decided the final outcome,
 * then every warn and context rule that fired, in rule order.
 * @example effectiveRules(decision) // ['ateam-reviewer-writes-nothing']
 */
export function effectiveRules(decision: Decision): string[] {
  const ids = new Set(decision.decidedBy.map((h) => h.id));
  for (const hit of decision.hits) if (hit.outcome === 'warn' || hit.outcome === 'context') ids.add(hit.id);
  const order = decision.hits.map((h) => h.id);
  return [...ids].sort((x, y) => rank(order, x) - rank(order, y));
}

function rank(order: string[], id: string): number {
  const i = order.indexOf(id);
  return i === -1 ? order.length : i;
}

/**
 * Every unmet expectation of a case; [] when the case passes.
 * @example checkExpectation({ outcome: 'deny' }, { decision: { ...d, outcome: 'allow' }, response })
 *   // [{ key: 'outcome', message: 'outcome differs', expected: 'deny', actual: 'allow' }]
 */
export function checkExpectation(expect: Expectation, actual: CaseActual): ExpectationFailure[] {
  const failures: ExpectationFailure[] = [];
  const d = actual.decision;
  const r = actual.response;
  if (expect.outcome !== undefined) {
    const got = d ? d.outcome : '(no decision)';
    if (got !== expect.outcome) failures.push({ key: 'outcome', message: 'outcome differs', expected: expect.outcome, actual: got });
  }
  if (expect.rules !== undefined) {
    const got = d ? effectiveRules(d) : [];
    if (!sameSet(expect.rules, got)) {
      failures.push({ key: 'rules', message: 'deciding rules differ', expected: listText(expect.rules), actual: listText(got) });
    }
  }
  checkText(failures, 'message', expect.message, d?.reason ?? null);
  checkText(failures, 'context', expect.context, d && d.contexts.length > 0 ? d.contexts.join('\n') : null);
  checkText(failures, 'warning', expect.warning, d && d.warnings.length > 0 ? d.warnings.join('\n') : null);
  if (expect.stdout !== undefined) checkStdout(failures, expect.stdout, r.stdout);
  if (expect.exit_code !== undefined && expect.exit_code !== r.exitCode) {
    failures.push({ key: 'exit_code', message: 'exit code differs', expected: String(expect.exit_code), actual: String(r.exitCode) });
  }
  if (expect.stderr === null) {
    if (r.stderr !== '') failures.push({ key: 'stderr', message: 'stderr is not empty', expected: '(empty)', actual: JSON.stringify(r.stderr) });
  } else {
    checkText(failures, 'stderr', expect.stderr, r.stderr === '' ? null : r.stderr);
  }
  if (expect.records !== undefined) checkRecords(failures, expect.records, d?.records ?? []);
  if (expect.dropped !== undefined && expect.dropped !== (d?.droppedRecords ?? 0)) {
    failures.push({ key: 'dropped', message: 'dropped records differ', expected: String(expect.dropped), actual: String(d?.droppedRecords ?? 0) });
  }
  if (expect.sandbox !== undefined && !sameSet(expect.sandbox, d?.sandbox?.rules ?? [])) {
    failures.push({ key: 'sandbox', message: 'sandboxing rules differ', expected: listText(expect.sandbox), actual: listText(d?.sandbox?.rules ?? []) });
  }
  return failures;
}

/**
 * Whether one stored record is what a case expects: same kind, text matching, same
 * importance and rule when given.
 * @example recordMatches({ kind: 'test-fail', text: { contains: 'jest' } }, draft) // true
 */
export function recordMatches(expected: RecordExpectation, actual: RecordDraft): boolean {
  if (expected.kind !== actual.kind) return false;
  if (expected.text !== undefined && !matchText(expected.text, actual.text)) return false;
  if (expected.importance !== undefined && Math.abs(expected.importance - actual.importance) > 1e-9) return false;
  return expected.rule === undefined || expected.rule === actual.rule;
}

/** The records, in order and all of them; one failure listing both sides when they differ. */
function checkRecords(failures: ExpectationFailure[], expected: readonly RecordExpectation[], actual: readonly RecordDraft[]): void {
  if (expected.length === actual.length && expected.every((e, i) => recordMatches(e, actual[i]))) return;
  const want = expected.map((e) => [e.kind, e.text ? describeMatcher(e.text) : '', e.importance !== undefined ? `importance ${e.importance}` : '', e.rule ? `rule ${e.rule}` : ''].filter(Boolean).join(' ')).join('\n');
  const have = actual.map((a) => `${a.kind} ${JSON.stringify(a.text)} importance ${a.importance} rule ${a.rule}`).join('\n');
  failures.push({
    key: 'records',
    message: expected.length === actual.length ? 'records differ' : `${actual.length} record(s) stored, ${expected.length} expected`,
    expected: want === '' ? '(none)' : want,
    actual: have === '' ? '(none)' : have,
  });
}

/**
 * Whether a text satisfies a matcher; null text (nothing there) never does.
 * @example matchText({ contains: 'review' }, 'the reviewer') // true
 */
export function matchText(matcher: TextMatcher, text: string | null): boolean {
  if (text === null) return false;
  if ('contains' in matcher) return text.includes(matcher.contains);
  if ('equals' in matcher) return text === matcher.equals;
  return new RegExp(matcher.regex).test(text);
}

/** How a matcher reads in a failure message. */
export function describeMatcher(matcher: TextMatcher): string {
  if ('contains' in matcher) return `contains ${JSON.stringify(matcher.contains)}`;
  if ('equals' in matcher) return `equals ${JSON.stringify(matcher.equals)}`;
  return `matches /${matcher.regex}/`;
}

function checkText(failures: ExpectationFailure[], key: 'message' | 'context' | 'warning' | 'stderr', matcher: TextMatcher | undefined, text: string | null): void {
  if (matcher === undefined || matchText(matcher, text)) return;
  failures.push({
    key,
    message: text === null ? `no ${key}` : `${key} does not match`,
    expected: describeMatcher(matcher),
    actual: text === null ? '(none)' : JSON.stringify(text),
  });
}

function checkStdout(failures: ExpectationFailure[], expected: unknown, stdout: string): void {
  const got = parseStdout(stdout);
  const want = stableJson(expected);
  const have = got.json ? stableJson(got.value) : JSON.stringify(stdout);
  if (want === have) return;
  const failure: ExpectationFailure = { key: 'stdout', message: 'stdout differs', expected: want, actual: have };
  if (want.includes('\n') || have.includes('\n')) failure.diff = lineDiff(want, have);
  failures.push(failure);
}

/** stdout as JSON: '' is null; text that is not JSON stays text. */
function parseStdout(stdout: string): { json: boolean; value: unknown } {
  if (stdout.trim() === '') return { json: true, value: null };
  try {
    return { json: true, value: JSON.parse(stdout) };
  } catch {
    return { json: false, value: stdout };
  }
}

function sameSet(a: readonly string[], b: readonly string[]): boolean {
  const sa = new Set(a);
  const sb = new Set(b);
  return sa.size === sb.size && [...sa].every((x) => sb.has(x));
}

function listText(ids: readonly string[]): string {
  return `[${ids.join(', ')}]`;
}
