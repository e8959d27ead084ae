import type { Decision, HookResponse, RuleHit } from '../types';
import { checkExpectation, effectiveRules, matchText } from './expect';
import type { CaseActual, Expectation } from './types';

const src = { file: '/p/policy.yaml', line: 3, column: 5 };
const hit = (id: string, outcome: RuleHit['outcome'], message = `msg ${id}`): RuleHit => ({ id, outcome, message, source: src });

function decision(over: Partial<Decision> = {}): Decision {
  return {
    event: 'PreToolUse', agent: 'lynch', tool: 'Write', outcome: 'deny', reason: 'lynch is the reviewer',
    decidedBy: [hit('no-writes', 'deny')], hits: [hit('no-writes', 'deny'), hit('note', 'context')],
    contexts: ['GC-v3 is current'], warnings: ['careful'], trace: [], bypass: null, errors: [], ...over,
  };
}

const stdout = '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"lynch is the reviewer"}}\n';
const response: HookResponse = { stdout, stderr: 'hookpolicy: note\n', exitCode: 0 };
const actual: CaseActual = { decision: decision(), response };

describe('checkExpectation', () => {
  it.each<[string, Expectation]>([
    ['outcome', { outcome: 'deny' }],
    ['rules (exact set, any order)', { rules: ['note', 'no-writes'] }],
    ['message contains', { message: { contains: 'reviewer' } }],
    ['message regex', { message: { regex: '^lynch\\b' } }],
    ['message equals', { message: { equals: 'lynch is the reviewer' } }],
    ['context', { context: { contains: 'GC-v3' } }],
    ['warning', { warning: { contains: 'careful' } }],
    ['stdout (key order does not matter)', { stdout: { hookSpecificOutput: { permissionDecisionReason: 'lynch is the reviewer', permissionDecision: 'deny', hookEventName: 'PreToolUse' } } }],
    ['exit_code', { exit_code: 0 }],
    ['stderr', { stderr: { contains: 'note' } }],
  ])('passes a matching %s', (_name, expect_) => {
    expect(checkExpectation(expect_, actual)).toEqual([]);
  });

  it.each<[string, Expectation, { key: string; expected: string; actual: string }]>([
    ['outcome', { outcome: 'allow' }, { key: 'outcome', expected: 'allow', actual: 'deny' }],
    ['rules (missing one)', { rules: ['no-writes'] }, { key: 'rules', expected: '[no-writes]', actual: '[no-writes, note]' }],
    ['message contains', { message: { contains: 'tester' } }, { key: 'message', expected: 'contains "tester"', actual: '"lynch is the reviewer"' }],
    ['message regex', { message: { regex: '^reviewer' } }, { key: 'message', expected: 'matches /^reviewer/', actual: '"lynch is the reviewer"' }],
    ['message equals', { message: { equals: 'lynch' } }, { key: 'message', expected: 'equals "lynch"', actual: '"lynch is the reviewer"' }],
    ['context', { context: { contains: 'GC-v4' } }, { key: 'context', expected: 'contains "GC-v4"', actual: '"GC-v3 is current"' }],
    ['warning', { warning: { contains: 'danger' } }, { key: 'warning', expected: 'contains "danger"', actual: '"careful"' }],
    ['exit_code', { exit_code: 2 }, { key: 'exit_code', expected: '2', actual: '0' }],
    ['stderr', { stderr: { contains: 'boom' } }, { key: 'stderr', expected: 'contains "boom"', actual: '"hookpolicy: note\\n"' }],
  ])('fails a differing %s', (_name, expect_, failure) => {
    expect(checkExpectation(expect_, actual)).toEqual([expect.objectContaining(failure)]);
  });

  it('fails stdout with a line diff of the JSON', () => {
    const [failure] = checkExpectation({ stdout: { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'ask', permissionDecisionReason: 'lynch is the reviewer' } } }, actual);
    expect(failure.key).toBe('stdout');
    expect(failure.diff).toEqual([
      '  {',
      '    "hookSpecificOutput": {',
      '      "hookEventName": "PreToolUse",',
      '-     "permissionDecision": "ask",',
      '+     "permissionDecision": "deny",',
      '      "permissionDecisionReason": "lynch is the reviewer"',
      '    }',
      '  }',
    ]);
  });

  it('treats empty stdout as null', () => {
    const quiet: CaseActual = { decision: decision({ outcome: 'none' }), response: { stdout: '', stderr: '', exitCode: 0 } };
    expect(checkExpectation({ stdout: null }, quiet)).toEqual([]);
    expect(checkExpectation({ stdout: null }, actual)[0]).toMatchObject({ key: 'stdout', expected: 'null' });
  });

  it('stderr: null asks for an empty stderr', () => {
    const quiet: CaseActual = { decision: decision({ outcome: 'none' }), response: { stdout: '', stderr: '', exitCode: 0 } };
    expect(checkExpectation({ stderr: null }, quiet)).toEqual([]);
    expect(checkExpectation({ stderr: null }, actual)).toEqual([{ key: 'stderr', message: 'stderr is not empty', expected: '(empty)', actual: JSON.stringify('hookpolicy: note\n') }]);
  });

  it('reports a missing message as none', () => {
    const quiet: CaseActual = { decision: decision({ reason: null, contexts: [], warnings: [] }), response };
    expect(checkExpectation({ message: { contains: 'x' }, context: { contains: 'y' } }, quiet)).toEqual([
      expect.objectContaining({ key: 'message', message: 'no message', actual: '(none)' }),
      expect.objectContaining({ key: 'context', message: 'no context', actual: '(none)' }),
    ]);
  });

  it('reports every failed key, and a missing decision', () => {
    const failures = checkExpectation({ outcome: 'none', rules: [] , exit_code: 0 }, { decision: null, response });
    expect(failures.map((f) => [f.key, f.actual])).toEqual([['outcome', '(no decision)']]);
  });
});

describe('effectiveRules', () => {
  it('lists deciding rules and warn/context rules in rule order, not losing ask rules', () => {
    const d = decision({ decidedBy: [hit('b', 'deny')], hits: [hit('w', 'warn'), hit('a', 'ask'), hit('b', 'deny'), hit('c', 'context')] });
    expect(effectiveRules(d)).toEqual(['w', 'b', 'c']);
  });
});

describe('matchText', () => {
  it('never matches nothing', () => {
    expect(matchText({ contains: '' }, null)).toBe(false);
    expect(matchText({ contains: '' }, '')).toBe(true);
  });
});
