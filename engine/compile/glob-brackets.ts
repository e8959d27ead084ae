/**
 * Finds a `[` class or `(` group a glob opens and never closes. picomatch reads such a
 * bracket as a literal character, so `src/[a-` would quietly match only a file named
 * `[a-`; the compiler reports it instead.
 */

/**
 * The index of the first `[` or `(` that is never closed, or -1. Follows picomatch: `\`
 * escapes the next character; inside a class, a `]` right after `[` or `[^` is a member,
 * `[:name:]` is a POSIX class, and `(` is an ordinary character.
 * @example unclosedBracket('src/[a-') // 4
 * @example unclosedBracket('@(a|b') // 1
 * @example unclosedBracket('src/[a-z]/**') // -1
 */
export function unclosedBracket(glob: string): number {
  const parens: number[] = [];
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === '\\') i++;
    else if (c === '(') parens.push(i);
    else if (c === ')') parens.pop();
    else if (c === '[') {
      const end = classEnd(glob, i);
      if (end < 0) return i;
      i = end;
    }
  }
  return parens.length > 0 ? parens[0] : -1;
}

/** The index of the `]` closing the class opened at `open`, or -1. */
function classEnd(glob: string, open: number): number {
  let i = open + 1;
  if (glob[i] === '^') i++;
  if (glob[i] === ']') i++;
  for (; i < glob.length; i++) {
    const c = glob[i];
    if (c === '\\') i++;
    else if (c === ']') return i;
    else if (c === '[' && glob[i + 1] === ':') {
      const posixEnd = glob.indexOf(':]', i + 2);
      if (posixEnd >= 0) i = posixEnd + 1;
    }
  }
  return -1;
}
