/**
 * Commands that run other commands or code: prefixes (env, sudo, nohup, xargs...), find's
 * actions, shells (`bash -c`), eval, interpreters with inline code, and cd. A prefix hands
 * its command back to be analysed like any other; inline code in another language makes the
 * command unsure.
 */
import type { CommandEffect, CommandSpec, Stdin } from './effects';
import { optionValues, parseOptions, type OptionSpec, type ParsedArgs } from './options';
import { unsafeVariable } from './variables';
import { shellChange } from './glob-options';
import type { Arg } from './words';

/**
 * A prefix: its options, then the command it runs (after `skip` fixed operands such as
 * timeout's duration). `extra` adds the prefix's own effect; its `cd` is where the command
 * runs, and null from `extra` means the prefix runs nothing (`command -v`).
 */
function prefix(names: string[], spec: OptionSpec, extra?: (parsed: ParsedArgs) => CommandEffect | null, skip = 0): CommandSpec {
  return {
    names,
    nullArgs: 'safe',
    effect: (args) => {
      const parsed = parseOptions(args, { ...spec, stopAtOperand: true });
      const own = extra ? extra(parsed) : {};
      if (own === null) return {};
      const { cd, ...effect } = own;
      let argv = parsed.rest.slice(skip);
      // env and sudo take VAR=value assignments before the command.
      while (argv.length > 0 && typeof argv[0] === 'string' && /^[A-Za-z_][A-Za-z0-9_]*=/.test(argv[0])) {
        const problem = unsafeVariable(argv[0].slice(0, argv[0].indexOf('=')));
        if (problem) return { ...effect, unsure: problem };
        argv = argv.slice(1);
      }
      if (argv.length === 0) return effect;
      return { ...effect, runs: [{ argv, ...(cd !== undefined ? { chdir: cd } : {}) }] };
    },
  };
}

/** `env -C DIR` and `sudo -D DIR` run their command in DIR. */
const chdirOf = (...names: string[]) => (parsed: ParsedArgs): CommandEffect => {
  const dir = optionValues(parsed, ...names);
  return dir ? { cd: dir[dir.length - 1] } : {};
};

const SHELLS = ['sh', 'bash', 'zsh', 'dash', 'ksh', 'mksh', 'ash', 'yash', 'posh'];
const OTHER_SHELLS = ['fish', 'pwsh', 'powershell', 'cmd', 'nu', 'xonsh', 'elvish', 'tcsh', 'csh'];

/** `bash -c SCRIPT`, `bash <<EOF`, `... | bash`; `bash file.sh` runs a file, which is not looked into. */
function shellEffect(args: readonly Arg[], stdin: Stdin): CommandEffect {
  let inline = false;
  const operands: Arg[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === null || operands.length > 0 || arg === '-' || !/^[-+]/.test(arg)) {
      operands.push(arg);
      continue;
    }
    if (arg === '--') {
      operands.push(...args.slice(i + 1));
      break;
    }
    if (/^[-+][oO]$/.test(arg) || arg === '--rcfile' || arg === '--init-file') i++;
    else if (/^-[A-Za-z]*c[A-Za-z]*$/.test(arg)) inline = true;
  }
  const glob = shellChange(args);
  const options = glob ? { scriptGlob: glob } : {};
  if (inline) return { script: operands.length > 0 ? operands[0] : null, ...options };
  if (operands.length > 0 && operands[0] !== '-') return { unsure: `the shell runs the script file ${operands[0] ?? '(a name that is not static)'}, which is not looked into` };
  if (stdin.kind === 'text') return { script: stdin.text, ...options };
  if (stdin.kind === 'pipe') return { unsure: 'the shell runs a script read from a pipe' };
  return {};
}

/** Interpreters (name stems; a version may follow: python3.12) and the flags that give them code on the command line. */
const INTERPRETERS: Array<[string[], RegExp]> = [
  [['python'], /^-[A-Za-z]*c/],
  [['node', 'nodejs', 'bun'], /^(?:-e|-p|--eval|--print|-pe)(?:=|$)/],
  [['deno'], /^eval$/],
  [['perl', 'ruby'], /^-[A-Za-z]*[eE]/],
  [['php'], /^-[A-Za-z]*r/],
  [['lua', 'luajit', 'rscript', 'osascript'], /^-e$/],
];

/** Every interpreter name stem, for the pre-check. */
export const INTERPRETER_STEMS: readonly string[] = INTERPRETERS.flatMap(([stems]) => stems);

/** Flags that make an interpreter print and exit without running any code. */
const VERSION_FLAGS = /^(?:--version|-v|-V|--help|-h)$/;

function interpreterEffect(name: string, args: readonly Arg[], stdin: Stdin, inlineFlag: RegExp): CommandEffect {
  if (args.some((a) => a !== null && inlineFlag.test(a))) return { unsure: `it runs inline ${name} code` };
  const operands = args.filter((a) => a === null || a === '-' || !a.startsWith('-'));
  if ((operands.length === 0 || operands[0] === '-') && stdin.kind !== 'none') return { unsure: `it runs ${name} code read from standard input` };
  if (args.length === 1 && args[0] !== null && VERSION_FLAGS.test(args[0])) return {};
  if (args.length === 0) return {};
  return { unsure: `it runs ${name} code from a file or module, which is not looked into` };
}

export const RUNNERS: CommandSpec[] = [
  prefix(['env'], { valued: 'uCS', long: ['unset', 'chdir', 'split-string'] }, (parsed) => {
    const split = optionValues(parsed, '-S', '--split-string');
    return split ? { script: split[0] } : chdirOf('-C', '--chdir')(parsed);
  }),
  prefix(['builtin', 'nohup', 'setsid', 'busybox', 'chronic'], {}),
  prefix(['exec'], { valued: 'a' }),
  prefix(['command'], {}, (parsed) => (parsed.options.has('-v') || parsed.options.has('-V') ? null : {})),
  prefix(['sudo'], { valued: 'ughpCDrtTU', long: ['user', 'group', 'host', 'prompt', 'close-from', 'chdir', 'role', 'type', 'command-timeout', 'other-user'] }, chdirOf('-D', '--chdir')),
  prefix(['doas'], { valued: 'uC' }),
  prefix(['time'], { valued: 'of', long: ['output', 'format'] }, (parsed) => ({ writes: (optionValues(parsed, '-o', '--output') ?? []).map((path) => ({ path })) })),
  prefix(['nice'], { valued: 'n', long: ['adjustment'] }),
  prefix(['ionice'], { valued: 'cnp', long: ['class', 'classdata', 'pid'] }),
  prefix(['stdbuf'], { valued: 'ioe', long: ['input', 'output', 'error'] }),
  prefix(['timeout'], { valued: 'ks', long: ['kill-after', 'signal'] }, undefined, 1),
  {
    names: ['sudoedit'],
    nullArgs: 'safe',
    effect: (args) => ({ writes: parseOptions(args, { valued: 'ughpCDrtTU' }).operands.map((path) => ({ path })) }),
  },
  {
    // xargs adds arguments read from its input: they are unknown (null) here.
    names: ['xargs'],
    nullArgs: 'safe',
    effect: (args) => {
      const parsed = parseOptions(args, {
        valued: 'adEILnPs',
        attached: 'eil',
        long: ['arg-file', 'delimiter', 'eof', 'replace', 'max-lines', 'max-args', 'max-procs', 'max-chars', 'process-slot-var'],
        stopAtOperand: true,
      });
      const replace = optionValues(parsed, '-I', '--replace') ?? (parsed.options.has('-i') ? ['{}'] : undefined);
      const command = parsed.rest.length > 0 ? parsed.rest : ['echo'];
      const token = replace?.[0];
      if (replace && token === null) return { unsure: 'the xargs replacement string is not static' };
      const argv = token ? command.map((a) => (a !== null && a.includes(token) ? null : a)) : [...command, null];
      return { runs: [{ argv }] };
    },
  },
  {
    names: ['find'],
    effect: (args) => {
      const runs: Array<{ argv: Arg[] }> = [];
      const writes: Arg[] = [];
      for (let i = 0; i < args.length; i++) {
        const arg = args[i];
        if (arg === '-delete') return { unsure: 'find -delete removes files found at run time' };
        if (arg === '-fprint' || arg === '-fprint0' || arg === '-fls' || arg === '-fprintf') writes.push(args[++i] ?? null);
        if (arg === '-exec' || arg === '-execdir' || arg === '-ok' || arg === '-okdir') {
          const argv: Arg[] = [];
          for (i++; i < args.length && args[i] !== ';' && args[i] !== '+'; i++) argv.push(args[i]?.includes('{}') ? null : args[i]);
          runs.push({ argv });
        }
      }
      return { runs, writes: writes.map((path) => ({ path })) };
    },
  },
  {
    names: ['eval'],
    nullArgs: 'safe',
    effect: (args) => ({ script: args.includes(null) ? null : args.join(' '), scriptInShell: true }),
  },
  { names: SHELLS, nullArgs: 'safe', effect: (args, ctx) => shellEffect(args, ctx.stdin) },
  {
    names: OTHER_SHELLS,
    nullArgs: 'safe',
    effect: (args, ctx) => (args.length > 0 || ctx.stdin.kind !== 'none' ? { unsure: 'it runs a shell whose scripts are not parsed' } : {}),
  },
  {
    names: ['awk', 'gawk', 'mawk', 'nawk'],
    effect: (args) => {
      const parsed = parseOptions(args, { valued: 'fvFiEl', long: ['file', 'assign', 'field-separator', 'include', 'exec', 'load'] });
      if (optionValues(parsed, '-f', '--file', '-E', '--exec')) return { unsure: 'the awk program is read from a file' };
      if (optionValues(parsed, '-i', '--include')) return { unsure: 'the awk program includes a library (such as inplace)' };
      const program = parsed.operands[0];
      if (program === undefined) return {};
      if (program === null) return { unsure: 'the awk program is not static' };
      // `@include`/`@load` read code from files (gawk).
      return /[>|@]|system|getline/.test(program) ? { unsure: 'the awk program may write files or run commands' } : {};
    },
  },
  { names: ['cd'], nullArgs: 'safe', effect: (args, ctx) => ({ cd: cdTarget(parseOptions(args).operands, ctx.home) }) },
  { names: ['pushd'], nullArgs: 'safe', effect: (args) => ({ cd: args.length === 1 && args[0] !== null && !/^[-+]/.test(args[0]) ? args[0] : null }) },
  { names: ['popd'], nullArgs: 'safe', effect: () => ({ cd: null }) },
];

/**
 * The interpreter entry for a command name, if it is one.
 * @example interpreterFor('python3.12') // a spec whose effect flags `-c`
 */
export function interpreterFor(name: string): CommandSpec | null {
  const stem = name.replace(/[\d.]+$/, '');
  for (const [stems, inline] of INTERPRETERS) {
    if (stems.includes(stem)) return { names: [name], nullArgs: 'safe', effect: (args, ctx) => interpreterEffect(name, args, ctx.stdin, inline) };
  }
  return null;
}

function cdTarget(operands: readonly Arg[], home: string | undefined): Arg {
  if (operands.length === 0) return home ?? null;
  return operands[0] === '-' ? null : operands[0];
}
