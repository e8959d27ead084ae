/**
 * Where hookpolicy's own files are on this machine, for the built-in self-protection
 * rules (engine/self-protection.ts): the project, the home folder, the cache folders, the
 * installed package (as found and through links) and the managed settings folder.
 */
import * as fs from 'fs';
import * as path from 'path';
import type { SelfProtectionFacts } from '../self-protection';
import { cacheDirectories } from './cache';
import { toAbsolutePosix } from './project-root';
import { managedSettingsDir } from './settings-file';

function posix(p: string): string {
  return p.split(path.sep).join('/');
}

/** The package root: the folder above dist/ (bundles) or above engine/host (sources under test). */
function packageRoot(): string {
  const candidates = [path.resolve(__dirname, '..'), path.resolve(__dirname, '..', '..')];
  return candidates.find((dir) => fs.existsSync(path.join(dir, 'bin', 'policy.cjs'))) ?? candidates[0];
}

/**
 * The facts for a project (default: $CLAUDE_PROJECT_DIR, else the working folder).
 * @example selfProtectionFacts(process.env).cacheDirs // ['/home/me/.cache/hookpolicy', '/tmp/hookpolicy-1000']
 */
export function selfProtectionFacts(env: Readonly<Record<string, string | undefined>>, projectRoot?: string): SelfProtectionFacts {
  const root = packageRoot();
  let real = root;
  try {
    real = fs.realpathSync.native(root);
  } catch {
    // Keep the path as found.
  }
  // node:os only when the environment has no home (the runner computes these facts at every event).
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const home = env.HOME || env.USERPROFILE || (require('os') as typeof import('os')).homedir() || null;
  return {
    projectRoot: projectRoot ?? toAbsolutePosix(env.CLAUDE_PROJECT_DIR || '.', process.cwd()),
    home: home ? posix(home) : null,
    cacheDirs: cacheDirectories(env).map(posix),
    packageRoots: [...new Set([posix(root), posix(real)])],
    managedDir: posix(managedSettingsDir()),
  };
}

/**
 * The facts as one string, stored with each compiled policy: a policy compiled for other
 * facts (another project root, cache folder, home or installation of hookpolicy) guards
 * other files, so whoever reads the cache uses it only when its own facts give the same
 * string, and compiles otherwise (engine/host/cache/policy-cache.ts).
 * @example guardsKey(selfProtectionFacts(process.env)) // '{"projectRoot":"/p",...}'
 */
export function guardsKey(facts: SelfProtectionFacts): string {
  return JSON.stringify([facts.projectRoot, facts.home, facts.cacheDirs, facts.packageRoots, facts.managedDir]);
}
