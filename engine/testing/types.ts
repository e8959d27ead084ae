/**
 * The data of `policy test`: a suite as written (TestSuite, TestCase, Expectation), what a
 * case produced (CaseActual) and how it went (CaseResult, SuiteResult, TestRunResult).
 * Everything is plain data; reporters only read these.
 */
import type { Decision, Diagnostic, FinalOutcome, HookEvent, HookResponse, SourceLocation } from '../types';
import type { MemorySeed } from '../memory/in-memory';

/** A temp project file: its exact content, or `size` bytes of filler. */
export type FileSpec = { content: string } | { size: number };

/** The event shorthand of a case; see docs/test-format.md. */
export interface EventShorthand {
  event: string;
  tool?: string;
  agent?: string;
  teammate?: string;
  team?: string;
  input?: Record<string, unknown>;
  path?: string;
  command?: string;
  prompt?: string;
  fields?: Record<string, unknown>;
}

/** Where a case's event comes from. */
export type EventSource =
  | { kind: 'shorthand'; shorthand: EventShorthand }
  | { kind: 'json'; event: Record<string, unknown> }
  /** Absolute path of a JSON file, resolved against the suite file. */
  | { kind: 'file'; path: string };

/** A text expectation: a plain string in YAML means `contains`. */
export type TextMatcher = { contains: string } | { regex: string } | { equals: string };

/** One record a case expects the decision to store. */
export interface RecordExpectation {
  kind: string;
  text?: TextMatcher;
  importance?: number;
  rule?: string;
}

export interface Expectation {
  outcome?: FinalOutcome;
  rules?: string[];
  message?: TextMatcher;
  context?: TextMatcher;
  warning?: TextMatcher;
  /** Parsed JSON expected on stdout; null means empty stdout. */
  stdout?: unknown;
  exit_code?: number;
  /** A text expectation; null means empty stderr. */
  stderr?: TextMatcher | null;
  /** Exactly the records stored, in order; [] = none. */
  records?: RecordExpectation[];
  /** How many records the privacy filter dropped. */
  dropped?: number;
  /** The rules a sandboxed command's writes are judged by (`unparsable: sandbox`); [] = not sandboxed. */
  sandbox?: string[];
}

export interface TestCase {
  name: string;
  /** The coding agent whose event this is (`policy hook --host`); null: the suite's. */
  host: 'claude' | 'codex' | 'gemini' | null;
  /** Where the case starts in the suite file (its `- ` item). */
  location: SourceLocation;
  event: EventSource;
  files: Record<string, FileSpec>;
  env: Record<string, string>;
  /** Records the memory store holds for this case, after the suite's. */
  memory: MemorySeed[];
  expect: Expectation;
  /** Where each expectation key is written, for failure messages. */
  expectLocations: Partial<Record<keyof Expectation, SourceLocation>>;
}

export interface TestSuite {
  file: string;
  /** The coding agent whose events the cases are, unless a case says another (default claude). */
  host: 'claude' | 'codex' | 'gemini';
  /** Absolute policy paths; empty = the project's default discovery. */
  policies: string[];
  env: Record<string, string>;
  files: Record<string, FileSpec>;
  /** Records the memory store holds for every case. */
  memory: MemorySeed[];
  cases: TestCase[];
}

/** What running one case produced. decision is null when the runner could not decide. */
export interface CaseActual {
  decision: Decision | null;
  response: HookResponse;
}

/** One unmet expectation. */
export interface ExpectationFailure {
  key: keyof Expectation;
  message: string;
  expected: string;
  actual: string;
  /** A line diff (`- expected`, `+ actual`, `  same`) when both sides are multi-line JSON. */
  diff?: string[];
  location?: SourceLocation;
}

export interface CaseResult {
  suite: string;
  name: string;
  location: SourceLocation;
  passed: boolean;
  failures: ExpectationFailure[];
  /** The rules whose outcome took effect, with where they are written. */
  decidedBy: Array<{ id: string; source: SourceLocation }>;
  outcome: FinalOutcome | null;
  event: HookEvent | null;
  response: HookResponse | null;
  /** A case that could not run (unreadable event_file, ...). */
  error?: Diagnostic;
  durationMs: number;
}

export interface SuiteResult {
  file: string;
  cases: CaseResult[];
  /** Load problems of the suite or its policy; a suite with errors runs no case. */
  diagnostics: Diagnostic[];
}

export interface RuleCoverage {
  id: string;
  source: SourceLocation;
  /** Cases where the rule was a candidate (it appears in the decision's trace). */
  exercised: number;
  /** Cases where the rule fired. */
  decided: number;
}

export interface CoverageReport {
  rules: RuleCoverage[];
  total: number;
  decided: number;
  /** 100 when there are no rules. */
  percent: number;
}

export interface TestRunResult {
  suites: SuiteResult[];
  passed: number;
  failed: number;
  coverage: CoverageReport;
  durationMs: number;
}
