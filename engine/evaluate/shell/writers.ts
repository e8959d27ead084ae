/**
 * Commands that write, delete or change files named on their command line. Each entry
 * says which arguments are the touched paths. chmod/chown count: changing a file's mode or
 * owner changes the file.
 */
import { writesOperands, type CommandEffect, type CommandSpec, type WriteTarget } from './effects';
import { optionValues, parseOptions, type ParsedArgs } from './options';
import type { Arg } from './words';

/** cp, mv, install and ln: `-t DIR`, else the last operand receives the others. */
function copyLike(parsed: ParsedArgs, movesSources: boolean): CommandEffect {
  const ops = parsed.operands;
  const writes: WriteTarget[] = [];
  const target = optionValues(parsed, '-t', '--target-directory');
  let sources: Arg[];
  if (target) {
    sources = ops;
    writes.push({ path: target[target.length - 1], sources, folder: true });
  } else if (ops.length >= 2) {
    sources = ops.slice(0, -1);
    const noFolder = parsed.options.has('-T') || parsed.options.has('--no-target-directory');
    writes.push(noFolder ? { path: ops[ops.length - 1] } : { path: ops[ops.length - 1], sources, folder: sources.length > 1 });
  } else {
    return {};
  }
  if (movesSources) for (const path of sources) writes.push({ path });
  return { writes };
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
  { names: ['cp'], nullArgs: 'safe', effect: (args) => copyLike(parseOptions(args, { valued: 'St', long: COPY_LONG }), false) },
  { names: ['mv'], nullArgs: 'safe', effect: (args) => copyLike(parseOptions(args, { valued: 'St', long: COPY_LONG }), true) },
  {
    names: ['install'],
    nullArgs: 'safe',
    effect: (args) => {
      const parsed = parseOptions(args, { valued: 'mogSt', long: [...COPY_LONG, 'mode', 'owner', 'group'] });
      if (parsed.options.has('-d') || parsed.options.has('--directory')) return writesOperands(parsed.operands);
      return copyLike(parsed, false);
    },
  },
  {
    // Both ends of a link count: writing through the link later writes its target.
    names: ['ln', 'link'],
    nullArgs: 'safe',
    effect: (args) => {
      const parsed = parseOptions(args, { valued: 'St', long: COPY_LONG });
      const ops = parsed.operands;
      const effect = writesOperands([...ops, ...(optionValues(parsed, '-t', '--target-directory') ?? [])]);
      // A relative symlink target is relative to the link's folder, not to the shell's.
      const [target, link] = ops;
      const symbolic = parsed.options.has('-s') || parsed.options.has('--symbolic');
      if (symbolic && ops.length === 2 && target && link && !target.startsWith('/') && link.includes('/')) {
        effect.writes?.push({ path: `${link.slice(0, link.lastIndexOf('/') + 1)}${target}` });
      }
      return effect;
    },
  },
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
      const parsed = parseOptions(args, { valued: 'efBT', long: ['exclude', 'include', 'rsh', 'filter', 'exclude-from', 'include-from', 'files-from', 'backup-dir', 'partial-dir', 'temp-dir', 'chmod', 'log-file', 'write-batch', 'only-write-batch', 'rsync-path'] });
      if (optionValues(parsed, '-e', '--rsh', '--rsync-path')) return { unsure: 'rsync -e runs a program of its own to connect' };
      const dest = parsed.operands.length >= 2 ? parsed.operands[parsed.operands.length - 1] : undefined;
      const log = [...(optionValues(parsed, '--log-file') ?? []), ...(optionValues(parsed, '--write-batch') ?? []), ...(optionValues(parsed, '--only-write-batch') ?? []), ...(optionValues(parsed, '--backup-dir') ?? [])];
      const remote = typeof dest === 'string' && (/^[^/]*:/.test(dest) || dest.startsWith('rsync://'));
      return writesOperands([...(dest !== undefined && !remote ? [dest] : []), ...log]);
    },
  },
  { names: ['patch'], nullArgs: 'safe', effect: () => ({ unsure: 'patch writes the files named inside the patch' }) },
];
