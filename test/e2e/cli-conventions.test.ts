/**
 * The conventions the CLI shares with ESLint and its ecosystem, through the built CLI
 * (node bin/policy.cjs): exit codes, colour, --quiet, --output-file, and what `policy
 * lint` reads.
 */
import * as path from 'node:path';
import { REPO_ROOT } from '../support/run-hook';
import { runCli } from '../support/run-cli';

const LINT_FIXTURES = path.join(REPO_ROOT, 'fixtures', 'lint');

describe('exit codes: 0 ok, 1 problems found, 2 usage or internal error', () => {
  it('exits 2 on an unknown command, with a usage message', () => {
    const run = runCli(['bogus'], { cwd: REPO_ROOT });
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain("error: unknown command 'bogus'");
    expect(run.stderr).toContain('(add --help for usage)');
  });

  it('exits 2 without a command, with the usage on stderr', () => {
    const run = runCli([], { cwd: REPO_ROOT });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('Usage: policy [options] [command]');
  });

  it.each([
    ['test', '--bogus'],
    ['version', '--bogus'],
    ['lint', '--bogus'],
  ])('exits 2 on an unknown option of %s', (...args) => {
    const run = runCli(args, { cwd: REPO_ROOT });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("error: unknown option '--bogus'");
  });

  it('exits 0 for --help and --version', () => {
    expect(runCli(['--help'], { cwd: REPO_ROOT }).code).toBe(0);
    expect(runCli(['--version'], { cwd: REPO_ROOT }).code).toBe(0);
  });

  it('exits 1 when lint finds problems, 0 when it finds none', () => {
    expect(runCli(['lint'], { cwd: path.join(LINT_FIXTURES, 'bad') }).code).toBe(1);
    expect(runCli(['lint'], { cwd: path.join(LINT_FIXTURES, 'clean') }).code).toBe(0);
  });
});
