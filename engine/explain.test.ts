import { describeRequirement, explainJson, explainText } from './explain';
import type { Decision, HookResponse } from './types';

const loc = (line: number) => ({ file: '/p/.claude/policies.yaml', line, column: 5 });
const decision: Decision = {
  event: 'TeammateIdle',
  agent: 'murdock',
  tool: null,
  outcome: 'block',
  reason: 'Write L1 first',
  decidedBy: [{ id: 'l1', outcome: 'block', message: 'Write L1 first', source: loc(9) }],
  hits: [{ id: 'l1', outcome: 'block', message: 'Write L1 first', source: loc(9) }],
  contexts: [],
  warnings: [],
  trace: [
    { id: 'only-ba', source: loc(2), status: 'not-matched', failed: { condition: 'agents', detail: 'agent "murdock" is not in [ba]' } },
    {
      id: 'l1', source: loc(9), status: 'fired',
      requirements: [
        { file: '.agent/t/**/murdock/L1.yaml', minBytes: 50, found: { path: '.agent/t/x/murdock/L1.yaml', size: 12, mtimeMs: 0 }, ok: false },
        { file: '.agent/t/**/murdock/L2.md', minBytes: 1, found: null, ok: false },
      ],
    },
    { id: 'off', source: { file: '/elsewhere/pack.yaml', line: 3, column: 5 }, status: 'bypassed' },
  ],
  bypass: { env: 'POLICY_OFF', value: 'off', rules: ['off'] },
  errors: [],
};
const response: HookResponse = { stdout: '{"decision":"block","reason":"Write L1 first"}\n', stderr: '', exitCode: 0 };

describe('explainText', () => {
  it('shows each rule, the first failed condition, requirement sizes, the decision and the exact output', () => {
    expect(explainText({ decision, response, ruleCount: 7, projectRoot: '/p' })).toBe([
      'Event: TeammateIdle, tool (none), agent murdock',
      'Rules considered: 3; not considered for this event and tool: 4',
      '  only-ba (.claude/policies.yaml:2:5): no match',
      '    agents: agent "murdock" is not in [ba]',
      '  l1 (.claude/policies.yaml:9:5): fired: block',
      '    require .agent/t/**/murdock/L1.yaml (>= 50 bytes): found .agent/t/x/murdock/L1.yaml, 12 bytes: unmet',
      '    require .agent/t/**/murdock/L2.md (>= 1 bytes): missing: unmet',
      '    message: Write L1 first',
      '  off (/elsewhere/pack.yaml:3:5): bypassed',
      '',
      'Decision: block',
      '  decided by l1 (.claude/policies.yaml:9:5): Write L1 first',
      '  bypass: POLICY_OFF=off turned off off',
      '',
      'Output (what `policy hook` writes):',
      '  exit code: 0',
      '  stdout: {"decision":"block","reason":"Write L1 first"}',
      '  stderr: (empty)',
      '',
    ].join('\n'));
  });
});

describe('explainText with records', () => {
  it('shows a rule that only records, what it records, what the privacy filter dropped', () => {
    const recorded: Decision = {
      ...decision,
      event: 'PostToolUse', tool: 'Bash', outcome: 'none', reason: null, decidedBy: [], hits: [], bypass: null,
      trace: [{ id: 'observe', source: loc(4), status: 'fired', dropped: 1 }],
      records: [{ rule: 'observe', kind: 'command', importance: 0.5, text: 'npm test', fields: {} }],
      droppedRecords: 1,
    };
    const text = explainText({ decision: recorded, response: { stdout: '', stderr: '', exitCode: 0 }, ruleCount: 1, projectRoot: '/p' });
    expect(text).toContain([
      '  observe (.claude/policies.yaml:4:5): fired: record',
      '    record command (importance 0.5): "npm test"',
      '    dropped by the privacy filter: 1 record(s)',
    ].join('\n'));
    expect(text).toContain('  records: 1 to store, 1 dropped by the privacy filter\n');
    expect(explainJson({ decision: recorded, response: { stdout: '', stderr: '', exitCode: 0 }, ruleCount: 1 }).decision).toMatchObject({ records: recorded.records, droppedRecords: 1 });
  });
});

describe('explainJson', () => {
  it('has the event, agent, tool, decision, rules and output', () => {
    const json = explainJson({ decision, response, ruleCount: 7 });
    expect(Object.keys(json)).toEqual(['event', 'agent', 'tool', 'decision', 'rules', 'notConsidered', 'output']);
    expect(json.event).toBe('TeammateIdle');
    expect(json.decision.outcome).toBe('block');
    expect(json.decision).not.toHaveProperty('trace');
    expect(json.rules.map((r) => r.status)).toEqual(['not-matched', 'fired', 'bypassed']);
    expect(json.notConsidered).toBe(4);
    expect(json.output).toEqual(response);
  });
});

describe('describeRequirement', () => {
  it('says met when big enough', () => {
    expect(describeRequirement({ file: 'a', minBytes: 1, found: { path: 'a', size: 3, mtimeMs: 0 }, ok: true })).toBe('require a (>= 1 bytes): found a, 3 bytes: met');
  });
});
