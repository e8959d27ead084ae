import { build, buildRules, compiled, lines, where } from './test-support';

describe('agents', () => {
  test('defaults without an agents section', () => {
    const policy = compiled(buildRules('  - { id: r, on: Stop, block: x }'));
    expect(policy.agents).toEqual({ identity: ['agent_type', 'teammate_name'], stripPrefixes: [], main: null, roles: {}, known: [] });
  });

  test('roles expand (also nested), main is valid, members are valid, strip_prefix becomes a list', () => {
    const result = build({
      'p.yaml': lines(
        'version: 1',
        'agents:',
        '  identity: [teammate_name]',
        '  strip_prefix: "ai-team:"',
        '  main: hannibal',
        '  roles:',
        '    tester: [murdock]',
        '    workers: [tester, ba, lynch]',
        '    everyone: [workers, hannibal]',
        'rules:',
        '  - { id: a, on: Stop, agents: everyone, block: x }',
        '  - { id: b, on: Stop, agents: [hannibal, ba, tester, ba], block: x }',
        '  - { id: c, on: Stop, block: x }',
      ),
    });
    const policy = compiled(result);
    expect(result.diagnostics).toEqual([]);
    expect(policy.agents).toEqual({
      identity: ['teammate_name'],
      stripPrefixes: ['ai-team:'],
      main: 'hannibal',
      roles: { tester: ['murdock'], workers: ['murdock', 'ba', 'lynch'], everyone: ['murdock', 'ba', 'lynch', 'hannibal'] },
      known: ['hannibal', 'murdock', 'ba', 'lynch'],
    });
    expect(policy.rules.map((r) => r.agents)).toEqual([
      ['murdock', 'ba', 'lynch', 'hannibal'],
      ['hannibal', 'ba', 'murdock'],
      null,
    ]);
  });

  test('an unknown agent name is a warning at its position; the name is kept', () => {
    const result = buildRules('  - id: r', '    on: Stop', '    agents: [ghost, Explore]', '    block: x');
    const policy = compiled(result);
    expect(result.diagnostics.map((d) => `${d.severity} ${where(d)}`)).toEqual([
      'warning unknown-agent p.yaml:5:14',
      'warning unknown-agent p.yaml:5:21',
    ]);
    expect(policy.rules[0].agents).toEqual(['ghost', 'Explore']);
    expect(policy.agents.known).toEqual(['ghost', 'Explore']);
  });

  test('a role cycle is an error at the role key', () => {
    const result = build({
      'p.yaml': lines('version: 1', 'agents:', '  roles:', '    a: [b, x]', '    b: [c]', '    c: [a]', '    d: [d]', 'rules: []'),
    });
    expect(result.policy).toBeNull();
    expect(result.diagnostics.map(where)).toEqual(['role-cycle p.yaml:4:5', 'role-cycle p.yaml:7:5']);
    expect(result.diagnostics[0].message).toBe('Roles include each other: a -> b -> c -> a');
  });

  test('agents merge: roles are united, the including file wins identity, strip_prefix and main', () => {
    const policy = compiled(build({
      'p.yaml': lines('version: 1', 'include: [pack.yaml]', 'agents:', '  main: me', '  roles: { workers: [ba] }'),
      'pack.yaml': lines('version: 1', 'agents:', '  main: them', '  identity: [agent_type]', '  strip_prefix: [x]', '  roles: { workers: [amy], testers: [murdock] }'),
    }));
    expect(policy.agents).toMatchObject({
      main: 'me',
      identity: ['agent_type'],
      stripPrefixes: ['x'],
      roles: { workers: ['amy', 'ba'], testers: ['murdock'] },
    });
  });
});
