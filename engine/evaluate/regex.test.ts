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
