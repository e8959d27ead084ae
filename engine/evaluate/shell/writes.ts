/**
 * The files a shell command writes, as paths the matcher understands, or why they cannot
 * be known. Entry point of the shell analysis: pre-check, size bound, parse, walk, resolve.
 */
import type { ListFolder } from './globs';
import { absolutePath, normalizePath } from '../paths';
import { descriptorPath, procPath, type HeldFile } from './fds';
import { loadShellSyntax } from './parser';
import { simpleScript } from './simple-script';
import { walkSimple, walkScript, type FoundWrite, type WalkResult } from './walk';

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
  /** Paths named in the words of the commands whose writes cannot be known (named-paths.ts): they may be written too. */
  named: WrittenPath[];
  /** How the answer was reached: the fast path's scanner without the parser (simple-script.ts), or the parser. */
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
  /** The policy's `known_commands`, each as its first words. */
  knownCommands?: readonly (readonly string[])[];
  /** A folder's names (absolute path in), for words with `*`, `?` or `[...]` (globs.ts); without it such words are not static. */
  listFolder?: ListFolder;
}

const WINDOWS_ROOT = /^[A-Za-z]:/;

/** Devices that are not files: writing to them changes nothing on disk. */
const DEVICES = /^\/dev\/(?:null|zero|full|tty|random|urandom)$/;

/**
 * The paths `command` writes when run in `options.cwd`.
 * @example shellWrites('cd src && echo x > a.ts', { cwd: '/p', projectRoot: '/p' })
 *   // { paths: [{ absolute: '/p/src/a.ts', path: 'src/a.ts' }], unchecked: null, named: [], via: 'parser' }
 */
export function shellWrites(command: string, options: ShellWritesOptions): ShellWrites {
  if (command.length > MAX_COMMAND_LENGTH) {
    return { paths: [], unchecked: `the command is longer than ${MAX_COMMAND_LENGTH} characters`, named: [], via: 'limit' };
  }
  const cwd = absolutePath(options.cwd, '/');
  const walkOptions = {
    projectRoot: options.projectRoot, known: options.knownCommands, listFolder: options.listFolder, ...(options.home !== undefined ? { home: options.home } : {}),
  };
  const simple = simpleScript(command);
  let found: WalkResult | null = simple ? walkSimple(simple, cwd, walkOptions) : null;
  const via = found ? 'precheck' : 'parser';
  try {
    found ??= walkScript(loadShellSyntax(), command, cwd, walkOptions);
  } catch (err) {
    // A script nested deeply enough to exhaust the stack, or a parser failure.
    return { paths: [], unchecked: `the command could not be analysed (${err instanceof Error ? err.message : String(err)})`, named: [], via: 'parser' };
  }
  const unsure = [...found.unsure];
  const paths: WrittenPath[] = [];
  for (const write of found.writes) resolveWrite(write, options, paths, unsure);
  const reasons = [...new Set(unsure)];
  const named = found.named.flatMap((n) => {
    const absolute = absoluteIn(n.path, n.cwd, options.projectRoot);
    return absolute === null ? [] : [{ absolute, path: normalizePath(absolute, n.cwd ?? '/', options.projectRoot) }];
  });
  return { paths: uniqueByAbsolute(paths), unchecked: reasons.length > 0 ? reasons.join('; ') : null, named: uniqueByAbsolute(named), via };
}

function uniqueByAbsolute(paths: readonly WrittenPath[]): WrittenPath[] {
  return paths.filter((p, i) => paths.findIndex((q) => q.absolute === p.absolute) === i);
}

/** `path` as the shell reaches it from `cwd`, absolute; null when it is relative and the folder is not known. */
function absoluteIn(path: string, cwd: string | null, projectRoot: string): string | null {
  // `C:/x` names a drive only where the project is on Windows; elsewhere it is a folder `C:`.
  const relative = !path.startsWith('/') && !(WINDOWS_ROOT.test(projectRoot) && /^[A-Za-z]:[\\/]/.test(path));
  if (relative && cwd === null) return null;
  return absoluteKeepingBackslashes(path, cwd ?? '/', WINDOWS_ROOT.test(projectRoot));
}

function resolveWrite(write: FoundWrite, options: ShellWritesOptions, out: WrittenPath[], unsure: string[]): void {
  const { target, cwd, by } = write;
  if (target.path === null) return void unsure.push(`${by} writes to a path that is not static`);
  if (target.path === '') return;
  const absolute = absoluteIn(target.path, cwd, options.projectRoot);
  if (absolute === null) return void unsure.push(`${by} writes ${target.path} after a cd to a folder that is not known`);
  const base = cwd ?? '/';
  const add = (abs: string) => {
    const path = normalizePath(abs, base, options.projectRoot);
    if (DEVICES.test(path)) return;
    if (!reopened(write, absolutePath(abs, '/'), options, out, unsure)) out.push({ absolute: abs, path });
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

/**
 * A write to a path that reopens a descriptor (`/dev/stdout`, `/dev/fd/3`,
 * `/proc/self/fd/3`) or names the writer's own folders (`/proc/self/cwd/x`): the file it
 * really writes is added instead (true), or why it cannot be known. False for other paths.
 */
function reopened(write: FoundWrite, absolute: string, options: ShellWritesOptions, out: WrittenPath[], unsure: string[], hops = 0): boolean {
  const via = descriptorPath(absolute);
  const proc = via ? null : procPath(absolute);
  if (!via && !proc) return false;
  const fail = (why: string): true => {
    unsure.push(`${write.by} writes through ${absolute}, ${why}`);
    return true;
  };
  if (hops > 8) return fail('through descriptors more than 8 deep');
  if (proc?.kind === 'other-process') return fail('an entry of another process');
  if (write.fds.unknown && via) return fail('whose file is not known at that point');
  let files: HeldFile[];
  if (proc) files = [proc.kind === 'root' ? { path: proc.rest || '/', cwd: '/' } : { path: write.cwd === null ? null : `${write.cwd}${proc.rest}`, cwd: write.cwd }];
  else {
    const { fd, rest } = via as { fd: number; rest: string };
    const held = write.fds.get(fd);
    files = (held.length > 0 ? held : write.fds.unnumbered).map((f) => ({ path: f.path === null ? null : `${f.path}${rest}`, cwd: f.cwd }));
  }
  for (const file of files) {
    if (file.path === null) fail('which holds a file whose name is not static');
    else if (file.cwd === null && !file.path.startsWith('/')) fail(`which holds ${file.path} after a cd to a folder that is not known`);
    else {
      const abs = absolutePath(file.path, file.cwd ?? '/');
      const path = normalizePath(abs, '/', options.projectRoot);
      if (!DEVICES.test(path) && !reopened(write, abs, options, out, unsure, hops + 1)) out.push({ absolute: abs, path });
    }
  }
  return true;
}

/** Resolves against the base without turning backslashes into separators (the shell already removed quoting). */
function absoluteKeepingBackslashes(path: string, base: string, windowsRoot: boolean): string {
  return path.startsWith('/') || (windowsRoot && /^[A-Za-z]:[\\/]/.test(path)) ? path : `${base.replace(/\/+$/, '')}/${path}`;
}
