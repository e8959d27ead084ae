import { build, compiled, lines } from './test-support';

describe('settings', () => {
  test('defaults', () => {
    const policy = compiled(build({ 'p.yaml': lines('version: 1') }));
    expect(policy.settings).toEqual({
      onError: 'open',
      bypasses: [],
      log: { file: null, webhook: null, record: ['deny', 'ask', 'block', 'allow', 'warn', 'context', 'bypass', 'error'], redact: [] },
      deadlineMs: 5000,
      selfProtection: { except: [], mainSession: [] },
      memory: { dir: '.claude/hookpolicy/memory', retentionDays: 90, maxRecords: 20000, privacy: ['*.env', '*password*', '*secret*', '*api_key*'] },
    });
  });

  test('memory: each key from the top file that gives it; store false turns the store off; privacy [] turns the filter off', () => {
    const policy = compiled(build({
      'p.yaml': lines('version: 1', 'include: [inc.yaml]', 'settings:', '  memory: { retention_days: 7, privacy: [] }'),
      'inc.yaml': lines('version: 1', 'settings:', '  memory: { store: .mem, retention_days: 30, max_records: 500 }'),
    }));
    expect(policy.settings.memory).toEqual({ dir: '.mem', retentionDays: 7, maxRecords: 500, privacy: [] });
    const off = compiled(build({ 'p.yaml': lines('version: 1', 'settings:', '  memory: { store: false }') }));
    expect(off.settings.memory?.dir).toBeNull();
  });

  test('self_protection openings come from the top file only: an included file cannot open a path', () => {
    const policy = compiled(build({
      'p.yaml': lines('version: 1', 'include: [inc.yaml]', 'settings:', '  self_protection: { except: [a.json], main_session: [.claude/policies.yaml] }'),
      'inc.yaml': lines('version: 1', 'settings:', '  self_protection: { except: [".claude/settings.json"] }'),
    }));
    expect(policy.settings.selfProtection).toEqual({ except: ['a.json'], mainSession: ['.claude/policies.yaml'] });
    const packOnly = compiled(build({ 'p.yaml': lines('version: 1', 'include: [inc.yaml]'), 'inc.yaml': lines('version: 1', 'settings:', '  self_protection: { except: [x] }') }));
    expect(packOnly.settings.selfProtection).toEqual({ except: [], mainSession: [] });
  });

  test('policy_config: allow comes from the top file only: an included file cannot let $POLICY_CONFIG replace the policy', () => {
    const allowed = compiled(build({ 'p.yaml': lines('version: 1', 'include: [inc.yaml]', 'settings:', '  policy_config: allow'), 'inc.yaml': lines('version: 1') }));
    expect(allowed.settings.policyConfig).toBe('allow');
    const packOnly = compiled(build({ 'p.yaml': lines('version: 1', 'include: [inc.yaml]'), 'inc.yaml': lines('version: 1', 'settings:', '  policy_config: allow') }));
    expect(packOnly.settings.policyConfig).toBeUndefined();
    const ignore = compiled(build({ 'p.yaml': lines('version: 1', 'settings:', '  policy_config: ignore') }));
    expect(ignore.settings.policyConfig).toBeUndefined();
  });

  test('oversized and max_input_bytes reach the compiled settings (the top file wins)', () => {
    const policy = compiled(build({
      'p.yaml': lines('version: 1', 'include: [inc.yaml]', 'settings:', '  oversized: deny'),
      'inc.yaml': lines('version: 1', 'settings:', '  oversized: allow', '  max_input_bytes: 65536'),
    }));
    expect(policy.settings).toMatchObject({ oversized: 'deny', maxInputBytes: 65536 });
  });

  test('webhook defaults', () => {
    const policy = compiled(build({ 'p.yaml': lines('version: 1', 'settings:', '  log: { webhook: { url: "https://x" } }') }));
    expect(policy.settings.log.webhook).toEqual({ url: 'https://x', timeoutMs: 1000, headers: {} });
  });

  test('the last root wins, then earlier roots, then included files fill gaps', () => {
    const policy = compiled(build({
      'first.yaml': lines('version: 1', 'include: [inc.yaml]', 'settings:', '  on_error: closed', '  deadline_ms: 100', '  log: { file: first.jsonl }'),
      'last.yaml': lines('version: 1', 'settings:', '  deadline_ms: 200'),
      'inc.yaml': lines('version: 1', 'settings:', '  on_error: open', '  deadline_ms: 300', '  log:', '    file: inc.jsonl', '    record: [deny]', '    webhook: { url: "u", timeout_ms: 5, headers: { A: b } }'),
    }, ['first.yaml', 'last.yaml']));
    expect(policy.settings).toMatchObject({
      onError: 'closed',
      deadlineMs: 200,
      log: { file: 'first.jsonl', record: ['deny'], webhook: { url: 'u', timeoutMs: 5, headers: { A: 'b' } } },
    });
  });

  test('log.file: false in the top file turns an included file log off', () => {
    const policy = compiled(build({
      'p.yaml': lines('version: 1', 'include: [inc.yaml]', 'settings: { log: { file: false } }'),
      'inc.yaml': lines('version: 1', 'settings: { log: { file: inc.jsonl } }'),
    }));
    expect(policy.settings.log.file).toBeNull();
  });

  test('log.redact patterns add up across files, included ones first', () => {
    const policy = compiled(build({
      'p.yaml': lines('version: 1', 'include: [inc.yaml]', 'settings: { log: { redact: ["tk-\\\\w+"] } }'),
      'inc.yaml': lines('version: 1', 'settings: { log: { redact: ["(?:pin=)(\\\\d+)"] } }'),
    }));
    expect(policy.settings.log.redact).toEqual(['tk-\\w+', '(?:pin=)(\\d+)']);
  });

  test('an invalid log.redact pattern is an invalid-regex at its position', () => {
    const result = build({ 'p.yaml': lines('version: 1', 'settings:', '  log:', '    redact: ["ok", "(unclosed"]') });
    // The log setting is left out; the policy still builds (issue 31).
    expect(result.policy?.broken?.map((b) => b.name)).toEqual(['settings.log']);
    expect(result.diagnostics.map((d) => `${d.code} ${d.line}:${d.column}`)).toEqual(['invalid-regex 4:20']);
  });
});

describe('bypass scoping', () => {
  const files = {
    'p.yaml': lines(
      'version: 1',
      'include: [/packs/guard.yaml, plain.yaml]',
      'settings:',
      '  bypass: { env: TEAM_OFF }',
      'rules: [{ id: top, on: Stop, block: x }]',
    ),
    '/packs/guard.yaml': lines(
      'version: 1',
      'include: [/packs/inner.yaml]',
      'settings: { bypass: { env: GUARD_OFF, values: ["yes"] } }',
      'rules: [{ id: guard, on: Stop, block: x }]',
    ),
    '/packs/inner.yaml': lines('version: 1', 'rules: [{ id: inner, on: Stop, block: x }]'),
    'plain.yaml': lines('version: 1', 'rules: [{ id: plain, on: Stop, block: x }]'),
    'other-root.yaml': lines('version: 1', 'rules: [{ id: other, on: Stop, block: x }]'),
  };

  test('a file\'s bypass applies to its rules and to those of every file it includes, nearest first', () => {
    const policy = compiled(build(files, ['p.yaml', 'other-root.yaml']));
    expect(policy.settings.bypasses).toEqual([
      { env: 'GUARD_OFF', values: ['yes'], source: { file: '/packs/guard.yaml', line: 3, column: 21 } },
      { env: 'TEAM_OFF', values: ['off', '0', 'false'], source: { file: 'p.yaml', line: 4, column: 11 } },
    ]);
    const bypassOf = Object.fromEntries(policy.rules.map((r) => [r.id, r.bypasses]));
    expect(bypassOf).toEqual({ inner: [0, 1], guard: [0, 1], plain: [1], top: [1], other: [] });
  });
});
