import { expandHeaderEnv, headerEnvReferences, unsetHeaderEnv } from './header-env';

describe('headerEnvReferences', () => {
  it.each([
    ['Bearer ${HP_TOKEN}', [{ name: 'HP_TOKEN', offset: 7, length: 11 }]],
    ['$A-$b_2 ${C}', [{ name: 'A', offset: 0, length: 2 }, { name: 'b_2', offset: 3, length: 4 }, { name: 'C', offset: 8, length: 4 }]],
    ['price $5, ${}, ${1X}, $', []],
  ])('%s', (value, expected) => {
    expect(headerEnvReferences(value)).toEqual(expected);
  });
});

describe('expandHeaderEnv', () => {
  const env: Record<string, string> = { T: 's3cr3t', U: 'u', EMPTY: '' };
  const lookup = (n: string) => env[n];

  it('fills allowed names, braced or bare, and leaves others as written', () => {
    expect(expandHeaderEnv({ Authorization: 'Bearer ${T}', X: '$U:${OTHER}:$T$U' }, ['T', 'U'], lookup))
      .toEqual({ headers: { Authorization: 'Bearer s3cr3t', X: 'u:${OTHER}:s3cr3tu' }, unset: [] });
  });

  it('reads nothing without allowed names: the values as written', () => {
    expect(expandHeaderEnv({ A: 'Bearer ${T}' }, undefined, lookup)).toEqual({ headers: { A: 'Bearer ${T}' }, unset: [] });
  });

  it('an allowed name unset or empty: no headers at all, the names listed', () => {
    expect(expandHeaderEnv({ A: 'Bearer ${MISSING}', B: '$EMPTY', C: '$T' }, ['MISSING', 'EMPTY', 'T'], lookup)).toEqual({ headers: null, unset: ['EMPTY', 'MISSING'] });
    expect(unsetHeaderEnv({ A: '${T}' }, ['T'], lookup)).toEqual([]);
    expect(unsetHeaderEnv({ A: '${T}' }, ['T'], () => 'abc\r\nX-Evil: 1')).toEqual(['T']);
  });

  it('a value that contains $ and braces is not re-expanded', () => {
    expect(expandHeaderEnv({ A: '${T}' }, ['T'], () => '${U}')).toEqual({ headers: { A: '${U}' }, unset: [] });
  });
});
