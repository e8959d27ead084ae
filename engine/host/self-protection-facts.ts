/**
 * Where hookpolicy's own files are on this machine, for the built-in self-protection
 * rules (engine/self-protection.ts): the project, the home folder, the cache folders, the
 * installed package (as found and through links), the managed settings folder, the
 * programs the runner's command starts (`node`, `env` on PATH) and `$CLAUDE_CONFIG_DIR`.
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
  const project = projectRoot ?? toAbsolutePosix(env.CLAUDE_PROJECT_DIR || '.', process.cwd());
  return {
    projectRoot: project,
    home: home ? posix(home) : null,
    cacheDirs: cacheDirectories(env).map(posix),
    packageRoots: [...new Set([posix(root), posix(real)])],
    managedDir: posix(managedSettingsDir()),
    programs: runnerPrograms(env.PATH ?? env.Path ?? '', project),
    configDir: env.CLAUDE_CONFIG_DIR ? toAbsolutePosix(env.CLAUDE_CONFIG_DIR, project) : null,
    codexHome: env.CODEX_HOME ? toAbsolutePosix(env.CODEX_HOME, project) : null,
  };
}

/** PATH folders beyond this many are not guarded (a PATH that long is not a person's). */
const MAX_PATH_FOLDERS = 64;

/**
 * What the runner's command starts by name (`node`, and `env` in the exec form init
 * writes), in every folder of PATH (a relative one from the project, where Claude Code
 * runs hooks), and the node binary running now (process.execPath is already real).
 * @example runnerPrograms('/home/me/.local/bin:/usr/bin', '/p') // ['/home/me/.local/bin/node', '/home/me/.local/bin/env', '/usr/bin/node', '/usr/bin/env', '/usr/bin/node']
 */
export function runnerPrograms(pathList: string, projectRoot: string): string[] {
  const programs: string[] = [];
  for (const dir of pathList.split(path.delimiter).slice(0, MAX_PATH_FOLDERS)) {
    if (dir === '') continue;
    // String tests, no path.resolve or regex where a folder is plain: a first regex or
    // resolve in a process costs more than the rest (~0.1 ms an event for 16 folders).
    let absolute = plainAbsolute(dir) ? dir : toAbsolutePosix(dir, projectRoot);
    while (absolute.endsWith('/')) absolute = absolute.slice(0, -1);
    programs.push(`${absolute}/node`, `${absolute}/env`);
  }
  return [...new Set([...programs, posix(process.execPath)])];
}

/** An absolute POSIX folder with no `.`, `..` or empty part to resolve. */
function plainAbsolute(dir: string): boolean {
  return dir.startsWith('/') && !dir.includes('//') && !dir.includes('/./') && !dir.includes('/../') && !dir.endsWith('/.') && !dir.endsWith('/..');
}

/**
 * The facts as one string, stored with each compiled policy: a policy compiled for other
 * facts (another project root, cache folder, home, installation of hookpolicy or PATH) guards
 * other files, so whoever reads the cache uses it only when its own facts give the same
 * string, and compiles otherwise (engine/host/cache/policy-cache.ts).
 * @example guardsKey(selfProtectionFacts(process.env)) // '{"projectRoot":"/p",...}'
 */
export function guardsKey(facts: SelfProtectionFacts): string {
  return JSON.stringify([facts.projectRoot, facts.home, facts.cacheDirs, facts.packageRoots, facts.managedDir, facts.programs ?? [], facts.configDir ?? null, facts.codexHome ?? null]);
}
