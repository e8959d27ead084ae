/**
 * What one simple command does to files, as data: the paths it writes, the commands or
 * scripts it runs, a change of working folder, or why its writes cannot be known.
 */
import type { GlobChange } from './glob-options';
import type { Arg } from './words';

export interface WriteTarget {
  path: Arg;
  /** Files copied, moved or linked into `path` when it is (or turns out to be) a folder. */
  sources?: Arg[];
  /** True when `path` must be a folder (`-t DIR`, several sources). */
  folder?: boolean;
  /** False when `path` is the new name itself even if it is a folder (`-T`). */
  into?: false;
  /**
   * The write gives each source a new name at the destination: `same`, the same file (a
   * hard link, a move: a symlink among them keeps its text, read again where it lands);
   * `symlink`, a symlink whose text is the source as written (`ln -s`, `cp -s`); `keeps`,
   * a copy that keeps the symlinks it meets (`cp -P`, `cp -a`, `cp -r`).
   */
  link?: 'same' | 'symlink' | 'keeps';
  /** With `link: symlink`: the text is the source as named from the working folder (`ln -sr`). */
  fromCwd?: true;
  /** What the new names lead to counts as written (`ln`, documented so), not only as named again. */
  linkWrites?: true;
  /** The path gets a new name, and is not written itself (`rsync --link-dest`). */
  named?: true;
}

/** Where the command's standard input comes from: a static here-document, a pipe, or nothing known. */
export type Stdin = { kind: 'none' } | { kind: 'pipe' } | { kind: 'text'; text: Arg };

export interface CommandContext {
  stdin: Stdin;
  home?: string;
  /** True when the command runs in a known folder inside the project (git trusts its repository there). */
  inProject?: boolean;
  /** Absolute project root, for what a command writes there wherever it runs (`policy init`). */
  projectRoot?: string;
  /** The team's `known_commands`, each as its first words: trusted to write nothing the analysis cannot see. */
  known?: readonly (readonly string[])[];
}

export interface CommandEffect {
  writes?: WriteTarget[];
  /** Why the command's writes cannot be known statically. */
  unsure?: string;
  /** A shell script the command runs (`bash -c`, `eval`); null when it is not static. */
  script?: Arg;
  /** The script runs in this shell (`eval`), so its `cd` outlasts it; otherwise in a child shell. */
  scriptInShell?: boolean;
  /** The script runs later, at a time that cannot be known (`trap`): in an unknown folder, with unknown descriptors. */
  deferred?: boolean;
  /** Other commands this one runs (`sudo`, `env`, `xargs`, `find -exec`), in `chdir` when given. */
  runs?: Array<{ argv: Arg[]; chdir?: Arg }>;
  /** `cd`: the new working folder, or null when it cannot be known. */
  cd?: Arg;
  /** `shopt`, `set -f`: what the command does to the pattern options of this shell (glob-options.ts). */
  glob?: GlobChange;
  /** A nested shell's own pattern options (`bash -O dotglob -c ...`), over bash's defaults. */
  scriptGlob?: GlobChange;
}

/** One entry of the command table: the names it answers to and what it does with its arguments. */
export interface CommandSpec {
  names: readonly string[];
  /**
   * 'safe' when an argument with no static text cannot make the command write more than
   * the spec reports (its operands are paths the spec already finds unknown, or it has no
   * option that writes); otherwise such an argument, which may be an option (`sort $X`
   * with X=-oFILE), makes the command not checkable.
   */
  nullArgs?: 'safe';
  effect(args: readonly Arg[], ctx: CommandContext): CommandEffect;
}

/**
 * Every operand is a written path.
 * @example writesOperands(['a', 'b']) // { writes: [{ path: 'a' }, { path: 'b' }] }
 */
export function writesOperands(operands: readonly Arg[]): CommandEffect {
  return { writes: operands.map((path) => ({ path })) };
}
