/**
 * The shipped packs' own test suites (policies/tests/*.test.yaml) pass through the built
 * CLI, and together make every rule of every pack decide in some case.
 */
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';

const REPO = path.resolve(__dirname, '..', '..');

describe('pack suites', () => {
  it('pass with 100% rule coverage', () => {
    const run = spawnSync(process.execPath, [path.join(REPO, 'bin', 'policy.cjs'), 'test', 'policies/tests', '--coverage-threshold', '100'], {
      cwd: REPO, encoding: 'utf8', env: { PATH: process.env.PATH ?? '' }, timeout: 60_000,
    });
    expect(run.stderr).toBe('');
    expect(run.stdout).toMatch(/^coverage: (\d+)\/\1 rules decided in some case \(100%\)$/m);
    expect(run.stdout).not.toContain('✗');
    expect(run.stdout.trimEnd().split('\n').pop()).toMatch(/^\d+ passed, 0 failed$/);
    expect(run.status).toBe(0);
  });
});
