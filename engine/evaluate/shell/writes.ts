/**
 * The files a shell command writes, as paths the matcher understands, or why they cannot
 * be known. Entry point of the shell analysis: pre-check, size bound, parse, walk, resolve.
 */
import type { ListFolder } from './globs';
import type { Arg } from './words';
import { absolutePath, normalizePath } from '../paths';
import { descriptorPath, procPath, type HeldFile } from './fds';
import { loadShellSyntax } from './parser';
import { simpleScript } from './simple-script';
import { walkSimple, walkScript, type FoundWrite, type WalkResult } from './walk';
import { NewNames, type ReadLink } from './new-names';

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
  /**
   * What the command gives a second name without writing it (new-names.ts): the source of a
   * hard link (`cp -l`), what a symlink it makes (`cp -s`) or copies or moves (`cp -P`, `mv`)
   * leads to from where it lands. A later write through that name writes it: the guard
   * counts these as writes.
   */
  linked: WrittenPath[];
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
  /** The text of a symlink (absolute path in), for the links a command copies or moves; without it they are not looked at. */
  readLink?: ReadLink;
}

const WINDOWS_ROOT = /^[A-Za-z]:/;

/** Devices that are not files: writing to them changes nothing on disk. */
const DEVICES = /^\/dev\/(?:null|zero|full|tty|random|urandom)$/;

/**
 * The paths `command` writes when run in `options.cwd`.
 * @example shellWrites('cd src && echo x > a.ts', { cwd: '/p', projectRoot: '/p' })
 *   // { paths: [{ absolute: '/p/src/a.ts', path: 'src/a.ts' }], linked: [], unchecked: null, named: [], via: 'parser' }
 */
export function shellWrites(command: string, options: ShellWritesOptions): ShellWrites {
  if (command.length > MAX_COMMAND_LENGTH) {
    return { paths: [], linked: [], unchecked: `the command is longer than ${MAX_COMMAND_LENGTH} characters`, named: [], via: 'limit' };
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
    return { paths: [], linked: [], unchecked: `the command could not be analysed (${err instanceof Error ? err.message : String(err)})`, named: [], via: 'parser' };
  }
  const unsure = [...found.unsure];
  const out: Written = { paths: [], linked: [], names: new NewNames(options.readLink) };
  found.writes.forEach((write, by) => resolveWrite(write, by, options, out, unsure));
  const paths = throughNewNames(out, options);
  const reasons = [...new Set(unsure)];
  const named = found.named.flatMap((n) => {
    const absolute = absoluteIn(n.path, n.cwd, options.projectRoot);
    return absolute === null ? [] : [{ absolute, path: normalizePath(absolute, n.cwd ?? '/', options.projectRoot) }];
  });
  const written = new Set(paths.map((p) => p.path));
  // A path the command writes needs no second look as a path it names again (mv's source).
  const linked = uniqueByAbsolute(out.linked).filter((p) => !written.has(p.path));
  return { paths: uniqueByAbsolute(paths), linked, unchecked: reasons.length > 0 ? reasons.join('; ') : null, named: uniqueByAbsolute(named), via };
}

/** A written path, with the write (its index among the walk's) it comes from. */
type ByWrite = WrittenPath & { by: number };

/** What the writes resolve to: the written paths, the paths given a second name, and the new names made. */
interface Written {
  paths: ByWrite[];
  linked: WrittenPath[];
  names: NewNames;
}

/** More links, copies and moves than this in one command: not checkable. */
const MAX_NEW_NAMES = 500;

/** How many times a path found through a new name is looked at again (a name made through a name). */
const MAX_NAME_ROUNDS = 4;

/**
 * The written paths, with what each also writes through the names other writes of the
 * command made (`cp -l .claude/x a && echo > a` writes `.claude/x`), in any order: a loop
 * may run a write before the name it goes through, then after it.
 */
function throughNewNames(out: Written, options: ShellWritesOptions): WrittenPath[] {
  const all: WrittenPath[] = [...out.paths];
  if (out.names.names.length === 0) return all;
  // Each path once, with every write that writes it (a name is not gone through by its own write alone).
  const writers = new Map<string, Set<number>>();
  for (const p of out.paths) {
    const absolute = absolutePath(p.absolute, '/');
    const by = writers.get(absolute);
    if (by) by.add(p.by);
    else writers.set(absolute, new Set([p.by]));
  }
  const seen = new Set(writers.keys());
  let frontier = [...writers];
  for (let round = 0; round < MAX_NAME_ROUNDS && frontier.length > 0; round++) {
    const next: Array<[string, Set<number>]> = [];
    for (const [written, by] of frontier) {
      for (const absolute of out.names.through(written, by)) {
        if (seen.has(absolute)) continue;
        seen.add(absolute);
        const path = normalizePath(absolute, '/', options.projectRoot);
        if (DEVICES.test(path)) continue;
        all.push({ absolute, path });
        next.push([absolute, by]);
      }
    }
    frontier = next;
  }
  return all;
}

/** The paths without repeats: one per normalized path (one per spelling when a backslash may be a name's character). */
function uniqueByAbsolute(paths: readonly WrittenPath[]): WrittenPath[] {
  const key = (p: WrittenPath) => (p.absolute.includes('\\') ? p.absolute : p.path);
  const seen = new Set<string>();
  return paths.filter((p) => !seen.has(key(p)) && seen.add(key(p)) !== undefined);
}

/** `path` as the shell reaches it from `cwd`, absolute; null when it is relative and the folder is not known. */
function absoluteIn(path: string, cwd: string | null, projectRoot: string): string | null {
  // `C:/x` names a drive only where the project is on Windows; elsewhere it is a folder `C:`.
  const relative = !path.startsWith('/') && !(WINDOWS_ROOT.test(projectRoot) && /^[A-Za-z]:[\\/]/.test(path));
  if (relative && cwd === null) return null;
  return absoluteKeepingBackslashes(path, cwd ?? '/', WINDOWS_ROOT.test(projectRoot));
}

function resolveWrite(write: FoundWrite, by: number, options: ShellWritesOptions, out: Written, unsure: string[]): void {
  const { target, cwd } = write;
  const who = write.by;
  if (target.path === null) return void unsure.push(`${who} writes to a path that is not static`);
  if (target.path === '') return;
  const absolute = absoluteIn(target.path, cwd, options.projectRoot);
  if (absolute === null) return void unsure.push(`${who} writes ${target.path} after a cd to a folder that is not known`);
  const base = cwd ?? '/';
  const paths: WrittenPath[] = [];
  const add = (abs: string) => {
    const path = normalizePath(abs, base, options.projectRoot);
    if (DEVICES.test(path)) return;
    if (target.named) out.linked.push({ absolute: abs, path });
    else if (!reopened(write, absolutePath(abs, '/'), options, paths, unsure)) paths.push({ absolute: abs, path });
  };
  const sources = target.sources;
  const folder = sources !== undefined && target.into !== false
    && (target.folder === true || /(?:^|\/)\.{0,2}$/.test(target.path) || options.isFolder?.(normalizePath(absolute, base, options.projectRoot)) === true);
  if (!folder) {
    add(absolute);
    for (const source of sources ?? []) newName(write, by, source, absolute, options, out, unsure);
  } else {
    for (const source of sources ?? []) {
      if (source === null) unsure.push(`${who} copies a file whose name is not static into ${target.path}`);
      else {
        const dest = `${absolute.replace(/\/+$/, '')}/${source.replace(/\/+$/, '').split('/').pop() ?? source}`;
        add(dest);
        newName(write, by, source, dest, options, out, unsure);
      }
    }
  }
  for (const p of paths) out.paths.push({ ...p, by });
}

/**
 * The new name `dest` a linking, copying or moving write gives `source` (as written), and
 * what it names again: a write for `ln` (which the docs say writes what its links lead
 * to), a second name for the others (ShellWrites.linked).
 */
function newName(write: FoundWrite, by: number, source: Arg, dest: string, options: ShellWritesOptions, out: Written, unsure: string[]): void {
  const { target, cwd } = write;
  if (!target.link || source === null) return;
  // Each name is looked at again for every write of the command: a command that makes
  // thousands would keep the hook busy for what no one needs.
  if (out.names.names.length >= MAX_NEW_NAMES) return void unsure.push(`it makes more than ${MAX_NEW_NAMES} links, copies or moves, too many to follow its writes through`);
  const from = target.link === 'symlink' && !target.fromCwd ? source : absoluteIn(source, cwd, options.projectRoot);
  if (from === null) return;
  const name = {
    dest: absolutePath(dest, '/'),
    kind: target.link,
    source: target.link === 'symlink' && !target.fromCwd ? from : absolutePath(from, '/'),
    by,
  };
  out.names.add(name);
  for (const absolute of out.names.namedBy(name)) {
    const path = normalizePath(absolute, '/', options.projectRoot);
    if (DEVICES.test(path)) continue;
    if (target.linkWrites) out.paths.push({ absolute, path, by });
    else out.linked.push({ absolute, path });
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
