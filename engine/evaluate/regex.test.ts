import { NATIVE_TEXT_LIMIT, UnsafeRegexError, anyMatch, policyRegexExec, policyRegexTest, toRegExp } from './regex';

describe('toRegExp', () => {
  test('caches by object and by source+flags', () => {
    const a = toRegExp({ source: '^a$', flags: 'i' });
    expect(toRegExp({ source: '^a$', flags: 'i' })).toBe(a);
    expect(toRegExp({ source: '^a$', flags: '' })).not.toBe(a);
    expect(a.test('A')).toBe(true);
  });

  test('drops g and y so test() has no state', () => {
    const re = toRegExp({ source: 'x', flags: 'gy' });
    expect(re.flags).toBe('');
    expect([re.test('ax'), re.test('ax')]).toEqual([true, true]);
  });

  test('anyMatch', () => {
    expect(anyMatch([{ source: '^b', flags: '' }, { source: 'c$', flags: '' }], 'abc')).toBe(true);
    expect(anyMatch([], 'abc')).toBe(false);
  });
});

describe('policy expressions cannot hang the runner', () => {
  test('(a+)+$ against a^40! is stopped by the watchdog instead of hanging', () => {
    let error: unknown;
    try {
      policyRegexTest([{ source: '(a+)+$', flags: '', guard: true }], `${'a'.repeat(40)}!`);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(UnsafeRegexError);
    expect((error as Error).message).toMatch(/^\/\(a\+\)\+\$\/ ran longer than 1000 ms on this text and was stopped \(a quantifier applied to a group/);
  });

  test('a guarded pattern still answers when it does not blow up', () => {
    expect(policyRegexTest([{ source: '(a+)+$', flags: '', guard: true }], 'aaa')).toBe(true);
    expect(policyRegexTest([{ source: '(a+)+$', flags: '', guard: true }], 'b')).toBe(false);
  });

  test('a hand-built source without the compiler flag is classified and guarded too', () => {
    expect(() => policyRegexTest([{ source: '(x+x+)+y', flags: '' }], 'x'.repeat(40))).toThrow(UnsafeRegexError);
  });

  test.each<[string, string, string, Array<string | undefined> | null]>([
    ['^version:\\s*(\\S+)', 'm', 'x\nversion: 3.1\n', ['version: 3.1', '3.1']],
    ['(a)|(b)', '', 'b', ['b', undefined, 'b']],
    ['HELLO', 'i', 'say hello', ['hello']],
    ['a.b', 's', 'a\nb', ['a\nb']],
    ['(\\w+)\\s\\1', '', 'the the', ['the the', 'the']],
    ['nope', '', 'text', null],
  ])('exec natively and under the watchdog agrees: /%s/%s', (source, flags, text, expected) => {
    expect(policyRegexExec({ source, flags }, text)).toEqual(expected);
    expect(policyRegexExec({ source, flags, guard: true }, text)).toEqual(expected);
    expect(policyRegexExec({ source, flags }, text + ' '.repeat(NATIVE_TEXT_LIMIT))).toEqual(expected);
  });
});

describe('the required-literal prefilter', () => {
  test('a text without the literal is settled without running the pattern, or its watchdog', () => {
    const exec = jest.spyOn(RegExp.prototype, 'exec');
    try {
      expect(policyRegexTest([{ source: '(a+)+push', flags: '', guard: true, literal: 'push' }], `${'a'.repeat(40)}!`)).toBe(false);
      expect(exec).not.toHaveBeenCalled();
    } finally {
      exec.mockRestore();
    }
  });

  test('a text with the literal still runs the pattern (case-folded under i)', () => {
    expect(policyRegexTest([{ source: 'git\\s+PUSH', flags: 'i', literal: 'push' }], 'GIT Push')).toBe(true);
    expect(policyRegexTest([{ source: 'git\\s+push', flags: '', literal: 'push' }], 'git  pull push')).toBe(false);
  });

  test('a set of alternatives: a text with none of them is settled without the pattern', () => {
    const exec = jest.spyOn(RegExp.prototype, 'exec');
    try {
      const pipe = { source: '\\b(?:curl|wget)\\b[^;&|]*\\|\\s*sh', flags: '', anyOf: ['curl', 'wget'] };
      expect(policyRegexTest([pipe], 'git status --short | sh')).toBe(false);
      expect(exec).not.toHaveBeenCalled();
      expect(policyRegexTest([pipe], 'wget -qO- x | sh')).toBe(true);
      expect(policyRegexTest([{ ...pipe, flags: 'i', anyOf: ['curl', 'wget'] }], 'CURL x | sh')).toBe(true);
    } finally {
      exec.mockRestore();
    }
  });

  test('every other required run: a text that lacks one is settled without the pattern', () => {
    const exec = jest.spyOn(RegExp.prototype, 'exec');
    try {
      const plusPush = { source: '\\bgit\\s+push\\b[^;&|]*\\s\\+(?:main|master)', flags: '', guard: true, literal: 'push', allOf: ['git', '+'] };
      expect(policyRegexTest([plusPush], 'git push origin main')).toBe(false);
      expect(exec).not.toHaveBeenCalled();
      expect(policyRegexTest([{ ...plusPush, guard: false }], 'git push origin +main')).toBe(true);
      expect(policyRegexTest([{ source: 'A.B', flags: 'i', allOf: ['a', 'b'] }], 'xAyCz')).toBe(false);
      expect(exec).toHaveBeenCalledTimes(1); // only the +main command ran the pattern
      expect(policyRegexTest([{ source: 'A.B', flags: 'i', allOf: ['a', 'b'] }], 'XaYbZ')).toBe(true);
    } finally {
      exec.mockRestore();
    }
  });
});
