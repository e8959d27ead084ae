/**
 * Suite text -> TestSuite: YAML with positions (the policy loader's parser), schema
 * validation, then plain data with every relative path resolved against the suite file.
 */
import * as path from 'path';
import { parsePolicyText } from '../load';
import type { Diagnostic, SourceMap } from '../types';
import type { MemorySeed } from '../memory/in-memory';
import type { EventShorthand, EventSource, Expectation, FileSpec, RecordExpectation, TestCase, TestSuite, TextMatcher } from './types';
import { validateSuiteDoc } from './validate-suite';

export interface ParseSuiteResult {
  /** null when the suite has errors. */
  suite: TestSuite | null;
  diagnostics: Diagnostic[];
}

type Raw = Record<string, unknown>;

const EXPECT_KEYS: Array<keyof Expectation> = ['outcome', 'rules', 'message', 'context', 'warning', 'stdout', 'exit_code', 'stderr', 'records', 'dropped', 'sandbox'];

/**
 * Parses one suite file's text; `file` is its absolute path.
 * @example parseSuiteText('/p/t.test.yaml', 'policy: a.yaml\ncases: []\n').suite?.policies // ['/p/a.yaml']
 */
export function parseSuiteText(file: string, text: string): ParseSuiteResult {
  const parsed = parsePolicyText(file, text);
  const diagnostics = [...parsed.diagnostics];
  if (parsed.doc === null && diagnostics.length === 0) {
    diagnostics.push({ code: 'schema-required', severity: 'error', message: 'The suite is empty; it needs `cases`', file, line: 1, column: 1 });
  }
  if (diagnostics.some((d) => d.severity === 'error')) return { suite: null, diagnostics };
  diagnostics.push(...validateSuiteDoc(parsed.doc, parsed.map));
  if (diagnostics.some((d) => d.severity === 'error')) return { suite: null, diagnostics };
  return { suite: toSuite(file, parsed.doc as Raw, parsed.map), diagnostics };
}

function toSuite(file: string, doc: Raw, map: SourceMap): TestSuite {
  const dir = path.dirname(file);
  const policy = doc.policy;
  const policies = policy === undefined ? [] : ([] as string[]).concat(policy as string | string[]).map((p) => toPosix(path.resolve(dir, p)));
  const cases = (doc.cases as Raw[]).map((c, i) => toCase(c, i, dir, map));
  return { file, host: (doc.host as TestSuite['host']) ?? 'claude', policies, env: (doc.env as Record<string, string>) ?? {}, files: (doc.files as Record<string, FileSpec>) ?? {}, memory: (doc.memory as MemorySeed[]) ?? [], cases };
}

function toCase(raw: Raw, index: number, dir: string, map: SourceMap): TestCase {
  const expect = toExpectation(raw.expect as Raw);
  const expectLocations: TestCase['expectLocations'] = {};
  for (const key of EXPECT_KEYS) if (key in expect) expectLocations[key] = map.locate(`/cases/${index}/expect/${key}`, 'key');
  return {
    name: raw.name as string,
    host: (raw.host as TestCase['host']) ?? null,
    location: map.locate(`/cases/${index}`),
    event: toEventSource(raw, dir),
    files: (raw.files as Record<string, FileSpec>) ?? {},
    env: (raw.env as Record<string, string>) ?? {},
    memory: (raw.memory as MemorySeed[]) ?? [],
    expect,
    expectLocations,
  };
}

function toEventSource(raw: Raw, dir: string): EventSource {
  if (raw.event !== undefined) return { kind: 'shorthand', shorthand: raw.event as EventShorthand };
  if (raw.event_json !== undefined) return { kind: 'json', event: raw.event_json as Raw };
  return { kind: 'file', path: toPosix(path.resolve(dir, raw.event_file as string)) };
}

function toExpectation(raw: Raw): Expectation {
  const e: Expectation = {};
  if (raw.outcome !== undefined) e.outcome = raw.outcome as Expectation['outcome'];
  if (raw.rules !== undefined) e.rules = raw.rules as string[];
  if (raw.stdout !== undefined) e.stdout = raw.stdout;
  if (raw.exit_code !== undefined) e.exit_code = raw.exit_code as number;
  if (raw.dropped !== undefined) e.dropped = raw.dropped as number;
  if (raw.sandbox !== undefined) e.sandbox = raw.sandbox as string[];
  if (Array.isArray(raw.records)) {
    e.records = (raw.records as Raw[]).map((r) => {
      const record: RecordExpectation = { kind: r.kind as string };
      if (r.text !== undefined) record.text = toMatcher(r.text);
      if (r.importance !== undefined) record.importance = r.importance as number;
      if (r.rule !== undefined) record.rule = r.rule as string;
      return record;
    });
  }
  for (const key of ['message', 'context', 'warning', 'stderr'] as const) {
    if (raw[key] !== undefined && raw[key] !== null) e[key] = toMatcher(raw[key]);
  }
  // `stderr: null`: the runner wrote nothing on stderr (no warning, no error).
  if (raw.stderr === null) e.stderr = null;
  return e;
}

/** A plain string means `contains`. */
function toMatcher(value: unknown): TextMatcher {
  return typeof value === 'string' ? { contains: value } : (value as TextMatcher);
}

function toPosix(p: string): string {
  return p.split(path.sep).join('/');
}
