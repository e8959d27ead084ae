import { palette, useColor } from './color';

describe('useColor', () => {
  it.each<[Record<string, string>, boolean, boolean]>([
    [{}, true, true],
    [{}, false, false],
    [{ TERM: 'dumb' }, true, false],
    [{ NO_COLOR: '1' }, true, false],
    [{ NO_COLOR: 'anything' }, true, false],
    [{ NO_COLOR: '' }, true, true],
    [{ FORCE_COLOR: '1' }, false, true],
    [{ FORCE_COLOR: '2' }, false, true],
    [{ FORCE_COLOR: '3' }, false, true],
    [{ FORCE_COLOR: 'true' }, false, true],
    [{ FORCE_COLOR: '0' }, true, false],
    [{ FORCE_COLOR: 'false' }, true, false],
    [{ FORCE_COLOR: '' }, false, false],
    [{ FORCE_COLOR: 'yes' }, false, false],
    [{ FORCE_COLOR: '1', NO_COLOR: '1' }, false, true],
    [{ FORCE_COLOR: '0', NO_COLOR: '1' }, true, false],
  ])('%j, terminal %s: %s', (env, isTTY, expected) => {
    expect(useColor(env, isTTY)).toBe(expected);
  });
});

describe('palette', () => {
  it('wraps text in ANSI codes that close what they open, or leaves it as it is', () => {
    expect(palette(true).red('error')).toBe('\u001b[31merror\u001b[39m');
    expect(palette(true).bold(palette(true).yellow('x'))).toBe('\u001b[1m\u001b[33mx\u001b[39m\u001b[22m');
    expect(palette(true).dim('')).toBe('');
    expect(palette(false).red('error')).toBe('error');
  });
});
