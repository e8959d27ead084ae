/**
 * The package as a team gets it: `npm pack` of this repository, once per test process.
 * The bundles are already built (`npm test` builds first), so packing skips `prepare`;
 * test/e2e/package.test.ts proves that `npm pack` builds them where they are missing.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { REPO_ROOT } from '../support/run-hook';

let tarball: string | undefined;

/**
 * The path of hookpolicy-<version>.tgz.
 * @example npm install --save-dev ${packedTarball()}
 */
export function packedTarball(): string {
  if (tarball) return tarball;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hp-pack-'));
  const out = execFileSync('npm', ['pack', '--ignore-scripts', '--pack-destination', dir, '--json'], { cwd: REPO_ROOT, encoding: 'utf8' });
  const [{ filename }] = JSON.parse(out) as Array<{ filename: string }>;
  return (tarball = path.join(dir, filename));
}
