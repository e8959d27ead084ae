/**
 * git: the subcommands known to write no file of the project (git's own files under .git
 * aside), run inside the project without options that point git at other configuration,
 * repositories or programs; and those that write the paths they name (git-paths.ts).
 * Everything else git does is not checkable.
 */
import { writesOperands, type CommandContext, type CommandEffect } from './effects';
import { gitPathWrites, joinFolder } from './git-paths';
import { parseOptions } from './options';
import type { Arg } from './words';

const unsure = (why: string): CommandEffect => ({ unsure: why });

/** git's own options before the subcommand that change nothing about what it runs. */
const GIT_FLAGS = new Set([
  '--no-pager', '-P', '-p', '--paginate', '--no-optional-locks', '--literal-pathspecs', '--glob-pathspecs',
  '--noglob-pathspecs', '--icase-pathspecs', '--no-replace-objects',
]);

/** git's options before the subcommand that take the next argument as their value. */
const GIT_VALUED = new Set(['-C', '-c', '--git-dir', '--work-tree', '--namespace', '--config-env', '--super-prefix']);

/** `git config` options that read, and those that only shape what is read. */
const CONFIG_READS = /^(?:--get|--get-all|--get-regexp|--list|-l)$/;
const CONFIG_FLAGS = /^(?:--show-origin|--show-scope|--name-only|-z|--null|--global|--local|--system|--includes|--no-includes|--type=.*|--default=.*)$/;

/** diff-like subcommands: `--output FILE` is the only option that writes. */
function gitDiffLike(args: readonly Arg[]): CommandEffect {
  const writes: Arg[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === '--') break;
    if (arg === '--output') writes.push(i + 1 < args.length ? args[++i] : null);
    else if (arg?.startsWith('--output=')) writes.push(arg.slice('--output='.length));
  }
  return writesOperands(writes);
}

/** Only listing: no operand names a branch, tag or remote to make, and no option changes one. */
function gitListing(flags: RegExp, operandsAllowed: boolean) {
  return (args: readonly Arg[]): CommandEffect => {
    const parsed = parseOptions(args, { long: ['sort', 'format', 'contains', 'no-contains', 'merged', 'no-merged', 'points-at', 'column'] });
    const options = [...parsed.options.keys()];
    const listing = options.some((o) => o === '-l' || o === '--list');
    if (options.every((o) => flags.test(o)) && (parsed.operands.length === 0 || (operandsAllowed && listing))) return {};
    return unsure('it changes git\'s branches, tags, remotes or stash');
  };
}

/** The git subcommands known to write no file of the project (git's own files under .git aside). */
const GIT_READERS: Record<string, (args: readonly Arg[]) => CommandEffect> = {
  status: () => ({}),
  diff: gitDiffLike,
  log: gitDiffLike,
  show: gitDiffLike,
  whatchanged: gitDiffLike,
  blame: () => ({}),
  annotate: () => ({}),
  grep: (args) => (args.some((a) => a === '-O' || a?.startsWith('-O') || a?.startsWith('--open-files-in-pager'))
    ? unsure('git grep -O opens the files in a program')
    : {}),
  'ls-files': () => ({}),
  'ls-tree': () => ({}),
  'rev-parse': () => ({}),
  'rev-list': () => ({}),
  'cat-file': () => ({}),
  describe: () => ({}),
  shortlog: () => ({}),
  'show-ref': () => ({}),
  'merge-base': () => ({}),
  'name-rev': () => ({}),
  'for-each-ref': () => ({}),
  'check-ignore': () => ({}),
  'check-attr': () => ({}),
  'count-objects': () => ({}),
  version: () => ({}),
  branch: gitListing(/^(?:-[alrv]|-vv|--list|--all|--remotes|--verbose|--show-current|--sort|--format|--contains|--no-contains|--merged|--no-merged|--points-at|--color|--no-color|--column|--no-column|--ignore-case)$/, true),
  tag: gitListing(/^(?:-l|-n\d*|--list|--sort|--format|--contains|--no-contains|--merged|--no-merged|--points-at|--color|--column|--no-column|--ignore-case)$/, true),
  remote: gitListing(/^(?:-v|--verbose)$/, false),
  config: (args) => {
    const options = args.filter((a): a is string => a !== null && a.startsWith('-'));
    const reads = options.some((o) => CONFIG_READS.test(o)) && options.every((o) => CONFIG_READS.test(o) || CONFIG_FLAGS.test(o));
    return reads ? {} : unsure('git config may change git\'s configuration');
  },
};

/**
 * git: the subcommands above, run inside the project (a repository elsewhere brings its
 * own configuration, which can make `git status` run a program), without options that
 * point git at other configuration, repositories or programs. The paths a checkout,
 * restore, rm, mv or stash names are written whatever its options and folder (not
 * checkable beyond them when git may not be the project's).
 * @example gitEffect(['diff', '--output=d.txt'], { stdin: { kind: 'none' }, inProject: true }) // { writes: [{ path: 'd.txt' }] }
 */
export function gitEffect(args: readonly Arg[], ctx: CommandContext): CommandEffect {
  let i = 0;
  // Why git may not be the project's, and the `-C` folders ('' for none, null when not static).
  let elsewhere: string | null = null;
  let folder: string | null = '';
  for (; i < args.length; i++) {
    const arg = args[i];
    if (arg === null) return unsure('a git argument is not static');
    if (!arg.startsWith('-')) break;
    // `--help` runs a viewer git's configuration names (`-c help.format=web -c web.browser=...`).
    if (arg === '--version' || arg === '--help' || arg === '-h') return elsewhere ? unsure(elsewhere) : {};
    if (GIT_FLAGS.has(arg)) continue;
    elsewhere ??= `git ${arg.replace(/=.*/, '')} points git at other configuration, folders or programs`;
    if (!GIT_VALUED.has(arg)) continue;
    const value = args[++i];
    if (arg === '-C') folder = folder === null || value === null || value === undefined ? null : joinFolder(folder, value);
  }
  const sub = args[i];
  if (sub === undefined) return elsewhere ? unsure(elsewhere) : {};
  const rest = args.slice(i + 1);
  // Paths named to checkout, restore, rm, mv or stash are written wherever git runs.
  const named = sub === null ? undefined : gitPathWrites(sub, rest, folder, ctx.projectRoot);
  if (named) {
    const why = elsewhere ?? (ctx.inProject === true ? null : `git ${sub} runs outside the project, whose repository configuration can run programs`);
    return why === null ? named : { ...named, unsure: named.unsure ? `${named.unsure}; ${why}` : why };
  }
  if (elsewhere) return unsure(elsewhere);
  const check = sub === null ? undefined : GIT_READERS[sub];
  if (!check) return unsure(`git ${sub ?? '(a subcommand that is not static)'} is not a git command known to leave the files alone`);
  if (rest.includes(null)) return unsure(`an argument of git ${sub} is not static`);
  if (ctx.inProject !== true) return unsure(`git ${sub} runs outside the project, whose repository configuration can run programs`);
  return check(rest);
}
