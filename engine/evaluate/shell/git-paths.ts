/**
 * git subcommands that write the working-tree files they name: `checkout` and `restore`
 * (from a commit or the index), `rm`, `mv`, and `stash push` with pathspecs. The paths
 * they name are known writes, so `git checkout HEAD~1 -- .claude/policies.yaml` writes the
 * policy file as `cp` would. A pathspec is read as git reads it, relative to the working
 * folder: one with a wildcard (`'*.yaml'`, which git matches through folders) writes the
 * folder before its first wildcard; `:/x` is `x` from the project's root (the repository's
 * top, as far as the analysis knows); other magic (`:(top)`, `:!x`) is not known. What
 * such a subcommand does without naming paths (switching branches, `stash pop`) stays not
 * checkable, and so does what checkout, restore and stash run besides (filters, hooks).
 */
import type { CommandEffect } from './effects';
import { parseOptions } from './options';
import type { Arg } from './words';

/** What one subcommand names: its pathspecs, or why what it writes is not known. */
type Named = { pathspecs: Arg[]; unsure?: string } | { unsure: string } | { writesNothing: true };

/** The subcommands, each reading its own arguments (after the subcommand). */
const PATH_WRITERS = new Map<string, (args: readonly Arg[]) => Named>([
  ['checkout', (args) => runsRepositoryCode(checkoutPaths(args), 'git checkout can run the repository\'s post-checkout hook and filters')],
  ['restore', (args) => runsRepositoryCode(restorePaths(args), 'git restore can run the repository\'s filters')],
  ['rm', (args) => removedOrMoved(args, 'git rm', ['--cached'])],
  ['mv', (args) => removedOrMoved(args, 'git mv', [])],
  ['stash', (args) => runsRepositoryCode(stashPaths(args), 'git stash can run the repository\'s filters')],
]);

/**
 * Paths written out of the repository go through its filters (and, for checkout, its
 * post-checkout hook): programs its configuration names, which may write anything. So the
 * named paths are known writes and the rest is not checkable, as before these subcommands
 * were read at all: a rule's `unparsable` still decides what it does not catch.
 */
function runsRepositoryCode(named: Named, why: string): Named {
  if (!('pathspecs' in named)) return named;
  return { pathspecs: named.pathspecs, unsure: named.unsure ? `${named.unsure}; ${why}` : why };
}

/**
 * The effect of `git <sub> <args>` when `sub` writes the paths it names, in `folder` (the
 * `-C` folders joined; '' for none; null when not static); undefined for other subcommands.
 * @example gitPathWrites('rm', ['-f', 'a.txt'], '') // { writes: [{ path: 'a.txt' }] }
 */
export function gitPathWrites(sub: string, args: readonly Arg[], folder: string | null, top?: string): CommandEffect | undefined {
  const writer = PATH_WRITERS.get(sub);
  if (!writer) return undefined;
  const named = writer(args);
  if ('writesNothing' in named) return {};
  if (!('pathspecs' in named)) return { unsure: named.unsure };
  const writes = named.pathspecs.map((spec) => ({ path: spec?.startsWith(':/') ? fromTop(top, spec.slice(2)) : inFolder(folder, pathspecTarget(spec)) }));
  // `:/x` is the repository's top, taken for the project's: a repository above it reaches further.
  const unsure = [named.unsure, named.pathspecs.some((spec) => spec?.startsWith(':/')) ? `git ${sub} names a path from the repository's top (:/)` : undefined].filter((u) => u !== undefined);
  return unsure.length === 0 ? { writes } : { writes, unsure: unsure.join('; ') };
}

function fromTop(top: string | undefined, rest: string): Arg {
  const target = pathspecTarget(rest);
  return top === undefined || target === null ? null : `${top.replace(/\/+$/, '')}/${target === '.' ? '' : target}`.replace(/\/$/, '') || '/';
}

/**
 * The path a pathspec writes at most: itself; for a wildcard, the folder before it (git's
 * `*` matches `/` too); null for other magic (`:(glob)`, `:!x`), which can reach the whole
 * tree (gitPathWrites reads `:/x`, from the repository's top).
 * @example pathspecTarget('.claude/*.yaml') // '.claude'
 */
export function pathspecTarget(spec: Arg): Arg {
  if (spec === null || spec.startsWith(':')) return null;
  const wildcard = spec.search(/[*?[\\]/);
  if (wildcard < 0) return spec;
  const slash = spec.lastIndexOf('/', wildcard);
  return slash < 0 ? '.' : slash === 0 ? '/' : spec.slice(0, slash);
}

/**
 * True when `arg` cannot be a revision, so git takes it for a path: a ref has no component
 * starting with `.` and does not end with `/` (`.claude/policies.yaml`, `.`, `src/`).
 */
function cannotBeRevision(arg: string): boolean {
  return arg.endsWith('/') || arg.split('/').some((part) => part.startsWith('.'));
}

/** A revision whatever files exist: HEAD and its relatives, `@`, a hash, a `~`, `^` or `@{`. */
function surelyRevision(arg: string): boolean {
  return /^(?:HEAD|ORIG_HEAD|FETCH_HEAD|MERGE_HEAD|@)$/.test(arg) || /[~^]|@\{/.test(arg) || /^[0-9a-f]{7,40}$/.test(arg);
}

/**
 * `git checkout [<tree-ish>] [--] <pathspec>...`: after `--`, every operand; before it, a
 * first operand that could be a branch is one, unless the rest name paths. `-b`, `-B`,
 * `--orphan` and a lone branch switch the whole tree: not known.
 */
function checkoutPaths(args: readonly Arg[]): Named {
  const dash = args.indexOf('--');
  const before = parseOptions(dash < 0 ? args : args.slice(0, dash), { valued: 'bB', long: ['orphan', 'conflict'] });
  const after = dash < 0 ? [] : args.slice(dash + 1);
  if (['-b', '-B', '--orphan'].some((o) => before.options.has(o))) return { unsure: 'git checkout -b switches branches, which rewrites the working tree' };
  if (hasPathspecFile(before.options)) return { unsure: 'git checkout --pathspec-from-file names its paths in a file' };
  const [first, ...rest] = before.operands;
  if (dash >= 0) return before.operands.length <= 1 ? { pathspecs: after } : { pathspecs: [...rest, ...after] };
  if (first === undefined) return { unsure: 'git checkout without paths switches branches, which rewrites the working tree' };
  if (first !== null && cannotBeRevision(first)) return { pathspecs: before.operands };
  if (rest.length === 0) return { unsure: `git checkout ${first ?? '(an argument that is not static)'} may switch branches, which rewrites the working tree` };
  if (first !== null && surelyRevision(first)) return { pathspecs: rest };
  return { pathspecs: rest, unsure: `git checkout takes ${first ?? 'an argument that is not static'} for a file when no revision has that name` };
}

/** `git restore [--source <tree>] [--staged] [--worktree] <pathspec>...`: only --staged alone leaves the files. */
function restorePaths(args: readonly Arg[]): Named {
  const parsed = parseOptions(args, { valued: 's', long: ['source', 'conflict'] });
  if (hasPathspecFile(parsed.options)) return { unsure: 'git restore --pathspec-from-file names its paths in a file' };
  const has = (...names: string[]) => names.some((n) => parsed.options.has(n));
  if (has('-S', '--staged') && !has('-W', '--worktree')) return { writesNothing: true };
  return parsed.operands.length > 0 ? { pathspecs: parsed.operands } : { unsure: 'git restore without paths' };
}

/** `git rm` and `git mv`: every operand (an index-only option, a dry run: nothing). */
function removedOrMoved(args: readonly Arg[], name: string, indexOnly: readonly string[]): Named {
  const parsed = parseOptions(args);
  if (hasPathspecFile(parsed.options)) return { unsure: `${name} --pathspec-from-file names its paths in a file` };
  if ([...indexOnly, '-n', '--dry-run'].some((o) => parsed.options.has(o))) return { writesNothing: true };
  return { pathspecs: parsed.operands };
}

/** `git stash [push] [-m <message>] [--] <pathspec>...`; other stash subcommands are not path writers. */
function stashPaths(args: readonly Arg[]): Named {
  const pushed = args[0] === 'push' ? args.slice(1) : args[0] === undefined || args[0]?.startsWith('-') ? args : null;
  if (pushed === null) return args[0] === 'list' || args[0] === 'show' ? { writesNothing: true } : { unsure: 'git stash changes the working tree' };
  const parsed = parseOptions(pushed, { valued: 'm', long: ['message'] });
  if (hasPathspecFile(parsed.options)) return { unsure: 'git stash --pathspec-from-file names its paths in a file' };
  return parsed.operands.length > 0 ? { pathspecs: parsed.operands } : { unsure: 'git stash changes the working tree' };
}

function hasPathspecFile(options: ReadonlyMap<string, Arg[]>): boolean {
  return options.has('--pathspec-from-file');
}

function inFolder(folder: string | null, path: Arg): Arg {
  return path === null || folder === null ? null : joinFolder(folder, path);
}

/**
 * `path` from `folder` ('' for the working folder): `-C a -C b` runs git in `a/b`, and an
 * absolute one starts over.
 * @example joinFolder('a', 'b') // 'a/b'
 */
export function joinFolder(folder: string, path: string): string {
  return folder === '' || path.startsWith('/') ? path : `${folder}/${path}`;
}
