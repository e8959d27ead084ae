/**
 * Runs the cases of one suite: builds each case's event, hands it to the host's executor
 * (the `policy hook` code path), checks the expectations and counts coverage. The world
 * (temp projects, event files, the hook runner, the clock) comes in through SuiteHost.
 */
import { diagnostic } from '../diagnostics';
import { InMemoryMemory, memoryRecords } from '../memory/in-memory';
import type { CompiledPolicy, Diagnostic, HookEvent, MemoryFacts } from '../types';
import { addPolicyRules, recordDecision, type CoverageTally } from './coverage';
import { checkExpectation, effectiveRules } from './expect';
import { expandShorthand, withProject } from './shorthand';
import type { CaseActual, CaseResult, FileSpec, SuiteResult, TestCase, TestSuite } from './types';

/** One case, ready for the hook runner. */
export interface CaseInput {
  event: HookEvent;
  /** The event as stdin text. */
  stdin: string;
  env: Record<string, string>;
  /** Absolute POSIX path of the case's temp project. */
  projectRoot: string;
  /** The case's memory store (the suite's and the case's records); absent when the policy turns the store off. */
  memory?: MemoryFacts;
  /** The coding agent whose event it is, for `policy hook --host`; absent for Claude Code. */
  host?: 'codex' | 'gemini';
}

export interface SuiteHost {
  /** A temp project holding `files`; hosts may share one project between equal file sets. */
  project(files: Record<string, FileSpec>): string;
  /** The parsed JSON of an event_file, or a diagnostic when it cannot be read. */
  readJson(file: string): { value: unknown } | { error: Diagnostic };
  execute(input: CaseInput): Promise<CaseActual>;
  now(): number;
}

/**
 * Runs every case of a suite against its compiled policy, in order; the policy's rules
 * are registered in the coverage tally even when no case reaches them.
 * @example (await runSuite(suite, policy, host, createCoverage())).cases[0].passed // true
 */
export async function runSuite(suite: TestSuite, policy: CompiledPolicy, host: SuiteHost, tally: CoverageTally): Promise<SuiteResult> {
  addPolicyRules(tally, policy);
  const cases: CaseResult[] = [];
  const sharedFiles = suite.files;
  for (const c of suite.cases) {
    const started = host.now();
    const files = Object.keys(c.files).length > 0 ? { ...sharedFiles, ...c.files } : sharedFiles;
    const projectRoot = host.project(files);
    const result = await runCase(suite, c, projectRoot, host, policy, tally);
    result.durationMs = host.now() - started;
    cases.push(result);
  }
  return { file: suite.file, cases, diagnostics: [] };
}

async function runCase(suite: TestSuite, c: TestCase, projectRoot: string, host: SuiteHost, policy: CompiledPolicy, tally: CoverageTally): Promise<CaseResult> {
  const base: CaseResult = {
    suite: suite.file, name: c.name, location: c.location, passed: false, failures: [],
    decidedBy: [], outcome: null, event: null, response: null, durationMs: 0,
  };
  const built = buildEvent(c, projectRoot, host);
  if ('error' in built) return { ...base, error: built.error };
  // `{{project}}` in a value is the temp project, as in event_json (HOME: "{{project}}/home").
  const env = { ...(withProject({ ...suite.env, ...c.env }, projectRoot) as Record<string, string>), CLAUDE_PROJECT_DIR: projectRoot };
  const memory = caseMemory(suite, c, built.event, policy, host.now());
  const agent = c.host ?? suite.host;
  const actual = await host.execute({ event: built.event, stdin: JSON.stringify(built.event), env, projectRoot, ...(memory ? { memory } : {}), ...(agent !== 'claude' ? { host: agent } : {}) });
  const failures = checkExpectation(c.expect, actual).map((f) => ({ ...f, location: c.expectLocations[f.key] }));
  const d = actual.decision;
  if (d) recordDecision(tally, d);
  const decidedBy = d ? effectiveRules(d).map((id) => ({ id, source: (d.hits.find((h) => h.id === id) ?? d.decidedBy.find((h) => h.id === id))!.source })) : [];
  return { ...base, passed: failures.length === 0, failures, decidedBy, outcome: d ? d.outcome : null, event: built.event, response: actual.response };
}

/**
 * The store a case runs with: the suite's records then the case's, in memory (an empty
 * store when neither gives any, as a project's store starts); none when the policy says
 * `store: false`. Records without a session belong to the case's event's session.
 */
function caseMemory(suite: TestSuite, c: TestCase, event: HookEvent, policy: CompiledPolicy, nowMs: number): MemoryFacts | null {
  if (policy.settings?.memory?.dir === null) return null;
  const session = typeof event.session_id === 'string' && event.session_id !== '' ? event.session_id : null;
  return new InMemoryMemory(memoryRecords([...suite.memory, ...c.memory], { session, nowMs }));
}

/** The case's full event, or why it cannot be built. */
function buildEvent(c: TestCase, projectRoot: string, host: SuiteHost): { event: HookEvent } | { error: Diagnostic } {
  const src = c.event;
  if (src.kind === 'shorthand') return { event: expandShorthand(src.shorthand, projectRoot) };
  let raw: unknown;
  if (src.kind === 'json') raw = src.event;
  else {
    const read = host.readJson(src.path);
    if ('error' in read) return read;
    raw = read.value;
  }
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw) || typeof (raw as HookEvent).hook_event_name !== 'string') {
    return { error: diagnostic('event-malformed', `The event of case "${c.name}" is not a JSON object with hook_event_name`, c.location) };
  }
  const event = withProject(raw, projectRoot) as HookEvent;
  if (typeof event.cwd !== 'string') event.cwd = projectRoot;
  return { event };
}
