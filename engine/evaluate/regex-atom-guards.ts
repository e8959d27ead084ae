/**
 * A pre-pass of the backtracking classifier (regex-safety.ts): a group that is one
 * character atom behind a lookaround of bounded work, `(?:(?!git[ \t])[^;&|\n])`, matches one
 * character of the atom's set, and its lookaround costs a bounded number of steps at each
 * position. Such a group is read as the bare atom (`[^;&|\n]`): its set only grows, so every
 * way the real pattern can split a text is a way the relaxed one can, and what the
 * classifier passes stays linear. Shipped patterns use these guards to stop a scan where the
 * next command starts, which is what keeps them linear on padded input.
 */

/**
 * `source` with each `(?:(?!L)A)` / `(?:(?=L)A)` replaced by `A`, where A is one atom (a
 * class, an escape or a character) and L has no unbounded quantifier; else unchanged.
 * @example relaxAtomGuards('(?:(?!git )[^;])*') // '[^;]*'
 */
export function relaxAtomGuards(source: string): string {
  let out = '';
  for (let i = 0; i < source.length;) {
    const c = source[i];
    if (c === '\\') {
      out += source.slice(i, i + 2);
      i += 2;
    } else if (c === '[') {
      const end = classEnd(source, i);
      out += source.slice(i, end + 1);
      i = end + 1;
    } else if (source.startsWith('(?:(?!', i) || source.startsWith('(?:(?=', i)) {
      const relaxed = guardedAtom(source, i);
      if (relaxed) {
        out += relaxed.atom;
        i = relaxed.end;
      } else {
        out += c;
        i++;
      }
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

/** The atom of the guard group opened at `start`, and where the group ends; null when it is not one. */
function guardedAtom(source: string, start: number): { atom: string; end: number } | null {
  const lookStart = start + 3;
  const lookEnd = groupEnd(source, lookStart);
  if (lookEnd < 0 || hasUnboundedQuantifier(source.slice(lookStart + 3, lookEnd))) return null;
  const atomStart = lookEnd + 1;
  const a = source[atomStart];
  let atomEnd: number;
  if (a === '\\') atomEnd = atomStart + 2;
  else if (a === '[') atomEnd = classEnd(source, atomStart) + 1;
  else if (a !== undefined && !'()|*+?{^$'.includes(a)) atomEnd = atomStart + 1;
  else return null;
  if (source[atomEnd] !== ')') return null;
  return { atom: source.slice(atomStart, atomEnd), end: atomEnd + 1 };
}

/** The index of the `)` closing the group opened at `start`; -1 when there is none. */
function groupEnd(source: string, start: number): number {
  let depth = 0;
  for (let i = start; i < source.length; i++) {
    const c = source[i];
    if (c === '\\') i++;
    else if (c === '[') i = classEnd(source, i);
    else if (c === '(') depth++;
    else if (c === ')' && --depth === 0) return i;
  }
  return -1;
}

/** `*`, `+` or `{n,}` outside a class and not escaped. */
function hasUnboundedQuantifier(body: string): boolean {
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c === '\\') i++;
    else if (c === '[') i = classEnd(body, i);
    else if (c === '*' || c === '+' || (c === '{' && /^\{\d+,\}/.test(body.slice(i)))) return true;
  }
  return false;
}

function classEnd(source: string, start: number): number {
  for (let i = start + 1; i < source.length; i++) {
    if (source[i] === '\\') i++;
    else if (source[i] === ']') return i;
  }
  return source.length - 1;
}
