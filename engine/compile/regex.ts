/**
 * Checks user regular expressions (rule `command`, let `extract`) and keeps them as sources.
 */
import { isSuperLinear } from '../evaluate/regex-safety';
import { prefilterOf } from './regex-prefilter';
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
    return { source, flags, guard: isSuperLinear(source, flags), ...prefilterOf(source, flags) };
  } catch (error) {
    report(ctx, 'invalid-regex', `Invalid regular expression: ${(error as Error).message}`, at(ctx, pointer));
    return null;
  }
}
