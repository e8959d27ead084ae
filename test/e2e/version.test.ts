/**
 * `policy version` through the built bin, against the example in docs/commands/version.md.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { POLICY_BIN, REPO_ROOT } from '../support/run-hook';

const { version } = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string };

function policy(args: string[]) {
  const run = spawnSync(process.execPath, [POLICY_BIN, ...args], { cwd: REPO_ROOT, encoding: 'utf8' });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

/** The output lines of the doc's `$ policy version` example. */
function documentedOutput(): string[] {
  const doc = fs.readFileSync(path.join(REPO_ROOT, 'docs', 'commands', 'version.md'), 'utf8');
  const block = /```console\n\$ policy version\n([\s\S]*?)```/.exec(doc);
  if (!block) throw new Error('docs/commands/version.md has no `$ policy version` example');
  return block[1].trimEnd().split('\n');
}

/** The values that differ between builds and machines, masked. */
const shape = (line: string) => line
  .replace(/^hookpolicy \S+$/, 'hookpolicy <version>')
  .replace(/^engine \S+\+[0-9a-f]{12}$/, 'engine <version>+<build id>')
  .replace(/^node v\d+\.\d+\.\d+$/, 'node <node version>');

describe('policy version', () => {
  const run = policy(['version']);
  const lines = run.stdout.trimEnd().split('\n');

  it('prints the package, the engine build and node, exit 0', () => {
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
    expect(lines).toEqual([`hookpolicy ${version}`, expect.stringMatching(new RegExp(`^engine ${version.replace(/\./g, '\\.')}\\+[0-9a-f]{12}$`)), `node ${process.version}`]);
  });

  it('prints what docs/commands/version.md shows, values aside', () => {
    expect(lines.map(shape)).toEqual(documentedOutput().map(shape));
    expect(documentedOutput().map(shape)).toEqual(['hookpolicy <version>', 'engine <version>+<build id>', 'node <node version>']);
  });

  it('--version and -V print the package version alone', () => {
    expect(policy(['--version']).stdout).toBe(`${version}\n`);
    expect(policy(['-V']).stdout).toBe(`${version}\n`);
  });
});
