/**
 * hookpolicy installed into a throwaway project as `npm install <this repo>` installs a
 * local folder: node_modules/hookpolicy is a link to the repository, and the bins are
 * links in node_modules/.bin.
 */
import * as fs from 'node:fs';
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
