/**
 * hookpolicy installed into a throwaway project as `npm install <this repo>` installs a
 * local folder: node_modules/hookpolicy is a link to the repository, and the bins are
 * links in node_modules/.bin; or a copy of the installation of its own (copyInstall).
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { RUNTIME_PACKAGES } from '../../engine/runtime-packages';
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

/**
 * Makes an installation's node_modules a folder of its own, with copies of the packages
 * the engine loads at run time (RUNTIME_PACKAGES, as installed here), instead of a link to
 * the repository's: for a test that runs it as another user, who may not be able to
 * reach the repository's folder (a fresh clone in a 0700 temp folder, as CI makes one).
 * @example const root = copyInstall(); standaloneModules(root); fs.chmodSync(root, 0o755)
 */
export function standaloneModules(root: string): void {
  const modules = path.join(root, 'node_modules');
  fs.rmSync(modules, { recursive: true, force: true });
  fs.mkdirSync(modules, { mode: 0o755 });
  for (const name of RUNTIME_PACKAGES) {
    const from = path.join(REPO_ROOT, 'node_modules', name);
    if (!fs.existsSync(from)) continue;
    // A native addon's build leftovers are not loaded: only what the package itself holds.
    fs.cpSync(from, path.join(modules, name), { recursive: true, filter: (src) => !/\/(deps|src|build\/Release\/(obj|\.deps)[^/]*)(\/|$)/.test(path.relative(from, src).replace(/^/, '/')) });
  }
}
