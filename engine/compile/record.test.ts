import { buildRules, compiled, where } from './test-support';

describe('compiling record, final and store-reading lets', () => {
  test('a record-only rule compiles with outcome null; records keep their templates', () => {
    const policy = compiled(buildRules(
      '  - id: observe',
      '    on: PostToolUse',
      '    record: { kind: file-change, text: "{{tool}} {{paths}}", importance: 0.7, fields: { tool: "{{tool}}" } }',
    ));
    expect(policy.rules[0]).toMatchObject({ outcome: null, message: '', records: [{ kind: 'file-change', text: '{{tool}} {{paths}}', importance: 0.7, fields: { tool: '{{tool}}' } }] });
  });

  test('a rule without record, final or lets in when compiles as before (no new keys)', () => {
    const rule = compiled(buildRules('  - id: r', '    on: Stop', '    when: "stop_hook_active"', '    block: x')).rules[0];
    expect(Object.keys(rule)).not.toEqual(expect.arrayContaining(['records']));
    expect(rule).not.toHaveProperty('records');
    expect(rule).not.toHaveProperty('final');
    expect(rule).not.toHaveProperty('letsFirst');
  });

  test('importance: default 0.5, a template kept, a literal number in text read', () => {
    const policy = compiled(buildRules(
      '  - id: r',
      '    on: Stop',
      '    record: [{ kind: a, text: x }, { kind: b, text: y, importance: "{{w}}" }, { kind: c, text: z, importance: "0.9" }]',
    ));
    expect(policy.rules[0].records?.map((r) => r.importance)).toEqual([0.5, '{{w}}', 0.9]);
  });

  test.each<[string, string, string]>([
    ['a number above 1', '    record: { kind: a, text: x, importance: 1.5 }', 'record-importance p.yaml:5:45'],
    ['a negative number', '    record: { kind: a, text: x, importance: -0.1 }', 'record-importance p.yaml:5:45'],
    ['a text that is no number', '    record: { kind: a, text: x, importance: high }', 'record-importance p.yaml:5:45'],
    ['an unclosed placeholder in a field', '    record: { kind: a, text: x, fields: { f: "{{tool" } }', 'invalid-template p.yaml:5:47'],
    ['an unclosed placeholder in a listed record', '    record: [{ kind: a, text: x }, { kind: "{{b", text: y }]', 'invalid-template p.yaml:5:45'],
  ])('%s is reported where it is written, and only that rule is left out', (_name, line, expected) => {
    const result = buildRules('  - id: bad', '    on: Stop', line, '  - id: good', '    on: Stop', '    record: { kind: a, text: x }');
    expect(result.diagnostics.map(where)).toEqual([expected]);
    expect(compiled(result).rules.map((r) => r.id)).toEqual(['good']);
    expect(result.policy?.broken?.map((b) => b.name)).toEqual(['bad']);
  });

  test('final: true is kept; letsFirst when `when` names a let or a sub-value ($failsafe names neither)', () => {
    const policy = compiled(buildRules(
      '  - id: a',
      '    on: Stop',
      '    let: { fails: { count: test-fail } }',
      '    when: "$fails >= 3"',
      '    block: x',
      '    final: true',
      '  - id: b',
      '    on: Stop',
      '    let: { seen: { last: gc, optional: true } }',
      '    when: "$seen_age_minutes > 30"',
      '    context: x',
      '  - id: c',
      '    on: Stop',
      '    let: { fails: { count: test-fail } }',
      '    when: "$failsafe = 1 or stop_hook_active"',
      '    context: x',
    ));
    expect(policy.rules.map((r) => [r.id, r.final, r.letsFirst])).toEqual([['a', true, true], ['b', undefined, true], ['c', undefined, undefined]]);
  });

  test('store-reading lets compile with their options and defaults', () => {
    const policy = compiled(buildRules(
      '  - id: r',
      '    on: SessionStart',
      '    let:',
      '      n: { count: test-fail, scope: agent, since_minutes: 30 }',
      '      seen: { last: gc, first: true, optional: true }',
      '      recent: { summaries: 3 }',
      '      related: { search: "{{prompt}}", min_relevance: 0.5 }',
      '      s: { summary: session }',
      '      m: { metrics: session }',
      '    context: x',
    ));
    expect(policy.rules[0].lets.map((l) => [l.name, l.kind, l.target, l.optional, l.memory])).toEqual([
      ['n', 'count', 'test-fail', false, { scope: 'agent', sinceMinutes: 30 }],
      ['seen', 'last', 'gc', true, { scope: 'session', first: true }],
      ['recent', 'summaries', '3', false, { scope: 'session', limit: 3, budgetTokens: 500 }],
      ['related', 'search', '{{prompt}}', false, { scope: 'session', limit: 3, minRelevance: 0.5 }],
      ['s', 'summary', 'session', false, { scope: 'session' }],
      ['m', 'metrics', 'session', false, { scope: 'session' }],
    ]);
  });

  test.each(['agent', 'paths', 'env', 'tool', 'path', 'command', 'count', 'not', 'now'])('a let named %s is let-name-reserved, at its key', (name) => {
    const result = buildRules('  - id: r', '    on: Stop', '    let:', `      ${name}: { expr: "1" }`, '    context: x');
    expect(result.diagnostics.map(where)).toEqual(['let-name-reserved p.yaml:6:7']);
  });

  test('a record on a rule with a file let and require: the rule still has its outcome', () => {
    const rule = compiled(buildRules('  - id: r', '    on: Stop', '    block: x', '    record: { kind: a, text: y }')).rules[0];
    expect(rule.outcome).toBe('block');
    expect(rule.records).toHaveLength(1);
  });
});
