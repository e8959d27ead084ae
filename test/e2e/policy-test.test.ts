/**
 * `policy test` end to end: the built CLI (node bin/policy.cjs test) on the suites in
 * fixtures/test-suites/, checking exit codes, the summary line, diffs and positions.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const REPO = path.resolve(__dirname, '..', '..');
const BIN = path.join(REPO, 'bin', 'policy.cjs');
const SUITES = 'fixtures/test-suites';

function policyTest(args: string[], cwd = REPO): { code: number | null; stdout: string; stderr: string } {
  const run = spawnSync(process.execPath, [BIN, 'test', ...args], { cwd, encoding: 'utf8', env: { PATH: process.env.PATH ?? '' }, timeout: 60_000 });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

const lastLine = (text: string) => text.trimEnd().split('\n').pop();

describe('policy test (built CLI)', () => {
  it('passes a passing suite: exit 0 and the summary line', () => {
    const run = policyTest([`${SUITES}/passing.test.yaml`]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(lastLine(run.stdout)).toBe('6 passed, 0 failed');
    expect(run.stdout).toContain('  ✓ stopping without notes is blocked\n');
  });

  it('fails a failing suite: exit 1, diffs, the case position and the deciding rules', () => {
    const run = policyTest([`${SUITES}/failing.suite.yaml`]);
    expect(run.code).toBe(1);
    expect(lastLine(run.stdout)).toBe('1 passed, 2 failed');
    expect(run.stdout).toContain([
      '  ✗ wrong outcome',
      `      at ${SUITES}/failing.suite.yaml:7:5`,
      `      outcome differs (expected at ${SUITES}/failing.suite.yaml:10:7)`,
      '      - allow',
      '      + deny',
      `      decided by: no-rm-rf (${SUITES}/policy.yaml:12:5)`,
    ].join('\n'));
    expect(run.stdout).toContain([
      `      at ${SUITES}/failing.suite.yaml:11:5`,
      `      stdout differs (expected at ${SUITES}/failing.suite.yaml:14:7)`,
      '        {',
      '          "hookSpecificOutput": {',
      '            "hookEventName": "PreToolUse",',
      '      -     "permissionDecision": "ask",',
      '      +     "permissionDecision": "deny",',
    ].join('\n'));
    expect(run.stdout).toContain(`decided by: reviewer-writes-nothing (${SUITES}/policy.yaml:7:5)`);
  });

  it('rejects a broken suite: exit 2 with the diagnostic at its position', () => {
    const run = policyTest([`${SUITES}/broken.suite.yaml`]);
    expect(run.code).toBe(2);
    expect(run.stdout).toContain(`${SUITES}/broken.suite.yaml:7:7: error schema-unknown-key: Unknown key "outcom" (did you mean "outcome"?)`);
    expect(lastLine(run.stdout)).toBe('0 passed, 0 failed');
  });

  it('searches a folder for *.test.yaml only, and reports coverage', () => {
    const run = policyTest([SUITES, '--coverage']);
    expect(run.code).toBe(0);
    expect(run.stdout).not.toContain('failing.suite.yaml');
    expect(run.stdout).toContain('coverage: 4/4 rules decided in some case (100%)');
  });

  it('fails below the coverage threshold with exit 1 even when every case passes', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'policy-test-e2e-'));
    try {
      const suite = path.join(dir, 'one.test.yaml');
      fs.writeFileSync(suite, [
        `policy: ${JSON.stringify(path.join(REPO, SUITES, 'policy.yaml'))}`,
        'cases:',
        '  - name: only rm',
        '    event: { event: PreToolUse, command: "rm -rf x" }',
        '    expect: { outcome: deny }',
      ].join('\n'));
      const run = policyTest([suite, '--coverage', '--coverage-threshold', '30'], dir);
      expect(run.code).toBe(1);
      expect(run.stdout).toContain('coverage: 1/4 rules decided in some case (25%)\ncoverage 25% is below the threshold of 30%\n');
      expect(run.stdout).toContain('  never exercised (no case made them a candidate):\n    reviewer-writes-nothing (');
      expect(lastLine(run.stdout)).toBe('1 passed, 0 failed');
      expect(policyTest([suite, '--coverage-threshold', '25'], dir).code).toBe(0);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('without PATHS runs every *.test.yaml of the project against the discovered policy', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'policy-test-e2e-'));
    try {
      fs.mkdirSync(path.join(dir, '.claude', 'tests'), { recursive: true });
      fs.mkdirSync(path.join(dir, 'node_modules', 'x'), { recursive: true });
      fs.copyFileSync(path.join(REPO, SUITES, 'policy.yaml'), path.join(dir, '.claude', 'policies.yaml'));
      const suite = 'cases:\n  - name: rm\n    event: { event: PreToolUse, command: "rm -rf x" }\n    expect: { outcome: deny, rules: [no-rm-rf] }\n';
      fs.writeFileSync(path.join(dir, '.claude', 'tests', 'a.test.yaml'), suite);
      fs.writeFileSync(path.join(dir, 'node_modules', 'x', 'ignored.test.yaml'), 'not: [valid');
      const run = policyTest([], dir);
      expect(run.stdout).toBe('.claude/tests/a.test.yaml\n  ✓ rm\n\n1 passed, 0 failed\n');
      expect(run.code).toBe(0);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it.each([
    [['--format', 'xml', `${SUITES}/passing.test.yaml`], 'unknown --format "xml"'],
    [['no/such/file.test.yaml'], 'no such file or folder: no/such/file.test.yaml'],
    [['--coverage-threshold', 'lots', `${SUITES}/passing.test.yaml`], '--coverage-threshold must be a number from 0 to 100'],
  ])('exits 2 on a usage error: %j', (args, message) => {
    const run = policyTest(args);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(`policy test: ${message}${message.startsWith('unknown') ? ' (use pretty, json, junit, tap)' : ''}\n`);
  });

  it('writes machine formats', () => {
    const json = JSON.parse(policyTest(['--format', 'json', `${SUITES}/failing.suite.yaml`]).stdout);
    expect(json.summary).toEqual({ passed: 1, failed: 2 });
    expect(json.suites[0].cases[1]).toMatchObject({ name: 'wrong outcome', line: 7, failures: [{ key: 'outcome', expected: 'allow', actual: 'deny', line: 10 }] });
    const tap = policyTest(['--format', 'tap', `${SUITES}/failing.suite.yaml`]).stdout.split('\n');
    expect(tap.slice(0, 4)).toEqual(['TAP version 13', '1..3', `ok 1 - ${SUITES}/failing.suite.yaml > passes`, `not ok 2 - ${SUITES}/failing.suite.yaml > wrong outcome`]);
    const junit = policyTest(['--format', 'junit', `${SUITES}/failing.suite.yaml`]).stdout;
    expect(junit).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<testsuites name="policy test" tests="3" failures="2" errors="0" /);
  });
});
