/**
 * The hook's side of the sandbox: whether a Bash command can be sandboxed here, and the
 * command line that does it (EvaluationContext.sandbox). Loaded by the runner only for a
 * decision a rule with `unparsable: sandbox` asks about; costs a few stats and one read
 * of /proc/self/mountinfo.
 */
import * as fs from 'fs';
import * as path from 'path';
import type { HookEvent } from '../../types';
import { cacheDirectories, cacheFolderDistrust } from '../cache';
import { sandboxCommandLine, sandboxSpec } from './spec';

/** The file whose presence says the sandbox could not start here lately (its text says why). */
export const UNAVAILABLE_FILE = 'sandbox-unavailable';
/** How long a failure to start keeps the sandbox off: then it is tried again. */
export const UNAVAILABLE_FOR_MS = 24 * 3600 * 1000;

export interface LauncherOptions {
  projectRoot: string;
  /** The policy's root files, for the sandbox to judge by the same policy. */
  roots: readonly string[];
  env: Readonly<Record<string, string | undefined>>;
  /** The sandbox's script; defaults to sandbox.cjs beside the running bundle. */
  script?: string;
  /** The cache folders (tests); default cacheDirectories(env). */
  cacheDirs?: string[];
  now?: number;
}

/**
 * The sandbox launcher for one event, or undefined when this machine or project cannot
 * sandbox (then the rules that asked for the sandbox ask).
 * @example sandboxLauncher({ projectRoot: '/p', roots: ['/p/.claude/policies.yaml'], env })?.('npm test', event, ['lane'])
 *   // "'/usr/bin/node' '/x/dist/sandbox.cjs' run eyJ2... 'npm test'"
 */
export function sandboxLauncher(options: LauncherOptions): ((command: string, event: HookEvent, rules: readonly string[]) => string | null) | undefined {
  if (sandboxUnavailable(options) !== null) return undefined;
  const script = options.script ?? path.join(__dirname, 'sandbox.cjs');
  let project: string;
  try {
    project = fs.realpathSync(options.projectRoot);
  } catch {
    return undefined;
  }
  return (command, event, rules) => sandboxCommandLine(process.execPath, script, sandboxSpec(project, options.roots, rules, event), command);
}

/**
 * Why this machine or project cannot sandbox a command, or null when it can: not Linux,
 * no `unshare` or `mount` on PATH, a file system mounted inside the project (an overlay
 * would hide it), or a recent failure to start the sandbox.
 * @example sandboxUnavailable({ projectRoot: '/p', roots: [], env: { PATH: '/usr/bin' } }) // null
 */
export function sandboxUnavailable(options: LauncherOptions): string | null {
  if (process.platform !== 'linux') return `the sandbox runs on Linux only (this is ${process.platform})`;
  for (const program of ['unshare', 'mount']) {
    if (!onPath(program, options.env.PATH)) return `no ${program} on PATH (util-linux)`;
  }
  const inside = mountsInside(options.projectRoot);
  if (inside !== null) return `${inside} is a file system mounted inside the project, which the sandbox's overlay would hide`;
  return recentFailure(options);
}

function onPath(program: string, pathVariable: string | undefined): boolean {
  for (const dir of [...(pathVariable ?? '').split(':'), '/usr/bin', '/bin']) {
    if (dir === '' || !path.isAbsolute(dir)) continue;
    try {
      fs.accessSync(path.join(dir, program), fs.constants.X_OK);
      return true;
    } catch {
      // not here
    }
  }
  return false;
}

/** The first mount point strictly inside `root`, or null (also when mountinfo cannot be read). */
function mountsInside(root: string): string | null {
  let info: string;
  try {
    info = fs.readFileSync('/proc/self/mountinfo', 'utf8');
  } catch {
    return null;
  }
  let real = root;
  try {
    real = fs.realpathSync(root);
  } catch {
    // as given
  }
  const prefix = real.endsWith('/') ? real : `${real}/`;
  for (const line of info.split('\n')) {
    // Field 5 is the mount point, with space, tab, newline and backslash written as octal escapes.
    const point = line.split(' ')[4];
    if (point === undefined) continue;
    const decoded = point.replace(/\\([0-7]{3})/g, (_m, octal: string) => String.fromCharCode(parseInt(octal, 8)));
    if (decoded.startsWith(prefix)) return decoded;
  }
  return null;
}

/**
 * The folder for the failure note: the first cache folder only this user can write.
 * @example unavailableNoteFolder(process.env) // '/home/me/.cache/hookpolicy'
 */
export function unavailableNoteFolder(env: Readonly<Record<string, string | undefined>>, dirs: string[] = cacheDirectories(env)): string | null {
  for (const dir of dirs) if (cacheFolderDistrust(dir) === null) return dir;
  return null;
}

function recentFailure(options: LauncherOptions): string | null {
  const dir = unavailableNoteFolder(options.env, options.cacheDirs);
  if (dir === null) return null;
  const file = path.join(dir, UNAVAILABLE_FILE);
  try {
    const stat = fs.statSync(file);
    if ((options.now ?? Date.now()) - stat.mtimeMs > UNAVAILABLE_FOR_MS) return null;
    return `the sandbox could not start here lately (${fs.readFileSync(file, 'utf8').trim().slice(0, 300)})`;
  } catch {
    return null;
  }
}
