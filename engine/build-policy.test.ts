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

  test.each(broken)('broken/%s reports what its first line expects', (name) => {
    const file = `broken/${name}`;
    const header = fs.readFileSync(path.join(FIXTURES, file), 'utf8').split('\n')[0];
    const [, code, line, column, hint] = /^# expect: (\S+) (\d+):(\d+)(?: (.*))?$/.exec(header) ?? [];
    const result = buildPolicy([file], fixtureReader);
    expect(result.policy).toBeNull();
    const errors = result.diagnostics.filter((d) => d.severity === 'error');
    expect(errors.map((d) => `${d.code} ${d.file}:${d.line}:${d.column}`)).toEqual([`${code} ${file}:${line}:${column}`]);
    if (hint) expect(errors[0].hint).toBe(hint);
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

  test('a broken include fails the whole policy', () => {
    const result = buildPolicy(['p.yaml'], memoryReader({
      'p.yaml': 'version: 1\ninclude: [b.yaml]\nrules: [{ id: r, on: Stop, block: x }]\n',
      'b.yaml': 'version: 1\nrules: [{ id: s, on: Stop }]\n',
    }));
    expect(result.policy).toBeNull();
    expect(result.diagnostics.map((d) => `${d.code} ${d.file}`)).toEqual(['outcome-missing b.yaml']);
  });
});
