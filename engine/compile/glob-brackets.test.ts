import fc from 'fast-check';
import picomatch from 'picomatch';
import { fcParams } from '../../test/support/fuzz-config';
import { unclosedBracket } from './glob-brackets';

/** True when picomatch in strict mode finds a `[` or `(` never closed. */
function strictlyUnclosed(glob: string): boolean {
  try {
    picomatch.makeRe(glob, { dot: true, strictBrackets: true });
    return false;
  } catch (error) {
    if (/Missing closing: "[\])]"/.test((error as Error).message)) return true;
    throw error;
  }
}

describe('unclosedBracket', () => {
  test.each<[string, number]>([
    ['src/[a-', 4],
    ['a[b]c[d', 5],
    ['src/[]', 4], // a ] right after [ is a member
    ['[^]', 0],
    ['[[:alpha:]', 0], // the POSIX class takes the first ]
    ['@(a|b', 1],
    ['src/(a', 4],
    ['(a)(b', 3],
    ['src/[a-z]/**', -1],
    ['src/[a-]', -1],
    ['[[]', -1],
    ['[]]', -1],
    ['[!]', -1],
    ['[[:alpha:]]', -1],
    ['[(]', -1], // ( inside a class is a character
    ['src/(a|b)/x', -1],
    ['!(*.md)', -1],
    ['src/\\[a', -1],
    ['src/\\(a', -1],
    ['[\\]', 0], // the ] is escaped
    ['a]b', -1],
    ['a)b', -1],
    ['**/*.{ts,tsx}', -1],
    ['app/[slug]/page.tsx', -1],
  ])('%s -> %d', (glob, expected) => {
    expect(unclosedBracket(glob)).toBe(expected);
  });

  test('finds what picomatch in strict mode finds, on globs made of brackets', () => {
    const part = fc.constantFrom('[', ']', '(', ')', '^', ':', 'a', '-', '!', '/', '{', '}', ',', '*', '|', '[:alpha:]', '@(', '+(');
    fc.assert(fc.property(fc.array(part, { maxLength: 8 }), (parts) => {
      const glob = parts.join('');
      let strict: boolean;
      try {
        strict = strictlyUnclosed(glob);
      } catch {
        return true; // picomatch stopped earlier, at a ] or ) it found unopened
      }
      return strict === unclosedBracket(glob) >= 0;
    }), fcParams(5));
  });
});
