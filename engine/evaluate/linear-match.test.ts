import picomatch from 'picomatch';
import { linearProgram, safeMatching } from '../compile/linear-program';
import { linearTest } from './linear-match';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const fc = require('fast-check') as typeof import('fast-check');

describe('linearTest answers as the pattern does (property)', () => {
  const token = fc.constantFrom('a', 'b', 'ab', '.', '[ab]', '[^a]', '\\s', '\\w', '\\b', '\\B', '^', '$', 'a*', 'b+', 'a?', '(?:ab)*', '(a|b)+', '(?:a|)',
    'x{0,2}', 'b{2}', 'a{1,3}?', '(?=a)', '(?!b)', '(?<=a)', '(?<!b)', '\\n', '[\\s\\S]', '(?:a+|b)+', '(a|ab)*', '\\u00e9', 'k', '\\x41', '(?:(?!a)[^;])*', '|');
  const text = fc.string({ unit: fc.constantFrom('a', 'b', 'A', 'K', '\u212a', ' ', '\n', ';', 'x', '\u00e9', '\u00c9'), maxLength: 14 });
  test('on random patterns, texts and flags', () => {
    fc.assert(
      fc.property(fc.array(token, { maxLength: 7 }), text, fc.subarray(['i', 'm', 's', 'u']), (tokens, input, flagList) => {
        const source = tokens.join('');
        const flags = flagList.join('');
        let re: RegExp;
        try {
          re = new RegExp(source, flags);
        } catch {
          return true;
        }
        const program = linearProgram(source, flags);
        if (program === null) return true;
        return linearTest(program, input) === re.test(input) && linearTest(program, input, true) === new RegExp(source, flags.includes('i') ? flags : `${flags}i`).test(input);
      }),
      { seed: 20261130, numRuns: 4000 },
    );
  });

  test('on picomatch globs and paths', () => {
    const part = fc.constantFrom('a', 'b', '*', '**', '?', '.env', '{a,b}', '[ab]', '*.ts', '.', 'x+y', '!(a)', '+(a|b)', '@(x|y)', '*(a)', '\\*');
    const path = fc.array(fc.constantFrom('a', 'b', 'ab', '.env', '.', '..', 'x.ts', 'A', 'x+y', '*', 'aab'), { minLength: 1, maxLength: 5 }).map((s) => s.join('/'));
    fc.assert(
      fc.property(fc.array(part, { minLength: 1, maxLength: 4 }), path, (parts, p) => {
        const re = picomatch.makeRe(parts.join('/'), { dot: true });
        const program = linearProgram(re.source, `${re.flags}s`);
        if (program === null) return false;
        const native = new RegExp(re.source, `${re.flags}s`);
        return linearTest(program, p) === native.test(p) && linearTest(program, p, true) === new RegExp(re.source, `${re.flags}si`).test(p);
      }),
      { seed: 20261130, numRuns: 3000 },
    );
  });
});

describe('linearTest in linear time', () => {
  test.each<[string, string, string]>([
    ['**/a*a*a*a*a*a*a*b/**', 'a'.repeat(4000), 's'],
    ['**/x/**/y/**', '/x/y'.repeat(1000) + '/../q', 's'],
  ])('the glob %s on a crafted path', (glob, path) => {
    const re = picomatch.makeRe(glob, { dot: true });
    const guarded = safeMatching(re.source, `${re.flags}s`);
    expect(guarded.guard).toBe(true);
    const started = Date.now();
    expect(linearTest(guarded.linear!, path)).toBe(false);
    expect(linearTest(guarded.linear!, path, true)).toBe(false);
    expect(Date.now() - started).toBeLessThan(1000);
  });

  test('still finds the match a crafted text hides', () => {
    const re = picomatch.makeRe('**/a*a*a*a*a*a*a*b/**', { dot: true });
    const program = linearProgram(re.source, 's')!;
    expect(linearTest(program, `${'a'.repeat(3000)}/aaaaaaab/x`)).toBe(true);
    expect(linearTest(program, `${'a'.repeat(3000)}/AAAAAAAB/x`, true)).toBe(true);
    expect(linearTest(program, `${'a'.repeat(3000)}/AAAAAAAB/x`)).toBe(false);
  });
});

describe('linearProgram', () => {
  test.each<[string, string]>([
    ['(a)\\1', ''], // a backreference
    ['[\\q{ab|c}]', 'v'], // a class that matches strings
    ['(?=(a+)+b)x', ''], // a lookaround that may itself backtrack
    ['a{5000}', ''], // too many instructions once spelled out
    ['(?i-i:a)', ''], // not a pattern
  ])('takes no /%s/%s', (source, flags) => {
    expect(linearProgram(source, flags)).toBeNull();
  });

  test('a pattern at most quadratic needs nothing, a worse one is guarded', () => {
    expect(safeMatching('^(?:.*x.*)$', 's')).toEqual({});
    expect(safeMatching('^(?:.*x.*y.*)$', 's')).toMatchObject({ guard: true, linear: { start: expect.any(Number) } });
    expect(safeMatching('^(a)\\1.*x.*y.*$', 's')).toEqual({ guard: true });
  });

  test('keeps a modifier group\'s case folding in a case-insensitive reading', () => {
    const program = linearProgram('a(?-i:b)', 'i');
    expect(program?.atoms).toHaveLength(2);
    expect(program?.atoms).toEqual(expect.arrayContaining([['^(?:a)$', 'i'], ['^(?:b)$', '', 1]]));
    expect(linearTest(program!, 'Ab', true)).toBe(true);
    expect(linearTest(program!, 'AB', true)).toBe(false);
  });

  test('steps by code point under u', () => {
    const program = linearProgram('^.$', 'u')!;
    expect(linearTest(program, '\u{1F600}')).toBe(true);
    expect(linearTest(linearProgram('^.$', '')!, '\u{1F600}')).toBe(false);
  });
});
