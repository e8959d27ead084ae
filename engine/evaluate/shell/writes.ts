/**
 * The files a shell command writes, as paths the matcher understands, or why they cannot
 * be known. Entry point of the shell analysis: pre-check, size bound, parse, walk, resolve.
 */
import { absolutePath, normalizePath } from '../paths';
import { loadShellSyntax } from './parser';
import { mayWrite } from './precheck';
import { walkScript, type FoundWrite } from './walk';

/** Longer commands are not parsed: they are "not checkable". */
export const MAX_COMMAND_LENGTH = 100_000;

/** One written path: as the shell names it (absolute), and normalized for matching. */
export interface WrittenPath {
  /** Absolute POSIX path (backslashes kept as written). */
  absolute: string;
  /** Project-relative, or absolute when outside the project. */
  path: string;
}

export interface ShellWrites {
  paths: WrittenPath[];
  /** Why the written paths cannot all be known; null when they can. */
  unchecked: string | null;
  /** How the answer was reached: the pre-check alone, or the parser. */
  via: 'precheck' | 'parser' | 'limit';
}

export interface ShellWritesOptions {
  /** Absolute folder the command runs in. */
  cwd: string;
  projectRoot: string;
  /** $HOME, for `~/...`. */
  home?: string;
  /** True when the project-relative or absolute path is an existing folder (for `cp a dir`). */
  isFolder?: (path: string) => boolean;
}

/** Paths that are not files: writing to them changes nothing on disk. */
const DEVICES = /^\/dev\/(?:null|zero|full|stdout|stderr|tty|fd\/\d+)$|^\/proc\/self\/fd\/\d+$/;

/**
 * The paths `command` writes when run in `options.cwd`.
 * @example shellWrites('cd src && echo x > a.ts', { cwd: '/p', projectRoot: '/p' })
 *   // { paths: [{ absolute: '/p/src/a.ts', path: 'src/a.ts' }], unchecked: null, via: 'parser' }
 */
export function shellWrites(command: string, options: ShellWritesOptions): ShellWrites {
  if (command.length > MAX_COMMAND_LENGTH) {
    return { paths: [], unchecked: `the command is longer than ${MAX_COMMAND_LENGTH} characters`, via: 'limit' };
  }
  if (!mayWrite(command)) return { paths: [], unchecked: null, via: 'precheck' };
  let found: ReturnType<typeof walkScript>;
  try {
    found = walkScript(loadShellSyntax(), command, absolutePath(options.cwd, '/'), { home: options.home });
  } catch (err) {
    // A script nested deeply enough to exhaust the stack, or a parser failure.
    return { paths: [], unchecked: `the command could not be analysed (${err instanceof Error ? err.message : String(err)})`, via: 'parser' };
  }
  const unsure = [...found.unsure];
  const paths: WrittenPath[] = [];
  for (const write of found.writes) resolveWrite(write, options, paths, unsure);
  const unique = paths.filter((p, i) => paths.findIndex((q) => q.absolute === p.absolute) === i);
  return { paths: unique, unchecked: unsure.length > 0 ? unsure.join('; ') : null, via: 'parser' };
}

function resolveWrite(write: FoundWrite, options: ShellWritesOptions, out: WrittenPath[], unsure: string[]): void {
  const { target, cwd, by } = write;
  if (target.path === null) return void unsure.push(`${by} writes to a path that is not static`);
  if (target.path === '') return;
  const relative = !/^\/|^[A-Za-z]:[\\/]/.test(target.path);
  if (relative && cwd === null) return void unsure.push(`${by} writes ${target.path} after a cd to a folder that is not known`);
  const base = cwd ?? '/';
  const absolute = absoluteKeepingBackslashes(target.path, base);
  const add = (abs: string) => {
    const path = normalizePath(abs, base, options.projectRoot);
    if (!DEVICES.test(path)) out.push({ absolute: abs, path });
  };
  const sources = target.sources;
  const folder = sources !== undefined
    && (target.folder === true || /(?:^|\/)\.{0,2}$/.test(target.path) || options.isFolder?.(normalizePath(absolute, base, options.projectRoot)) === true);
  if (!folder) return add(absolute);
  for (const source of sources) {
    if (source === null) unsure.push(`${by} copies a file whose name is not static into ${target.path}`);
    else add(`${absolute.replace(/\/+$/, '')}/${source.replace(/\/+$/, '').split('/').pop() ?? source}`);
  }
}

/** Resolves against the base without turning backslashes into separators (the shell already removed quoting). */
function absoluteKeepingBackslashes(path: string, base: string): string {
  return path.startsWith('/') || /^[A-Za-z]:[\\/]/.test(path) ? path : `${base.replace(/\/+$/, '')}/${path}`;
}
