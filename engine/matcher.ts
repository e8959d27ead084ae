/**
 * How Claude Code reads a settings.json `matcher` (reference section 2.3), in one place
 * for init (which writes matchers) and lint (which checks what settings route).
 */

/** A matcher made only of these characters is a list of exact names; anything else is a regex. */
export const EXACT_MATCHER = /^[A-Za-z0-9_|, -]*$/;
/** FileChanged and StopFailure read a narrower set as exact names. */
const NARROW_EXACT_MATCHER = /^[A-Za-z0-9_|]*$/;

/**
 * Whether Claude Code runs a group with `matcher` for `value`: `*`, `""` or no matcher
 * match everything; exact-name lists split on `|` or `,`; anything else is an unanchored
 * JavaScript regex (an invalid one matches nothing).
 * @example matcherAccepts('Write|Edit', 'Edit') // true
 * @example matcherAccepts('Edit.*', 'NotebookEdit') // true (unanchored regex)
 */
export function matcherAccepts(matcher: string | undefined, value: string, event = ''): boolean {
  if (matcher === undefined || matcher === '' || matcher === '*') return true;
  const exact = event === 'FileChanged' || event === 'StopFailure' ? NARROW_EXACT_MATCHER : EXACT_MATCHER;
  if (exact.test(matcher)) return matcher.split(/[|,]/).map((s) => s.trim()).includes(value);
  try {
    return new RegExp(matcher).test(value);
  } catch {
    return false;
  }
}
