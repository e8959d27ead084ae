/**
 * Checks user regular expressions (rule `command`, let `extract`) and keeps them as sources.
 */
import { isSuperLinear } from '../evaluate/regex-safety';
import { requiredAlternatives, requiredLiteral, requiredLiterals } from './required-literal';
import type { RegexSource } from '../types';
import type { CompileContext } from './context';
import { at, report } from './context';

/**
 * The regex as a RegexSource, or null (with an `invalid-regex` diagnostic) when it does not compile.
 * `guard` says once, here, whether the pattern must run under the evaluator's watchdog.
 * @example compileRegex(ctx, '\\brm\\s+-rf', '', '/rules/0/command/0') // { source: '\\brm\\s+-rf', flags: '', guard: false }
 */
export function compileRegex(ctx: CompileContext, source: string, flags: string, pointer: string): RegexSource | null {
  try {
    new RegExp(source, flags);
    const compiled: RegexSource = { source, flags, guard: isSuperLinear(source, flags) };
    const literal = requiredLiteral(source, flags);
    const alternatives = requiredAlternatives(source, flags);
    // The stronger requirement: the longer literal, or a set whose every member is longer.
    if (alternatives && Math.min(...alternatives.map((l) => l.length)) > (literal?.length ?? 0)) compiled.anyOf = alternatives;
    else if (literal !== null) compiled.literal = literal;
    // The other required runs, even one character long (`\+` in a force push), checked
    // after those: a text that lacks one cannot match either.
    const others = requiredLiterals(source, flags).filter((l) => !(compiled.literal ?? '').includes(l));
    if (others.length > 0) compiled.allOf = others;
    return compiled;
  } catch (error) {
    report(ctx, 'invalid-regex', `Invalid regular expression: ${(error as Error).message}`, at(ctx, pointer));
    return null;
  }
}
