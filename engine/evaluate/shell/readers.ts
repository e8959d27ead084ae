/**
 * Commands known to write no file (or only the files their options name), and the shell
 * builtins that set variables, aliases or traps. Together with writers.ts, downloads.ts
 * and runners.ts this is an allow list: a command that is in none of them is not
 * checkable (its effect on files is not known), however harmless its name sounds.
 */
import { writesOperands, type CommandEffect, type CommandSpec } from './effects';
import { gitEffect } from './git';
import { setChange, shoptChange } from './glob-options';
import { optionValues, parseOptions } from './options';
import { unsafeVariable, unsafeVariables } from './variables';
import type { Arg } from './words';

/**
 * Commands with no option that writes a file or runs a program: any arguments, static or
 * not, leave the disk as it was. Shell builtins included (`cd` is in runners.ts).
 */
export const PLAIN_READERS: readonly string[] = [
  // files and text
  'cat', 'ls', 'head', 'tail', 'wc', 'nl', 'tac', 'rev', 'cut', 'paste', 'tr', 'fold', 'expand', 'unexpand', 'column',
  'join', 'comm', 'cmp', 'diff', 'od', 'hexdump', 'strings', 'base64', 'base32', 'grep', 'egrep', 'fgrep', 'jq',
  'md5sum', 'sha1sum', 'sha224sum', 'sha256sum', 'sha384sum', 'sha512sum', 'b2sum', 'cksum', 'sum',
  'stat', 'du', 'df', 'basename', 'dirname', 'realpath', 'readlink', 'pwd',
  // the system
  'echo', 'true', 'false', ':', 'test', '[', 'sleep', 'seq', 'yes', 'expr', 'date', 'uname', 'hostname', 'whoami', 'id',
  'groups', 'logname', 'nproc', 'uptime', 'free', 'ps', 'pgrep', 'which', 'type', 'printenv', 'locale', 'getconf',
  'arch', 'tty', 'kill',
  // builtins that touch no file
  'exit', 'return', 'break', 'continue', 'shift', 'wait', 'jobs', 'times', 'umask', 'ulimit', 'dirs', 'help',
  'caller', 'let', 'unset', 'unalias', 'compgen', 'complete', 'local',
];

const unsure = (why: string): CommandEffect => ({ unsure: why });

/** `read [-a ARRAY] [NAME...]`: the variables it sets. */
function readEffect(args: readonly Arg[]): CommandEffect {
  const parsed = parseOptions(args, { valued: 'adinNptu' });
  const problem = unsafeVariables([...parsed.operands, ...(optionValues(parsed, '-a') ?? [])]);
  return problem ? unsure(problem) : {};
}

/** `mapfile`/`readarray [-C CALLBACK] [ARRAY]`: a callback runs with arguments read at run time. */
function mapfileEffect(args: readonly Arg[]): CommandEffect {
  const parsed = parseOptions(args, { valued: 'dnOsuCc' });
  if (parsed.options.has('-C')) return unsure('mapfile -C runs a callback with arguments read at run time');
  const problem = unsafeVariables(parsed.operands.slice(0, 1));
  return problem ? unsure(problem) : {};
}

/**
 * `set -a` (or `-o allexport`) exports every later assignment, lower-case names included;
 * `set -f` (`-o noglob`) turns pathname patterns off.
 */
function setEffect(args: readonly Arg[]): CommandEffect {
  const glob = setChange(args);
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === null) return unsure('a set option is not static');
    if (arg === '--' || arg === '-') break;
    if (/^-[A-Za-z]*a/.test(arg)) return unsure('set -a exports every variable set later');
    if (arg === '-o' && args[i + 1] === 'allexport') return unsure('set -o allexport exports every variable set later');
    if (!arg.startsWith('-') && !arg.startsWith('+')) break;
  }
  return glob ? { glob } : {};
}

/** `shopt -s|-u NAME...`: writes nothing; the pattern options it sets change what later words name. */
function shoptEffect(args: readonly Arg[]): CommandEffect {
  const glob = shoptChange(args);
  return glob ? { glob } : {};
}

/** `trap SCRIPT SIGNAL...`: the script runs later, at a time the analysis cannot know. */
function trapEffect(args: readonly Arg[]): CommandEffect {
  const parsed = parseOptions(args);
  if (parsed.options.has('-l') || parsed.options.has('-p') || parsed.operands.length < 2) return {};
  const script = parsed.operands[0];
  if (script === '-' || script === '') return {};
  return { script, deferred: true };
}

export const READERS: CommandSpec[] = [
  { names: PLAIN_READERS, nullArgs: 'safe', effect: () => ({}) },
  {
    names: ['rg'],
    effect: (args) => (args.some((a) => a !== null && /^--pre(?:-glob)?(?:=|$)/.test(a)) ? unsure('rg --pre runs a program on each file') : {}),
  },
  {
    // uniq [INPUT [OUTPUT]]: the second operand is written.
    names: ['uniq'],
    effect: (args) => writesOperands(parseOptions(args, { valued: 'fsw', long: ['skip-fields', 'skip-chars', 'check-chars'] }).operands.slice(1, 2)),
  },
  {
    names: ['tree'],
    effect: (args) => {
      const parsed = parseOptions(args, { valued: 'LPIoHT', long: ['charset', 'filelimit', 'timefmt', 'sort', 'fromfile'] });
      if (parsed.options.has('-R')) return unsure('tree -R writes a listing into every folder');
      return writesOperands(optionValues(parsed, '-o') ?? []);
    },
  },
  {
    names: ['file'],
    effect: (args) => (args.some((a) => a !== null && (/^-[A-Za-z]*C/.test(a) || a === '--compile')) ? unsure('file -C writes a compiled magic file') : {}),
  },
  {
    names: ['printf'],
    effect: (args) => {
      const name = args[0] === '-v' ? args[1] ?? null : args[0]?.startsWith('-v') ? args[0].slice(2) : undefined;
      const problem = name === undefined ? null : unsafeVariable(name);
      return problem ? unsure(problem) : {};
    },
  },
  { names: ['read'], effect: readEffect },
  { names: ['mapfile', 'readarray'], effect: mapfileEffect },
  {
    names: ['getopts'],
    effect: (args) => {
      const problem = unsafeVariable(args[1] ?? '');
      return problem ? unsure(problem) : {};
    },
  },
  { names: ['set'], effect: setEffect },
  { names: ['shopt'], nullArgs: 'safe', effect: shoptEffect },
  {
    // `alias name=value` changes what a later word runs; `alias` and `alias name` only print.
    names: ['alias'],
    effect: (args) => (args.some((a) => a === null || a.includes('=')) ? unsure('it defines an alias, which changes what later commands run') : {}),
  },
  {
    names: ['hash'],
    effect: (args) => (args.some((a) => a === null || /^-[A-Za-z]*p/.test(a)) ? unsure('hash -p changes which program a name runs') : {}),
  },
  { names: ['trap'], effect: trapEffect },
  { names: ['git'], effect: gitEffect },
];
