/**
 * Command-line options the way GNU tools read them: `-abc` bundles, `-oFILE` and `-o FILE`,
 * `--name=value` and `--name value`, `--` ending options. Unknown options are flags; an
 * argument with no static text is an operand (it could be anything).
 */
import type { Arg } from './words';

export interface OptionSpec {
  /** Short letters that take a value (attached or the next argument). */
  valued?: string;
  /** Short letters that take a value only when attached (`sed -i.bak`). */
  attached?: string;
  /** Long names (without `--`) that take the next argument as value when no `=` is given. */
  long?: readonly string[];
  /** Stop at the first operand: the rest is another command's (env, sudo, xargs). */
  stopAtOperand?: boolean;
}

export interface ParsedArgs {
  /** Operands in order. */
  operands: Arg[];
  /** Values by option (`-t`, `--target-directory`); a flag has the value ''. */
  options: Map<string, Arg[]>;
  /** With stopAtOperand: the arguments from the first operand on. */
  rest: Arg[];
}

/**
 * Splits arguments into options and operands.
 * @example parseOptions(['-t', 'dst', 'a', 'b'], { valued: 't' }).options.get('-t') // ['dst']
 */
export function parseOptions(args: readonly Arg[], spec: OptionSpec = {}): ParsedArgs {
  const valued = spec.valued ?? '';
  const attached = spec.attached ?? '';
  const long = spec.long ?? [];
  const operands: Arg[] = [];
  const options = new Map<string, Arg[]>();
  const add = (name: string, value: Arg) => options.set(name, [...(options.get(name) ?? []), value]);
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === null || arg === '-' || !arg.startsWith('-')) {
      if (spec.stopAtOperand) return { operands, options, rest: args.slice(i) };
      operands.push(arg);
      continue;
    }
    if (arg === '--') {
      if (spec.stopAtOperand) return { operands, options, rest: args.slice(i + 1) };
      operands.push(...args.slice(i + 1));
      break;
    }
    if (arg.startsWith('--')) {
      const eq = arg.indexOf('=');
      if (eq > 0) add(arg.slice(0, eq), arg.slice(eq + 1));
      else if (long.includes(arg.slice(2))) add(arg, i + 1 < args.length ? args[++i] : null);
      else add(arg, '');
      continue;
    }
    for (let j = 1; j < arg.length; j++) {
      const letter = arg[j];
      if (valued.includes(letter)) {
        add(`-${letter}`, j + 1 < arg.length ? arg.slice(j + 1) : i + 1 < args.length ? args[++i] : null);
        break;
      }
      if (attached.includes(letter)) {
        add(`-${letter}`, arg.slice(j + 1));
        break;
      }
      add(`-${letter}`, '');
    }
  }
  return { operands, options, rest: [] };
}

/**
 * The values of the first of several option names that is present, or undefined.
 * @example optionValues(parsed, '-t', '--target-directory') // ['dst']
 */
export function optionValues(parsed: ParsedArgs, ...names: string[]): Arg[] | undefined {
  for (const name of names) {
    const values = parsed.options.get(name);
    if (values) return values;
  }
  return undefined;
}
