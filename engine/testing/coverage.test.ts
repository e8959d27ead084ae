import type { CompiledPolicy, CompiledRule, Decision, RuleHit } from '../types';
import { addPolicyRules, createCoverage, recordDecision, summarizeCoverage, undecidedRules, unexercisedRules } from './coverage';

const at = (line: number) => ({ file: '/p/policy.yaml', line, column: 5 });
const rule = (id: string, line: number) => ({ id, source: at(line) }) as CompiledRule;
const policy = { rules: [rule('a', 1), rule('b', 2), rule('c', 3), rule('d', 4)] } as CompiledPolicy;
const hit = (id: string, line: number): RuleHit => ({ id, outcome: 'deny', message: '', source: at(line) });

function decision(trace: Array<[string, number]>, hits: Array<[string, number]>, decided: Array<[string, number]> = []): Decision {
  return {
    event: 'PreToolUse', agent: null, tool: null, outcome: 'none', reason: null,
    decidedBy: decided.map(([id, l]) => hit(id, l)), hits: hits.map(([id, l]) => hit(id, l)),
    contexts: [], warnings: [], bypass: null, errors: [],
    trace: trace.map(([id, l]) => ({ id, source: at(l), status: 'not-matched' })),
  };
}

describe('coverage', () => {
  it('counts exercised (in the trace) and decided (fired) rules per case', () => {
    const tally = createCoverage();
    addPolicyRules(tally, policy);
    recordDecision(tally, decision([['a', 1], ['b', 2]], [['a', 1]], [['a', 1]]));
    recordDecision(tally, decision([['a', 1], ['b', 2], ['c', 3]], [['c', 3]]));
    const report = summarizeCoverage(tally);
    expect(report.rules.map((r) => [r.id, r.exercised, r.decided])).toEqual([['a', 2, 1], ['b', 2, 0], ['c', 1, 1], ['d', 0, 0]]);
    expect(report).toMatchObject({ total: 4, decided: 2, percent: 50 });
    expect(unexercisedRules(report).map((r) => r.id)).toEqual(['d']);
    expect(undecidedRules(report).map((r) => r.id)).toEqual(['b', 'd']);
  });

  it('registers a policy seen by several suites once and rounds down the percent', () => {
    const tally = createCoverage();
    addPolicyRules(tally, policy);
    addPolicyRules(tally, { rules: [rule('a', 1), rule('b', 2), rule('c', 3)] } as CompiledPolicy);
    recordDecision(tally, decision([], [['a', 1]]));
    expect(summarizeCoverage(tally)).toMatchObject({ total: 4, decided: 1, percent: 25 });
    const three = createCoverage();
    addPolicyRules(three, { rules: [rule('a', 1), rule('b', 2), rule('c', 3)] } as CompiledPolicy);
    recordDecision(three, decision([], [['a', 1], ['b', 2]]));
    expect(summarizeCoverage(three).percent).toBe(66.66);
  });

  it('keeps rules of different files apart even with the same id', () => {
    const tally = createCoverage();
    addPolicyRules(tally, policy);
    recordDecision(tally, { ...decision([], []), hits: [{ id: 'a', outcome: 'deny', message: '', source: { file: '/other.yaml', line: 1, column: 1 } }] });
    expect(summarizeCoverage(tally).decided).toBe(0);
  });

  it('is 100% with no rules', () => {
    expect(summarizeCoverage(createCoverage())).toEqual({ rules: [], total: 0, decided: 0, percent: 100 });
  });
});
