import { anyMatch, toRegExp } from './regex';

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
  // Loaded per test so "the linear engine is (not) loaded" can be observed.
  function fresh(): typeof import('./regex') {
    let mod: typeof import('./regex') | undefined;
    jest.isolateModules(() => {
      mod = jest.requireActual<typeof import('./regex')>('./regex');
    });
    return mod as typeof import('./regex');
  }

  test('(a+)+$ against a^40! returns false, on the linear engine', () => {
    const regex = fresh();
    // Structural guard: the backtracking engine is never asked (it would take ~10^12 steps).
    const exec = jest.spyOn(RegExp.prototype, 'exec');
    const test_ = jest.spyOn(RegExp.prototype, 'test');
    try {
      expect(regex.policyRegexTest([{ source: '(a+)+$', flags: '' }], `${'a'.repeat(40)}!`)).toBe(false);
      expect(exec.mock.calls.some(([text]) => typeof text === 'string' && text.startsWith('aaaa'))).toBe(false);
      expect(test_.mock.calls.some(([text]) => typeof text === 'string' && text.startsWith('aaaa'))).toBe(false);
    } finally {
      exec.mockRestore();
      test_.mockRestore();
    }
    expect(regex.isLinearEngineLoaded()).toBe(true);
    expect(regex.policyRegexTest([{ source: '(a+)+$', flags: '' }], 'aaa')).toBe(true);
  });

  test('a safe pattern on a short text does not load the linear engine', () => {
    const regex = fresh();
    expect(regex.policyRegexTest([{ source: '\\brm\\s+-rf\\b', flags: '' }], 'rm -rf /')).toBe(true);
    expect(regex.isLinearEngineLoaded()).toBe(false);
  });

  test('any pattern on a text longer than the native limit runs on the linear engine', () => {
    const regex = fresh();
    const long = 'a'.repeat(regex.NATIVE_TEXT_LIMIT + 1);
    expect(regex.policyRegexTest([{ source: 'a.*b', flags: '' }], long)).toBe(false);
    expect(regex.isLinearEngineLoaded()).toBe(true);
  });

  test.each<[string, string, string, Array<string | undefined> | null]>([
    ['^version:\\s*(\\S+)', 'm', 'x\nversion: 3.1\n', ['version: 3.1', '3.1']],
    ['(a)|(b)', '', 'b', ['b', undefined, 'b']],
    ['HELLO', 'i', 'say hello', ['hello']],
    ['a.b', 's', 'a\nb', ['a\nb']],
    ['nope', '', 'text', null],
  ])('exec on both engines agrees: /%s/%s', (source, flags, text, expected) => {
    const regex = fresh();
    expect(regex.policyRegexExec({ source, flags }, text)).toEqual(expected);
    expect(regex.policyRegexExec({ source, flags }, text + ' '.repeat(regex.NATIVE_TEXT_LIMIT))).toEqual(expected);
  });

  test('a flagged pattern the linear engine cannot run is refused', () => {
    const regex = fresh();
    expect(() => regex.policyRegexTest([{ source: '(\\w+)\\s\\1', flags: '' }], 'the the')).toThrow(regex.UnsafeRegexError);
    expect(() => regex.policyRegexTest([{ source: '(\\w+)\\s\\1', flags: '' }], 'the the')).toThrow(/a backreference/);
  });

  test('an unflagged lookahead still runs natively on a long text', () => {
    const regex = fresh();
    expect(regex.policyRegexTest([{ source: '^(?!x)', flags: '' }], 'y'.repeat(regex.NATIVE_TEXT_LIMIT * 2))).toBe(true);
  });
});
