/**
 * Shell variables a command may set without changing what a known command does. `PATH`
 * picks the program that `ls` runs, `GIT_EXTERNAL_DIFF` makes `git diff` run one,
 * `BASH_ENV` makes `bash -c` source a file first, `HOME` moves `~` and git's config:
 * setting such a variable makes the command not checkable. Allowed: names in lower case
 * (by convention the shell's own, never read by the programs the analysis knows) and a
 * few upper-case ones that only change language, time zone or colours.
 */
import type { Arg } from './words';

const SAFE_UPPER = /^(?:LANG|LANGUAGE|LC_[A-Z]+|TZ|TERM|COLUMNS|LINES|NO_COLOR|FORCE_COLOR|CLICOLOR|CLICOLOR_FORCE|CI|GREP_COLOR|GREP_COLORS|LS_COLORS)$/;
const LOWER = /^[a-z_][a-z0-9_]*$/;

/**
 * Why setting the variable `name` makes the command not checkable, or null when it is harmless.
 * @example unsafeVariable('PATH') // 'it sets PATH, which changes what later commands run'
 * @example unsafeVariable('file') // null
 */
export function unsafeVariable(name: Arg): string | null {
  if (name === null) return 'it sets a variable whose name is not static';
  if (LOWER.test(name) || SAFE_UPPER.test(name)) return null;
  return `it sets ${name}, which can change what later commands do`;
}

/**
 * The first problem among several variable names, or null.
 * @example unsafeVariables(['x', 'HOME']) // 'it sets HOME, ...'
 */
export function unsafeVariables(names: readonly Arg[]): string | null {
  for (const name of names) {
    const problem = unsafeVariable(name);
    if (problem) return problem;
  }
  return null;
}
