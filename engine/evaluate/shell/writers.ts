/**
 * Commands that write, delete or change files named on their command line. Each entry
 * says which arguments are the touched paths. chmod/chown count: changing a file's mode or
 * owner changes the file.
 */
import { writesOperands, type CommandEffect, type CommandSpec, type WriteTarget } from './effects';
import { optionValues, parseOptions, type ParsedArgs } from './options';
import type { Arg } from './words';

/** cp, mv and install: `-t DIR`, else the last operand receives the others. */
function copyLike(parsed: ParsedArgs, movesSources: boolean, link?: WriteTarget['link']): CommandEffect {
  const ops = parsed.operands;
  const writes: WriteTarget[] = [];
  const target = optionValues(parsed, '-t', '--target-directory');
  const linked = link ? { link } : {};
  let sources: Arg[];
  if (target) {
    sources = ops;
    writes.push({ path: target[target.length - 1], sources, folder: true, ...linked });
  } else if (ops.length >= 2) {
    sources = ops.slice(0, -1);
    const noFolder = has(parsed, '-T', '--no-target-directory');
    writes.push(noFolder ? { path: ops[ops.length - 1], sources, into: false, ...linked } : { path: ops[ops.length - 1], sources, folder: sources.length > 1, ...linked });
  } else {
    return {};
  }
  if (movesSources) for (const path of sources) writes.push({ path });
  return { writes };
}

function has(parsed: ParsedArgs, ...names: string[]): boolean {
  return names.some((name) => parsed.options.has(name));
}

/**
 * What cp's copies are: hard links (`-l`), symlinks (`-s`), copies that keep the symlinks
 * they meet (`-P`, `-d`, `-a`, and `-R` unless `-L`), or plain copies (undefined).
 */
function cpLink(parsed: ParsedArgs): WriteTarget['link'] {
  if (has(parsed, '-l', '--link')) return 'same';
  if (has(parsed, '-s', '--symbolic-link')) return 'symlink';
  if (has(parsed, '-P', '-d', '-a', '--no-dereference', '--archive')) return 'keeps';
  return has(parsed, '-R', '-r', '--recursive') && !has(parsed, '-L', '--dereference') ? 'keeps' : undefined;
}

/**
 * ln: every operand is written (writing through a link writes its target), and each link
 * made is a new name for what it leads to: a hard link for its source, a symlink for its
 * text read from the link's folder (`ln -s -t src ../.claude/x` makes `src/x`, which is
 * `.claude/x`), or with `-r` for the source as named from the working folder.
 */
function lnEffect(args: readonly Arg[]): CommandEffect {
  const parsed = parseOptions(args, { valued: 'St', long: COPY_LONG });
  const ops = parsed.operands;
  const dir = optionValues(parsed, '-t', '--target-directory');
  const effect = writesOperands([...ops, ...(dir ?? [])]);
  const symbolic = has(parsed, '-s', '--symbolic');
  const made: Pick<WriteTarget, 'link' | 'linkWrites' | 'fromCwd'> = { link: symbolic ? 'symlink' : 'same', linkWrites: true };
  if (symbolic && has(parsed, '-r', '--relative')) made.fromCwd = true;
  const writes = effect.writes as WriteTarget[];
  if (dir) writes.push({ path: dir[dir.length - 1], sources: ops, folder: true, ...made });
  else if (ops.length === 1) writes.push({ path: '.', sources: ops, folder: true, ...made });
  else if (ops.length >= 2) {
    const sources = ops.slice(0, -1);
    const link = ops[ops.length - 1];
    // -n: a link name that is a symlink to a folder is replaced, not entered; which it is, is not looked up.
    if (has(parsed, '-T', '--no-target-directory', '-n', '--no-dereference')) writes.push({ path: link, sources, into: false, ...made });
    if (!has(parsed, '-T', '--no-target-directory')) writes.push({ path: link, sources, folder: sources.length > 1, ...made });
  }
  return effect;
}

const COPY_LONG = ['target-directory', 'suffix'];

/** GNU sed's `w`/`W` (write a file) and `e` (run a command), as a command or an `s///` flag. Heuristic. */
const SED_WRITE_OR_EXEC = /(?:^|[\s;{}/|#!,:@\d$]|[/|#,:@][gpiImM\d]+)[wWe](?:\s|;|$)/;

/** Commands whose every operand is a touched path, with the letters of options that take a value. */
const OPERAND_WRITERS: Array<[string[], string, string[]?]> = [
  [['rm', 'unlink', 'rmdir'], ''],
  [['shred'], 'ns', ['iterations', 'size', 'random-source']],
  [['touch'], 'rdt', ['reference', 'date']],
  [['mkdir'], 'm', ['mode']],
  // A FIFO where a file is read makes its reader wait: it creates a file as much as touch.
  [['mkfifo'], 'm', ['mode']],
  [['truncate'], 'rs', ['reference', 'size']],
  [['tee'], ''],
];

export const WRITERS: CommandSpec[] = [
  ...OPERAND_WRITERS.map(([names, valued, long]): CommandSpec => ({
    names,
    nullArgs: 'safe',
    effect: (args) => writesOperands(parseOptions(args, { valued, long }).operands),
  })),
  {
    // mknod NAME TYPE [MAJOR MINOR]: only the first operand is a path.
    names: ['mknod'],
    nullArgs: 'safe',
    effect: (args) => writesOperands(parseOptions(args, { valued: 'm', long: ['mode'] }).operands.slice(0, 1)),
  },
  {
    names: ['cp'],
    nullArgs: 'safe',
    effect: (args) => {
      const parsed = parseOptions(args, { valued: 'St', long: COPY_LONG });
      return copyLike(parsed, false, cpLink(parsed));
    },
  },
  { names: ['mv'], nullArgs: 'safe', effect: (args) => copyLike(parseOptions(args, { valued: 'St', long: COPY_LONG }), true, 'same') },
  {
    names: ['install'],
    nullArgs: 'safe',
    effect: (args) => {
      const parsed = parseOptions(args, { valued: 'mogSt', long: [...COPY_LONG, 'mode', 'owner', 'group'] });
      if (parsed.options.has('-d') || parsed.options.has('--directory')) return writesOperands(parsed.operands);
      return copyLike(parsed, false);
    },
  },
  { names: ['ln', 'link'], nullArgs: 'safe', effect: lnEffect },
  {
    names: ['chmod'],
    nullArgs: 'safe',
    effect: (args) => {
      // The first argument that is not one of chmod's flags is the mode, even `-x`.
      const byReference = args.some((a) => a !== null && a.startsWith('--reference'));
      const targets: Arg[] = [];
      let mode = byReference;
      let ended = false;
      for (const a of args) {
        if (!ended && a === '--') ended = true;
        else if (!ended && a !== null && (/^-[cfvR]+$/.test(a) || a.startsWith('--'))) continue;
        else if (!mode) mode = true;
        else targets.push(a);
      }
      return writesOperands(targets);
    },
  },
  {
    names: ['chown', 'chgrp'],
    nullArgs: 'safe',
    effect: (args) => {
      const parsed = parseOptions(args);
      return writesOperands(parsed.options.has('--reference') ? parsed.operands : parsed.operands.slice(1));
    },
  },
  {
    names: ['dd'],
    nullArgs: 'safe',
    effect: (args) => {
      if (args.includes(null)) return { unsure: 'a dd operand is not static' };
      return { writes: args.filter((a): a is string => a !== null && a.startsWith('of=')).map((a) => ({ path: a.slice(3) })) };
    },
  },
  {
    names: ['sed', 'gsed'],
    effect: (args) => {
      const parsed = parseOptions(args, { valued: 'efl', attached: 'i', long: ['expression', 'file', 'line-length'] });
      if (optionValues(parsed, '-f', '--file')) return { unsure: 'the sed script is read from a file' };
      const given = optionValues(parsed, '-e', '--expression');
      const scripts = given ?? parsed.operands.slice(0, 1);
      const files = given ? parsed.operands : parsed.operands.slice(1);
      if (scripts.some((s) => s === null)) return { unsure: 'the sed script is not static' };
      if (scripts.some((s) => SED_WRITE_OR_EXEC.test(s as string))) return { unsure: 'the sed script may write files or run commands (w, W or e)' };
      const inPlace = parsed.options.has('-i') || [...parsed.options.keys()].some((k) => k.startsWith('--in-place'));
      return inPlace ? writesOperands(files) : {};
    },
  },
  {
    names: ['sort'],
    effect: (args) => {
      const parsed = parseOptions(args, { valued: 'okStT', long: ['output', 'key', 'buffer-size', 'field-separator', 'temporary-directory', 'compress-program'] });
      if (optionValues(parsed, '--compress-program')) return { unsure: 'sort --compress-program runs a program' };
      return writesOperands(optionValues(parsed, '-o', '--output') ?? []);
    },
  },
  {
    names: ['rsync'],
    effect: (args) => {
      const parsed = parseOptions(args, { valued: 'efBT', long: ['exclude', 'include', 'rsh', 'filter', 'exclude-from', 'include-from', 'files-from', 'backup-dir', 'partial-dir', 'temp-dir', 'chmod', 'log-file', 'write-batch', 'only-write-batch', 'rsync-path', 'link-dest', 'compare-dest', 'copy-dest'] });
      if (optionValues(parsed, '-e', '--rsh', '--rsync-path')) return { unsure: 'rsync -e runs a program of its own to connect' };
      const dest = parsed.operands.length >= 2 ? parsed.operands[parsed.operands.length - 1] : undefined;
      const log = [...(optionValues(parsed, '--log-file') ?? []), ...(optionValues(parsed, '--write-batch') ?? []), ...(optionValues(parsed, '--only-write-batch') ?? []), ...(optionValues(parsed, '--backup-dir') ?? [])];
      const remote = typeof dest === 'string' && (/^[^/]*:/.test(dest) || dest.startsWith('rsync://'));
      const effect = writesOperands([...(dest !== undefined && !remote ? [dest] : []), ...log]);
      // --link-dest: unchanged files are hard links of that folder's (relative to the destination, or to here).
      for (const dir of optionValues(parsed, '--link-dest') ?? []) {
        const named: Arg[] = dir !== null && !dir.startsWith('/') && typeof dest === 'string' && !remote ? [dir, `${dest.replace(/\/+$/, '')}/${dir}`] : [dir];
        effect.writes?.push(...named.map((path): WriteTarget => ({ path, named: true })));
      }
      return effect;
    },
  },
  { names: ['patch'], nullArgs: 'safe', effect: () => ({ unsure: 'patch writes the files named inside the patch' }) },
];
