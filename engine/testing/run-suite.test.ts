import type { CompiledPolicy, Decision } from '../types';
import { createCoverage, summarizeCoverage } from './coverage';
import { parseSuiteText } from './parse-suite';
import { runSuite, type CaseInput, type SuiteHost } from './run-suite';
import type { FileSpec } from './types';

const FILE = '/proj/tests/s.test.yaml';
const ruleSource = { file: '/proj/p.yaml', line: 7, column: 5 };
const policy = { rules: [{ id: 'no-writes', source: ruleSource }] } as unknown as CompiledPolicy;

function fakeHost(): SuiteHost & { inputs: CaseInput[]; projects: Array<Record<string, FileSpec>> } {
  const inputs: CaseInput[] = [];
  const projects: Array<Record<string, FileSpec>> = [];
  return {
    inputs,
    projects,
    project: (files) => {
      projects.push(files);
      return `/tmp/p${projects.length}`;
    },
    readJson: (file) => (file.endsWith('ok.json')
      ? { value: { hook_event_name: 'PreToolUse', tool_input: { file_path: '{{project}}/a.ts' } } }
      : { error: { code: 'test-file-not-found', severity: 'error', message: 'nope', file } }),
    execute: async (input) => {
      inputs.push(input);
      const denied = input.event.agent_type === 'lynch';
      const hit = { id: 'no-writes', outcome: 'deny' as const, message: 'no', source: ruleSource };
      const decision: Decision = {
        event: input.event.hook_event_name, agent: null, tool: null, outcome: denied ? 'deny' : 'none', reason: denied ? 'no' : null,
        decidedBy: denied ? [hit] : [], hits: denied ? [hit] : [], contexts: [], warnings: [], bypass: null, errors: [],
        trace: [{ id: 'no-writes', source: ruleSource, status: denied ? 'fired' : 'not-matched' }],
      };
      return { decision, response: { stdout: '', stderr: '', exitCode: 0 } };
    },
    now: () => 0,
  };
}

const SUITE = `env: { A: "suite", B: "suite" }
files: { "shared.md": { size: 1 } }
cases:
  - name: lynch denied
    event: { event: PreToolUse, tool: Write, agent: lynch, path: a.ts }
    env: { B: "case" }
    expect: { outcome: deny, rules: [no-writes] }
  - name: wrong expectation
    event: { event: PreToolUse, tool: Write, agent: ba, path: a.ts }
    files: { "own.md": { content: "x" } }
    expect:
      outcome: deny
  - name: from a file
    event_file: ok.json
    expect: { outcome: none }
  - name: missing file
    event_file: missing.json
    expect: { outcome: none }
`;

describe('runSuite', () => {
  it('runs each case through the host and checks it', async () => {
    const suite = parseSuiteText(FILE, SUITE).suite!;
    const host = fakeHost();
    const tally = createCoverage();
    const result = await runSuite(suite, policy, host, tally);
    expect(result.cases.map((c) => [c.name, c.passed])).toEqual([
      ['lynch denied', true], ['wrong expectation', false], ['from a file', true], ['missing file', false],
    ]);
    expect(result.cases[0].decidedBy).toEqual([{ id: 'no-writes', source: ruleSource }]);
    expect(result.cases[1].failures).toEqual([
      expect.objectContaining({ key: 'outcome', expected: 'deny', actual: 'none', location: { file: FILE, line: 12, column: 7 } }),
    ]);
    expect(result.cases[3].error).toMatchObject({ code: 'test-file-not-found' });
    // Env: suite, then case, then the temp project.
    expect(host.inputs[0].env).toEqual({ A: 'suite', B: 'case', CLAUDE_PROJECT_DIR: '/tmp/p1' });
    expect(JSON.parse(host.inputs[0].stdin)).toEqual(host.inputs[0].event);
    // Case files are merged over suite files.
    expect(host.projects[1]).toEqual({ 'shared.md': { size: 1 }, 'own.md': { content: 'x' } });
    // {{project}} in a full event becomes the temp project; a missing cwd is filled.
    expect(host.inputs[2].event).toEqual({ hook_event_name: 'PreToolUse', tool_input: { file_path: '/tmp/p3/a.ts' }, cwd: '/tmp/p3' });
    expect(summarizeCoverage(tally)).toMatchObject({ total: 1, decided: 1 });
    expect(summarizeCoverage(tally).rules[0]).toMatchObject({ exercised: 3, decided: 1 });
  });
});
