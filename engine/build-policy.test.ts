import * as fs from 'fs';
import * as path from 'path';
import { buildPolicy } from './build-policy';
import type { PolicyReader } from './load';
import { memoryReader } from './load';

const FIXTURES = path.join(__dirname, '..', 'fixtures', 'policies');

/** Reads fixtures from disk, with paths relative to fixtures/policies; packs live in packs/. */
const fixtureReader: PolicyReader = {
  read: (file) => {
    try {
      return fs.readFileSync(path.join(FIXTURES, file), 'utf8');
    } catch {
      return null;
    }
  },
  packPath: (name) => (fs.existsSync(path.join(FIXTURES, 'packs', `${name}.yaml`)) ? `packs/${name}.yaml` : null),
};

describe('buildPolicy on fixtures', () => {
  test('the language reference example builds', () => {
    const result = buildPolicy(['valid/team.yaml'], fixtureReader);
    expect(result.diagnostics).toEqual([]);
    const policy = result.policy!;
    expect(result.files.map((f) => [f.file, f.root, f.pack])).toEqual([
      ['packs/security-guard.yaml', false, 'security-guard'],
      ['valid/team/extra.yaml', false, undefined],
      ['valid/team.yaml', true, undefined],
    ]);
    expect(policy.rules.map((r) => [r.id, r.outcome, r.bypasses])).toEqual([
      ['guard-env-files', 'deny', [0]],
      ['no-force-push', 'ask', [0]],
      ['tester-writes-tests-only', 'deny', [0]],
      ['l1-l2-before-idle', 'block', [0]],
    ]);
    expect(policy.rules[2].agents).toEqual(['murdock']);
    expect(policy.settings.log.file).toBe('.claude/policy-decisions.jsonl');
    expect(policy.index.byEvent.PreToolUse.byTool.Write).toEqual([0, 2]);
  });

  const broken = fs.readdirSync(path.join(FIXTURES, 'broken')).filter((f) => f.endsWith('.yaml')).sort();

  test.each(broken)('broken/%s reports what its first line expects, and leaves out what its second says', (name) => {
    const file = `broken/${name}`;
    const [header, outcome] = fs.readFileSync(path.join(FIXTURES, file), 'utf8').split('\n');
    const [, code, line, column, hint] = /^# expect: (\S+) (\d+):(\d+)(?: (.*))?$/.exec(header) ?? [];
    const result = buildPolicy([file], fixtureReader);
    const errors = result.diagnostics.filter((d) => d.severity === 'error');
    expect(errors.map((d) => `${d.code} ${d.file}:${d.line}:${d.column}`)).toEqual([`${code} ${file}:${line}:${column}`]);
    if (hint) expect(errors[0].hint).toBe(hint);
    const broken = result.policy?.broken?.map((b) => `leaves out ${b.kind} ${b.name}`) ?? ['no policy'];
    expect(`# result: ${broken.join(', ')}`).toBe(outcome);
    // What is left out carries the same diagnostics.
    if (result.policy) expect(result.policy.broken?.flatMap((b) => b.diagnostics)).toEqual(errors);
  });
});

describe('buildPolicy', () => {
  test('a missing root is policy-not-found and no policy', () => {
    const result = buildPolicy(['nope.yaml'], memoryReader({}));
    expect(result).toMatchObject({ policy: null, files: [], diagnostics: [{ code: 'policy-not-found', file: 'nope.yaml' }] });
  });

  test('warnings alone keep the policy', () => {
    const result = buildPolicy(['p.yaml'], memoryReader({ 'p.yaml': 'version: 1\nrules: [{ id: r, on: Stop, agents: ghost, block: x }]\n' }));
    expect(result.diagnostics.map((d) => d.code)).toEqual(['unknown-agent']);
    expect(result.policy?.rules[0].agents).toEqual(['ghost']);
  });

  test('a file with a YAML syntax error gets no schema diagnostics', () => {
    const result = buildPolicy(['p.yaml'], memoryReader({ 'p.yaml': 'version: [1\nbogus: x\n' }));
    expect(result.diagnostics.every((d) => d.code === 'yaml-syntax')).toBe(true);
    expect(result.policy).toBeNull();
  });

  test('a broken rule in an included file leaves out that rule only', () => {
    const result = buildPolicy(['p.yaml'], memoryReader({
      'p.yaml': 'version: 1\ninclude: [b.yaml]\nrules: [{ id: r, on: Stop, block: x }]\n',
      'b.yaml': 'version: 1\nrules: [{ id: s, on: Stop }, { id: t, on: SubagentStop, block: y }]\n',
    }));
    expect(result.diagnostics.map((d) => `${d.code} ${d.file}`)).toEqual(['outcome-missing b.yaml']);
    expect(result.policy?.rules.map((r) => r.id)).toEqual(['t', 'r']);
    expect(result.policy?.broken).toEqual([{
      kind: 'rule', name: 's', source: { file: 'b.yaml', line: 2, column: 9 }, events: ['Stop'], tools: null, diagnostics: result.diagnostics,
    }]);
  });
});

describe('buildPolicy: a broken rule next to the security-guard pack', () => {
  const team = (...ruleLines: string[]) => [
    'version: 1',
    'include: [security-guard]',
    'rules:',
    '  - id: no-src-writes',
    '    on: PreToolUse',
    ...ruleLines,
    '    deny: "not in src"',
    '  - id: tests-pass',
    '    on: Stop',
    '    block: "run the tests"',
    '',
  ].join('\n');
  const build = (text: string) => buildPolicy(['team.yaml'], memoryReader({ 'team.yaml': text, 'guard.yaml': PACK }, { 'security-guard': 'guard.yaml' }));

  test('`tool:` for `tools:` leaves out that rule: the pack and the other rules keep enforcing', () => {
    const result = build(team('    tool: Write', '    paths: { deny: ["src/**"] }'));
    expect(result.diagnostics.map((d) => `${d.code} ${d.file}:${d.line}:${d.column}`)).toEqual(['schema-unknown-key team.yaml:6:5']);
    expect(result.policy?.rules.map((r) => r.id)).toEqual(['guard-env-files', 'tests-pass']);
    expect(result.policy?.broken?.map((b) => [b.kind, b.name, b.events, b.tools])).toEqual([['rule', 'no-src-writes', ['PreToolUse'], null]]);
  });

  test('readable tools narrow what the broken rule could have judged', () => {
    const result = build(team('    tools: Write|Edit', '    paths: { deny: ["src/[a"] }'));
    expect(result.diagnostics.map((d) => d.code)).toEqual(['invalid-glob']);
    expect(result.policy?.broken?.[0].tools).toEqual({ names: ['Write', 'Edit'], patterns: [] });
  });

  test.each([
    ['an unknown top-level key', 'rule: []', 'schema-unknown-key'],
    ['a missing include', 'include: [./nowhere.yaml]', 'include-not-found'],
  ])('%s in an included file leaves out that file; the root and the pack keep enforcing', (_name, line, code) => {
    const result = buildPolicy(['team.yaml'], memoryReader({
      'team.yaml': 'version: 1\ninclude: [security-guard, ./extra.yaml]\nrules: [{ id: r, on: Stop, block: x }]\n',
      'extra.yaml': `version: 1\n${line}\nrules: [{ id: e, on: Stop, block: y }]\n`,
      'guard.yaml': PACK,
    }, { 'security-guard': 'guard.yaml' }));
    expect(result.diagnostics.map((d) => d.code)).toEqual([code]);
    expect(result.policy?.rules.map((r) => r.id)).toEqual(['guard-env-files', 'r']);
    expect(result.policy?.broken?.map((b) => [b.kind, b.name, b.events, b.tools])).toEqual([['file', 'extra.yaml', null, null]]);
  });

  test('an included file that is not YAML is left out as a whole', () => {
    const result = buildPolicy(['team.yaml'], memoryReader({
      'team.yaml': 'version: 1\ninclude: [./extra.yaml]\nrules: [{ id: r, on: Stop, block: x }]\n',
      'extra.yaml': 'version: 1\nrules: [oops\n',
    }));
    expect(result.policy?.rules.map((r) => r.id)).toEqual(['r']);
    expect(result.policy?.broken?.map((b) => [b.kind, b.name, b.diagnostics[0].code])).toEqual([['file', 'extra.yaml', 'yaml-syntax']]);
  });

  test.each([
    ['a root that is not YAML', 'version: 1\nrules: [oops\n', 'yaml-syntax'],
    ['a root that is not a mapping', '- a\n', 'schema-type'],
    ['a root without version', 'include: [security-guard]\n', 'schema-required'],
    ['a root of another version', 'version: 2\ninclude: [security-guard]\n', 'schema-enum'],
    ['an agents error', 'version: 1\ninclude: [security-guard]\nagents: { roles: { a: [b], b: [a] } }\n', 'role-cycle'],
    ['settings that are not a mapping', 'version: 1\ninclude: [security-guard]\nsettings: closed\n', 'schema-type'],
  ])('%s fails the whole policy', (_name, text, code) => {
    const result = build(text);
    expect(result.policy).toBeNull();
    expect(result.diagnostics.filter((d) => d.severity === 'error').map((d) => d.code)).toEqual([code]);
  });

  // A typo in one setting or one include switched every rule off (issue 31): now it leaves out that part alone.
  test.each<[string, string, string, string, 'open' | 'closed']>([
    ['a misspelt key', 'version: 1\ninclude: [security-guard]\nsettings: { on_eror: closed }\n', 'schema-unknown-key', 'settings.on_eror', 'open'],
    ['an on_error that cannot be read (taken as closed)', 'version: 1\ninclude: [security-guard]\nsettings: { on_error: clsed }\n', 'schema-enum', 'settings.on_error', 'closed'],
    ['a bad redaction pattern', 'version: 1\ninclude: [security-guard]\nsettings: { log: { redact: ["(a"] } }\n', 'invalid-regex', 'settings.log', 'open'],
    ['a misspelt pack', 'version: 1\ninclude: [securty-guard, security-guard]\nsettings: { on_error: closed }\n', 'include-not-found', 'include securty-guard', 'closed'],
  ])('%s leaves out that part alone; every rule still enforces', (_name, text, code, part, onError) => {
    const result = build(text);
    expect(result.diagnostics.filter((d) => d.severity === 'error').map((d) => d.code)).toEqual([code]);
    expect(result.policy?.broken?.map((b) => [b.kind, b.name, b.events])).toEqual([['part', part, null]]);
    expect(result.policy?.settings.onError).toBe(onError);
    const ids = result.policy?.rules.map((r) => r.id) ?? [];
    expect(ids).toContain('guard-env-files');
  });

  test('a settings error in an included file leaves out that setting alone too', () => {
    const result = buildPolicy(['team.yaml'], memoryReader({
      'team.yaml': 'version: 1\ninclude: [./extra.yaml]\nrules: [{ id: r, on: Stop, block: x }]\n',
      'extra.yaml': 'version: 1\nsettings: { deadline_ms: soon }\n',
    }));
    expect(result.policy?.settings.deadlineMs).toBe(5000);
    expect(result.policy?.rules.map((r) => r.id)).toEqual(['r']);
    expect(result.policy?.broken?.map((b) => b.name)).toEqual(['settings.deadline_ms']);
  });
});

const PACK = [
  'version: 1',
  'rules:',
  '  - id: guard-env-files',
  '    on: PreToolUse',
  '    tools: Write|Edit',
  '    paths: { deny: [".env"] }',
  '    deny: "no secrets"',
  '',
].join('\n');
