/**
 * hookpolicy installed into a throwaway project as `npm install <this repo>` installs a
 * local folder: node_modules/hookpolicy is a link to the repository, and the bins are
 * links in node_modules/.bin; or a copy of the installation of its own (copyInstall).
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { REPO_ROOT } from './run-hook';

/** The runner path a project-scope entry names, as Claude Code expands it. */
export const PROJECT_BIN = 'node_modules/hookpolicy/bin/policy.cjs';

/**
 * Links the repository in as the project's hookpolicy.
 * @example linkHookpolicy(dir); fs.existsSync(path.join(dir, PROJECT_BIN)) // true
 */
export function linkHookpolicy(projectDir: string): void {
  const modules = path.join(projectDir, 'node_modules');
  fs.mkdirSync(path.join(modules, '.bin'), { recursive: true });
  fs.symlinkSync(REPO_ROOT, path.join(modules, 'hookpolicy'), 'dir');
  for (const bin of ['policy', 'hookpolicy']) fs.symlinkSync(path.join('..', 'hookpolicy', 'bin', 'policy.cjs'), path.join(modules, '.bin', bin));
}

/**
 * A copy of this installation (bin, dist, the packs, package.json; its node_modules a link
 * to the repository's) in `root`, by default a new temp folder, with its own code caches
 * (`.code-cache`): tests that change the installation, or watch its code caches, use one.
 * @example const root = copyInstall(); runHook(event, { projectDir, bin: path.join(root, 'bin', 'policy.cjs') })
 */
export function copyInstall(root: string = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'hookpolicy-install-')))): string {
  for (const part of ['bin', 'dist', 'policies', 'package.json']) fs.cpSync(path.join(REPO_ROOT, part), path.join(root, part), { recursive: true });
  fs.symlinkSync(path.join(REPO_ROOT, 'node_modules'), path.join(root, 'node_modules'));
  return root;
}
