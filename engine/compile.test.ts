import { compilePolicy } from './compile';
import { buildRuleIndex } from './rule-index';
import { build, buildRules, compiled, lines, where } from './compile/test-support';
import { loadPolicyFiles, memoryReader } from './load';

const rx = (source: string, flags = '') => ({ source, flags });

describe('rules', () => {
  test('a minimal rule compiles with defaults and its source position', () => {
    const policy = compiled(buildRules('  - id: r', '    on: Stop', '    block: "keep going, {{agent}}"'));
    expect(policy.rules).toEqual([{
      id: 'r',
      source: { file: 'p.yaml', line: 3, column: 5 },
      events: ['Stop'],
      tools: null,
      prompts: null,
      agents: null,
      match: [],
      paths: null,
      command: null,
      when: null,
      onlyIfExists: null,
      lets: [],
      requires: [],
      outcome: 'block',
      message: 'keep going, {{agent}}',
      bypasses: [],
      log: true,
    }]);
    expect(policy.format).toBe(1);
    expect(policy.index).toEqual(buildRuleIndex(policy.rules));
  });

  test('description, log: false, when and only_if_exists are kept', () => {
    const policy = compiled(buildRules(
      '  - id: r',
      '    description: why',
      '    on: [TeammateIdle, TaskCompleted, TeammateIdle]',
      '    when: "team_name and teammate_name"',
      '    only_if_exists: ".agent/teams/{{team_name}}"',
      '    log: false',
      '    context: c',
    ));
    expect(policy.rules[0]).toMatchObject({
      description: 'why',
      events: ['TeammateIdle', 'TaskCompleted'],
      when: 'team_name and teammate_name',
      onlyIfExists: '.agent/teams/{{team_name}}',
      log: false,
      outcome: 'context',
      message: 'c',
    });
  });

  test.each([
    ['Write|Edit|MultiEdit', { names: ['Write', 'Edit', 'MultiEdit'], patterns: [] }],
    ['"Write, Edit"', { names: ['Write', 'Edit'], patterns: [] }],
    ['[Write, "mcp__playwright__*"]', { names: ['Write'], patterns: [rx('^mcp__playwright__.*$')] }],
    ['"mcp__*__delete_*|Bash"', { names: ['Bash'], patterns: [rx('^mcp__.*__delete_.*$')] }],
    ['"a.b*"', { names: [], patterns: [rx('^a\\.b.*$')] }],
  ])('tools: %s', (tools, expected) => {
    const policy = compiled(buildRules('  - id: r', '    on: PreToolUse', `    tools: ${tools}`, '    deny: x'));
    expect(policy.rules[0].tools).toEqual(expected);
  });

  test('match fields become anchored wildcard patterns', () => {
    const policy = compiled(buildRules(
      '  - id: r',
      '    on: SessionStart',
      '    match: { source: startup, tool_input.url: ["https://*.example.com/*", "a(b)"], n: 5 }',
      '    context: x',
    ));
    expect(policy.rules[0].match).toEqual([
      { field: 'source', patterns: [rx('^startup$', 's')] },
      { field: 'tool_input.url', patterns: [rx('^https:\\/\\/.*\\.example\\.com\\/.*$', 's'), rx('^a\\(b\\)$', 's')] },
      { field: 'n', patterns: [rx('^5$', 's')] },
    ]);
    const [url] = policy.rules[0].match[1].patterns;
    expect(new RegExp(url.source, url.flags).test('https://docs.example.com/x')).toBe(true);
    expect(new RegExp(url.source, url.flags).test('http://docs.example.com/x')).toBe(false);
  });

  test('command regexes are kept as sources', () => {
    const policy = compiled(buildRules('  - id: r', '    on: PreToolUse', "    command: '\\brm\\s+-rf\\b'", '    deny: x'));
    expect(policy.rules[0].command).toEqual([{ ...rx('\\brm\\s+-rf\\b'), guard: false, literal: '-rf', allOf: ['rm'] }]);
  });

  test('a pattern that can backtrack catastrophically is marked for the watchdog', () => {
    const policy = compiled(buildRules('  - id: r', '    on: PreToolUse', "    command: '(a+)+$'", '    deny: x'));
    expect(policy.rules[0].command).toEqual([{ ...rx('(a+)+$'), guard: true }]);
  });

  test('let values and requirements get their defaults', () => {
    const policy = compiled(buildRules(
      '  - id: r',
      '    on: TeammateIdle',
      '    let:',
      "      gc: { newest: '.agent/teams/*/global-context.md', extract: '^version:\\s*(\\S+)' }",
      '      cfg: { file: package.json, field: scripts.test, max_bytes: 100, optional: true }',
      '      who: { expr: "teammate_name & \'!\'" }',
      '    require:',
      '      - { file: ".agent/{{team_name}}/L1.yaml", min_bytes: 50 }',
      '      - file: NOTES.md',
      '    block: x',
    ));
    expect(policy.rules[0].lets).toEqual([
      { name: 'gc', kind: 'newest', target: '.agent/teams/*/global-context.md', extract: { ...rx('^version:\\s*(\\S+)', 'm'), guard: false, literal: 'version:' }, field: null, maxBytes: 65536, optional: false },
      { name: 'cfg', kind: 'file', target: 'package.json', extract: null, field: 'scripts.test', maxBytes: 100, optional: true },
      { name: 'who', kind: 'expr', target: "teammate_name & '!'", extract: null, field: null, maxBytes: 65536, optional: false },
    ]);
    expect(policy.rules[0].requires).toEqual([
      { file: '.agent/{{team_name}}/L1.yaml', minBytes: 50 },
      { file: 'NOTES.md', minBytes: 1 },
    ]);
  });

  test('rules come in evaluation order: included files first', () => {
    const policy = compiled(build({
      'p.yaml': lines('version: 1', 'include: [/packs/guard.yaml]', 'rules:', '  - { id: mine, on: Stop, block: x }'),
      '/packs/guard.yaml': lines('version: 1', 'rules:', '  - { id: theirs, on: Stop, block: y }'),
    }));
    expect(policy.rules.map((r) => r.id)).toEqual(['theirs', 'mine']);
    expect(policy.sources.map((s) => s.file)).toEqual(['/packs/guard.yaml', 'p.yaml']);
    expect(policy.sources[0].hash).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('compile diagnostics', () => {
  test.each([
    ['unknown event with a suggestion', ['  - id: r', '    on: [Stop, PreTooluse]', '    block: x'],
      'unknown-event p.yaml:4:16', 'did you mean "PreToolUse"?'],
    ['unknown event as a string', ['  - id: r', '    on: teammateidle', '    block: x'],
      'unknown-event p.yaml:4:9', 'did you mean "TeammateIdle"?'],
    ['bad command regex', ['  - id: r', '    on: PreToolUse', '    command: ["ok", "a(b"]', '    deny: x'],
      'invalid-regex p.yaml:5:21', undefined],
    ['bad extract regex', ['  - id: r', '    on: Stop', '    let: { v: { file: a, extract: "[z-a]" } }', '    block: x'],
      'invalid-regex p.yaml:5:35', undefined],
    ['bad when, at the offending token', ['  - id: r', '    on: Stop', '    when: team_name foo', '    block: x'],
      'invalid-expression p.yaml:5:21', undefined],
    ['bad when in quotes, at the end', ['  - id: r', '    on: Stop', '    when: "a and ("', '    block: x'],
      'invalid-expression p.yaml:5:19', undefined],
    ['bad let expr', ['  - id: r', '    on: Stop', '    let:', '      v: { expr: "$x(" }', '    block: x'],
      'invalid-expression p.yaml:6:22', undefined],
    ['unclosed placeholder in a message', ['  - id: r', '    on: Stop', '    block: "see {{path and go"'],
      'invalid-template p.yaml:5:17', undefined],
    ['placeholder left open before the next one', ['  - id: r', '    on: PreToolUse', '    deny: "{{agent may not write {{path}}"'],
      'invalid-template p.yaml:5:12', undefined],
    ['empty placeholder in a requirement', ['  - id: r', '    on: Stop', '    require: [{ file: "a/{{ }}/b" }]', '    block: x'],
      'invalid-template p.yaml:5:26', 'write a name such as {{path}} or {{agent}}'],
    ['unclosed placeholder in only_if_exists', ['  - id: r', '    on: Stop', '    only_if_exists: a/{{b', '    block: x'],
      'invalid-template p.yaml:5:23', undefined],
    ['unclosed placeholder in a let target', ['  - id: r', '    on: Stop', '    let: { v: { newest: "{{x" } }', '    block: x'],
      'invalid-template p.yaml:5:26', undefined],
  ])('%s', (_name, ruleLines, at, hint) => {
    const result = buildRules(...ruleLines);
    expect(result.diagnostics.map(where)).toEqual([at]);
    if (hint) expect(result.diagnostics[0].hint).toBe(hint);
    // The rule is left out, with the diagnostic.
    expect(result.policy?.rules).toEqual([]);
    expect(result.policy?.broken?.map((b) => [b.name, b.diagnostics.map(where)])).toEqual([['r', [at]]]);
  });

  test('a brace around a placeholder is text, not an unclosed placeholder', () => {
    const result = buildRules('  - id: r', '    on: PreToolUse', '    deny: "{{{path}}} and {{ agent }}"');
    expect(result.diagnostics).toEqual([]);
  });

  test('the jsonata error message is passed on', () => {
    const result = buildRules('  - id: r', '    on: Stop', '    when: "a and ("', '    block: x');
    expect(result.diagnostics[0].message).toBe('Invalid JSONata expression: Expected ")" before end of expression');
  });

  test('duplicate rule ids across files point at the second', () => {
    const result = build({
      'p.yaml': lines('version: 1', 'include: [b.yaml]', 'rules:', '  - id: dup', '    on: Stop', '    block: x'),
      'b.yaml': lines('version: 1', 'rules:', '  - id: dup', '    on: Stop', '    block: y'),
    });
    expect(result.diagnostics.map(where)).toEqual(['duplicate-rule-id p.yaml:4:9']);
    expect(result.diagnostics[0].hint).toBe('first used at b.yaml:3:9');
    // The first keeps enforcing; the second is left out.
    expect(result.policy?.rules.map((r) => [r.id, r.source.file])).toEqual([['dup', 'b.yaml']]);
    expect(result.policy?.broken?.map((b) => [b.name, b.source])).toEqual([['dup', { file: 'p.yaml', line: 4, column: 5 }]]);
  });

  test('compile diagnostics are found even when another part of the file has a schema error', () => {
    const result = buildRules('  - id: a', '    on: Stop', '    tool: x', '    block: x', '  - id: b', '    on: Stpo', '    block: y');
    expect(result.diagnostics.map(where)).toEqual(['schema-unknown-key p.yaml:5:5', 'unknown-event p.yaml:8:9']);
  });

  test('compilePolicy alone leaves out a rule with errors, and fails on an error that breaks the policy', () => {
    const loaded = loadPolicyFiles(['p.yaml'], memoryReader({ 'p.yaml': lines('version: 1', 'rules:', '  - { id: r, on: Nope, block: x }', '  - { id: s, on: Stop, block: y }') }));
    const result = compilePolicy(loaded.files);
    expect(result.diagnostics.map((d) => d.code)).toEqual(['unknown-event']);
    expect(result.policy?.rules.map((r) => r.id)).toEqual(['s']);
    expect(result.policy?.broken?.map((b) => [b.name, b.events])).toEqual([['r', null]]);
    const cycle = loadPolicyFiles(['p.yaml'], memoryReader({ 'p.yaml': lines('version: 1', 'agents: { roles: { a: [b], b: [a] } }') }));
    expect(compilePolicy(cycle.files)).toMatchObject({ policy: null, diagnostics: [{ code: 'role-cycle' }] });
  });
});

describe('broken rules', () => {
  const brokenOf = (...ruleLines: string[]) => compiled(buildRules(...ruleLines)).broken ?? [];

  test('a policy without errors has no broken list', () => {
    expect(compiled(buildRules('  - { id: r, on: Stop, block: x }')).broken).toBeUndefined();
  });

  test('a broken rule is left out; the rules after it keep their order and index', () => {
    const policy = compiled(buildRules(
      '  - { id: a, on: PreToolUse, tools: Write, deny: x }',
      '  - { id: b, on: PreToolUse, tool: Write, deny: y }',
      '  - { id: c, on: PreToolUse, tools: Bash, deny: z }',
    ));
    expect(policy.rules.map((r) => r.id)).toEqual(['a', 'c']);
    expect(policy.index).toEqual(buildRuleIndex(policy.rules));
    expect(policy.broken).toEqual([{
      kind: 'rule',
      name: 'b',
      source: { file: 'p.yaml', line: 4, column: 5 },
      events: ['PreToolUse'],
      tools: null,
      diagnostics: [expect.objectContaining({ code: 'schema-unknown-key', line: 4, column: 30 })],
    }]);
  });

  test.each([
    ['tools as written', ['  - { id: r, on: [PreToolUse, PostToolUse], tools: "Write|mcp__*", paths: { deny: ["[a"] }, deny: x }'],
      ['PreToolUse', 'PostToolUse'], { names: ['Write'], patterns: [rx('^mcp__.*$')] }],
    ['an unknown event: any event', ['  - { id: r, on: [Stop, PreTool], block: x }'], null, null],
    ['no `on`: any event', ['  - { id: r, tools: Bash, deny: x }'], null, { names: ['Bash'], patterns: [] }],
    ['`on` of the wrong type: any event', ['  - { id: r, on: { a: 1 }, block: x }'], null, null],
    ['an error inside tools: any tool', ['  - { id: r, on: PreToolUse, tools: [Write, 5], deny: x }'], ['PreToolUse'], null],
    ['`on` written twice: any event', ['  - id: r', '    on: Stop', '    on: SubagentStop', '    block: x'], null, null],
  ])('what it could have judged: %s', (_name, ruleLines, events, tools) => {
    expect(brokenOf(...ruleLines).map((b) => [b.events, b.tools])).toEqual([[events, tools]]);
  });

  test('a rule that is not a mapping, or has no id, is named by its place', () => {
    expect(brokenOf('  - just text', '  - { on: Stop, block: x }').map((b) => [b.name, b.events])).toEqual([['rules[0]', null], ['rules[1]', ['Stop']]]);
  });

  test('every error of a rule is listed once, in order', () => {
    const [b] = brokenOf('  - { id: r, on: Stop, bloc: x, when: "a and (", log: 1 }');
    expect(b.diagnostics.map((d) => d.code)).toEqual(['schema-unknown-key', 'schema-type', 'invalid-expression']);
  });

  test('a file left out as a whole could have judged any event', () => {
    const policy = compiled(build({
      'p.yaml': lines('version: 1', 'include: [b.yaml]', 'rules: [{ id: r, on: Stop, block: x }]'),
      'b.yaml': lines('version: 1', 'rulez: []', 'rules: [{ id: s, on: Stop, tools: Bash, block: y }, { id: t, on: Stop, blok: z }]'),
    }));
    expect(policy.rules.map((r) => r.id)).toEqual(['r']);
    expect(policy.broken).toEqual([{
      kind: 'file',
      name: 'b.yaml',
      source: { file: 'b.yaml', line: 2, column: 1 },
      events: null,
      tools: null,
      diagnostics: [expect.objectContaining({ code: 'schema-unknown-key', line: 2 }), expect.objectContaining({ code: 'schema-unknown-key', line: 3 })],
    }]);
  });

  test('the errors found before compiling leave out what they are about', () => {
    const loaded = loadPolicyFiles(['p.yaml'], memoryReader({ 'p.yaml': lines('version: 1', 'rules:', '  - { id: r, on: Stop, block: x }', '  - { id: s, on: Stop, block: y }') }));
    const d = { code: 'schema-invalid', severity: 'error' as const, message: 'm', file: 'p.yaml', line: 4, column: 5 };
    const result = compilePolicy(loaded.files, [{ diagnostic: d, file: 'p.yaml', pointer: '/rules/1/block' }]);
    expect(result.diagnostics).toEqual([]);
    expect(result.policy?.rules.map((r) => r.id)).toEqual(['r']);
    expect(result.policy?.broken?.map((b) => [b.name, b.diagnostics])).toEqual([['s', [d]]]);
    const warning = { ...d, severity: 'warning' as const };
    expect(compilePolicy(loaded.files, [{ diagnostic: warning, file: 'p.yaml', pointer: '/rules/1' }]).policy?.rules).toHaveLength(2);
    expect(compilePolicy(loaded.files, [{ diagnostic: d, file: null, pointer: '' }]).policy).toBeNull();
  });
});

describe('unparsable', () => {
  test.each([
    ['a rule without paths has none', '    deny: x', undefined],
    ['a deny rule asks by default', '    deny: x', 'ask'],
    ['a warn rule ignores by default', '    warn: x', 'ignore'],
    ['as written', '    unparsable: deny\n    deny: x', 'deny'],
  ])('%s', (name, outcomeLines, expected) => {
    const paths = expected === undefined ? [] : ['    paths: { deny: ["src/**"] }'];
    const { policy } = buildRules('  - id: r', '    on: PreToolUse', '    tools: Bash', ...paths, ...outcomeLines.split('\n'));
    expect(policy!.rules[0].unparsable).toBe(expected);
  });
});
