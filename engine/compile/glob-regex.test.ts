import { inFreshProcess } from '../../test/support/fresh-process';
import { globRegex } from './glob-regex';

const matches = (glob: string, path: string) => {
  const r = globRegex(glob);
  if (!r) throw new Error(`glob ${glob} did not compile`);
  return new RegExp(r.source, r.flags).test(path);
};

describe('globRegex', () => {
  test.each([
    ['**', 'src/a.ts', true],
    ['**', '.env', true],
    ['**', '.git/config', true],
    ['**', '/etc/x', false],
    ['**', '../x', false],
    ['**', '../../x/y', false],
    ['**/*.test.*', 'src/a.test.ts', true],
    ['**/*.test.*', '/abs/a.test.ts', false],
    ['*.ts', 'a.ts', true],
    ['*.ts', '/a.ts', false],
    ['.env.*', '.env.local', true],
    ['src/**', 'src/deep/x.ts', true],
    ['src/**', 'lib/x.ts', false],
    ['!src/**', 'lib/x.ts', true],
    ['!src/**', '/etc/x', false],
    ['/etc/**', '/etc/x', true],
    ['/etc/**', '/etc/deep/y', true],
    ['/etc/**', 'etc/x', false],
    ['/etc/hosts', '/etc/hosts', true],
    ['/**', '/anything/at/all', true],
    ['/**', 'src/a.ts', false],
  ])('%s vs %s -> %s', (glob, path, expected) => {
    expect(matches(glob, path)).toBe(expected);
  });

  test('invalid globs give null', () => {
    expect(globRegex('')).toBeNull();
    expect(globRegex('{a,b')).toBeNull();
  });
});

type GlobModule = typeof import('./glob-regex');

/** Runs `run` as a new process would: the remembered globs are per process. */
const inProcess = <T>(run: (m: GlobModule, picomatchLoads: () => number) => T): T => inFreshProcess(() => require('./glob-regex') as GlobModule, run);

describe('remembered globs', () => {
  it('gives every caller an object of its own, and equal answers however often asked', () => {
    const a = globRegex('src/**');
    const b = globRegex('src/**');
    expect(a).toEqual(b);
    expect(a).not.toBe(b);
    expect(a?.globLiterals).not.toBe(b?.globLiterals);
  });

  it('hands what it made to the next process, which loads no picomatch for the globs it is given', () => {
    const globs = ['src/**', '/etc/**', '{a,b'];
    const first = inProcess((m, loads) => {
      const made = globs.map((g) => m.globRegex(g));
      expect(loads()).toBe(1);
      return { made, kept: m.globRegexes() };
    });
    expect(first.kept.map(([g]) => g)).toEqual(globs);
    inProcess((m, loads) => {
      m.rememberGlobRegexes(first.kept);
      expect(globs.map((g) => m.globRegex(g))).toEqual(first.made);
      expect(loads()).toBe(0);
      // A glob it was not given is made as before.
      expect(m.globRegex('*.ts')).toEqual(globRegex('*.ts'));
      expect(loads()).toBe(1);
    });
  });

  it('answers with what it was handed: the cache that keeps them is trusted as the compiled policy is', () => {
    inProcess((m) => {
      m.rememberGlobRegexes([['secrets/**', { source: '^planted$', flags: 's' }]]);
      expect(m.globRegex('secrets/**')).toEqual({ source: '^planted$', flags: 's' });
      // What it already knows is not replaced.
      m.rememberGlobRegexes([['secrets/**', { source: '^other$', flags: 's' }]]);
      expect(m.globRegex('secrets/**')?.source).toBe('^planted$');
    });
  });
});

describe('which globs the compiler guards', () => {
  test.each<[string, boolean]>([
    ['**/a*a*a*a*a*a*a*b/**', true],
    ['**/x/**/y/**', true],
    ['+(a|aa)/**', false],
    ['x*(a*)b', true],
    ['**/*.test.*', false],
    ['src/**/*.ts', false],
    ['**/.env', false],
  ])('%s: %p', (glob, guarded) => {
    expect(globRegex(glob)?.guard === true).toBe(guarded);
    expect(globRegex(glob)?.linear !== undefined).toBe(guarded);
  });

  // The compiler reads only globs with three or more runs of `*` or an extglob: with fewer,
  // picomatch's regex has fewer than three unbounded runs and nothing repeated.
  test('a glob it does not read is one the check passes (property)', () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const fc = require('fast-check') as typeof import('fast-check');
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { isSuperLinear } = require('../evaluate/regex-safety') as typeof import('../evaluate/regex-safety');
    const part = fc.constantFrom('a', '*', '**', '?', '.env', '{a,b}', '{a*,b}', '[ab]', '[!a]', '\\*', '.', 'x.y', '$', '~', '{1..3}', '[[:alpha:]]', 'a*b', '*.*');
    fc.assert(fc.property(fc.array(part, { minLength: 1, maxLength: 5 }), fc.constantFrom('', '/'), (parts, lead) => {
      const glob = lead + parts.join(parts.length % 2 ? '/' : '');
      if (glob.split(/\*+/).length - 1 >= 3) return true;
      const r = globRegex(glob);
      return r === null || !isSuperLinear(r.source.normalize('NFC'), r.flags, 'quadratic');
    }), { seed: 20261130, numRuns: 3000 });
  });
});
