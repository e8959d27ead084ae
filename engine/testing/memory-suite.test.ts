import { buildRules, compiled } from '../compile/test-support';
import { evaluate } from '../evaluate';
import { renderResponse } from '../render';
import { memoryContext } from '../../test/support/memory-facts';
import type { CompiledPolicy } from '../types';
import { createCoverage, summarizeCoverage } from './coverage';
import { parseSuiteText } from './parse-suite';
import { runSuite, type CaseInput, type SuiteHost } from './run-suite';

const NOW = Date.parse('2026-01-15T10:00:00Z');

/** A host that evaluates in memory, with the case's store as facts.memory. */
function host(policy: CompiledPolicy, seen: CaseInput[] = []): SuiteHost {
  return {
    project: () => '/proj',
    readJson: () => ({ value: {} }),
    execute: async (input) => {
      seen.push(input);
      const ctx = memoryContext({}, {}, () => NOW);
      const facts = input.memory ? Object.assign(ctx.facts, { memory: input.memory }) : ctx.facts;
      const decision = await evaluate(policy, input.event, { ...ctx, facts });
      return { decision, response: renderResponse(decision, { onError: 'open' }) };
    },
    now: () => NOW,
  };
}

const policy = compiled(buildRules(
  '  - id: observe',
  '    on: PostToolUse',
  '    tools: Bash',
  '    record: { kind: command, text: "{{command}}", importance: 0.5 }',
  '  - id: stop-after-failures',
  '    on: Stop',
  '    let: { fails: { count: test-fail } }',
  '    when: "$fails >= 3"',
  '    block: "{{fails}} failed runs"',
));

const SUITE = `memory:
  - { kind: test-fail, text: "run 1" }
  - { kind: test-fail, text: "run 2" }
cases:
  - name: two failures do not block
    event: { event: Stop }
    expect: { outcome: none }
  - name: a third failure in this session blocks
    event: { event: Stop }
    memory: [{ kind: test-fail, text: "run 3", at: "-5m" }]
    expect: { outcome: block, message: "3 failed runs" }
  - name: another session's failures do not count
    event: { event: Stop }
    memory: [{ kind: test-fail, text: "old", session: other }]
    expect: { outcome: none }
  - name: a command is recorded silently
    event: { event: PostToolUse, command: "npm test" }
    expect: { outcome: none, records: [{ kind: command, text: "npm", importance: 0.5 }], dropped: 0, stdout: null }
  - name: a secret is dropped
    event: { event: PostToolUse, command: "echo $SECRET" }
    expect: { records: [], dropped: 1 }
  - name: a wrong record expectation fails
    event: { event: PostToolUse, command: "ls" }
    expect: { records: [{ kind: command, text: { regex: "^npm" } }] }
`;

describe('suites with memory', () => {
  it("gives each case the suite's records then its own, and checks records and dropped", async () => {
    const parsed = parseSuiteText('/proj/t.test.yaml', SUITE);
    expect(parsed.diagnostics).toEqual([]);
    const tally = createCoverage();
    const seen: CaseInput[] = [];
    const result = await runSuite(parsed.suite!, policy, host(policy, seen), tally);
    expect(result.cases.map((c) => [c.name, c.passed])).toEqual([
      ['two failures do not block', true],
      ['a third failure in this session blocks', true],
      ['another session\'s failures do not count', true],
      ['a command is recorded silently', true],
      ['a secret is dropped', true],
      ['a wrong record expectation fails', false],
    ]);
    expect(result.cases[5].failures).toEqual([expect.objectContaining({ key: 'records', message: 'records differ', expected: 'command matches /^npm/', actual: 'command "ls" importance 0.5 rule observe' })]);
    expect(seen[1].memory?.count('test-fail', 'session', { session: seen[1].event.session_id as string, agent: null })).toBe(3);
    // A rule that only records counts as covered once it fires.
    expect(summarizeCoverage(tally)).toMatchObject({ total: 2, decided: 2, percent: 100 });
  });

  it('reports a bad `at` and a bad record regex at their positions', () => {
    const parsed = parseSuiteText('/proj/t.test.yaml', `memory: [{ kind: k, text: t, at: yesterday }]
cases:
  - name: x
    event: { event: Stop }
    expect: { records: [{ kind: k, text: { regex: "(" } }] }
`);
    expect(parsed.diagnostics.map((d) => `${d.code} ${d.line}:${d.column}`)).toEqual(['schema-invalid 1:34', 'invalid-regex 5:51']);
  });

  it('gives no store when the policy turns it off', async () => {
    const off = compiled(buildRules('  - id: r', '    on: Stop', '    let: { n: { count: k, optional: true } }', '    block: "[{{n}}]"'));
    const seen: CaseInput[] = [];
    const stopped = { ...off, settings: { ...off.settings, memory: { ...off.settings.memory!, dir: null } } };
    await runSuite(parseSuiteText('/proj/t.test.yaml', 'cases:\n  - { name: x, event: { event: Stop }, expect: {} }\n').suite!, stopped, host(stopped, seen), createCoverage());
    expect(seen[0].memory).toBeUndefined();
  });
});
