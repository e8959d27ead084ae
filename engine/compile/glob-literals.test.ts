import { globRegex } from '../../test/support/compiled';
import { globRegex as compiledGlob } from './glob-regex';
import { globLiterals } from './glob-literals';
import { matchesAny } from '../evaluate/path-views';

const globPrefix = (g: ReturnType<typeof globRegex>) => globLiterals(g).prefix;
const globRequired = (g: ReturnType<typeof globRegex>) => globLiterals(g).required;

const GLOBS = ['/etc/claude-code/**', '/**/.env', '/**/*.pem', '/home/u/.claude/settings.json', '**/.env.*', '**/*.pem', '.agent/teams/*/TEAM-MEMORY.md', '**/__tests__/**', '**/*.test.*', 'a/**/b.md', '**/x?y/z', 'services/svc0/secrets/**', 'docs/generated-9/**', '.env', '**/.env', 'mission/**', 'src/*.ts', 'a+b/**', 'x{1,2}/y', '{src,lib}/**', 'Caf\u00e9/**', 'ops/golf-7/**', 'a?c/**', '[ab]x/**', 'dir/file.md',
  '.', '.claude', 'policies.yaml', 'node_modules', 'a?b', '{x,y}'];
const PATHS = ['/etc/claude-code', '/etc/claude-code/x', '/ETC/claude-code/x', '/a/.env', '/a/b/.ENV', '/k.pem', '/home/u/.claude/settings.json', '/etc', '.env.local', 'a/.ENV.x', 'k.pem', 'a/b/K.PEM', '.agent/teams/t1/TEAM-MEMORY.md', '.agent/teams/t1/team-memory.md', 'src/__tests__/a.ts', 'src/a.test.ts', 'a/b.md', 'a/c/d/b.md', 'q/xay/z', 'q/xy/z', 'a/.\u212aNV', 'services/svc0/secrets/k', 'SERVICES/svc0/Secrets/k', 'services/svc01/secrets', 'docs/generated-9', 'docs/generated-9/a/b', '.env', '.ENV', 'a/.env', 'mission', 'mission/out.txt',
  'MISSION/x', 'missio', 'src/a.ts', 'a+b/c', 'x1/y', 'x2/y', 'src/x', 'lib/y', 'caf\u00e9/x', 'Caf\u00e9/x', 'CAF\u00c9/x', 'ops/golf-7/a', 'abc/d', 'ax/y', 'bx/y', 'dir/file.md', 'DIR/FILE.MD',
  '\u017fervices/svc0/secrets/k', 'o\u017fs/golf-7/a', 'docs/generated-9/\u212a', '',
  '.', './x', '.claude', '.CLAUDE', '.claude/x', 'a/.claude', 'policies.yaml', 'POLICIES.YAML', 'x/policies.yaml', 'node_modules', 'node_modules/x', 'a/node_modules', 'aab', 'x', 'y', 'xy'];

describe('globPrefix', () => {
  test.each([
    ['services/svc0/secrets/**', 'services/svc0/secrets'],
    ['.env', '.env'], // a name without a slash is the whole path (picomatch's own anchored group)
    ['.', '.'],
    ['node_modules', 'node_modules'],
    ['dir/file.md', 'dir/file.md'],
    ['**/.env', ''],
    ['{src,lib}/**', ''],
    ['a?c/**', 'a'],
    ['/etc/claude-code/**', '/etc/claude-code'],
    ['/**/.env', '/'],
  ])('%s starts with %p', (glob, prefix) => {
    expect(globPrefix(globRegex(glob))).toBe(prefix);
  });

  test.each([
    ['**/.env', '.env'],
    ['**/.env.*', '.env.'],
    ['.agent/teams/*/TEAM-MEMORY.md', '/TEAM-MEMORY.md'],
    ['services/svc0/secrets/**', 'services/svc0/secrets'],
    ['{src,lib}/**', ''],
    ['policies.yaml', 'policies.yaml'],
    ['{x,y}', ''],
  ])('every match of %s holds %p', (glob, text) => {
    expect(globRequired(globRegex(glob))).toBe(text);
  });

  test('is never wrong: matchesAny with the prefix check answers as the regex alone, exact and case-folded', () => {
    for (const glob of GLOBS) {
      const source = compiledGlob(glob)!;
      const exact = new RegExp(source.source.normalize('NFC'), source.flags);
      const folded = new RegExp(source.source.normalize('NFC'), `${source.flags}i`);
      for (const path of PATHS) {
        expect([glob, path, matchesAny([source], path, false)]).toEqual([glob, path, exact.test(path)]);
        expect([glob, path, matchesAny([source], path, true)]).toEqual([glob, path, folded.test(path)]);
      }
    }
  });
});

describe('the literals the compiler stores with a glob', () => {
  test.each([
    ['services/svc0/secrets/**', ['services/svc0/secrets', 'services/svc0/secrets']],
    ['**/.env', ['', '.env']],
    ['.claude', ['.claude', '.claude']],
    // None found is stored too: the runner then never reads the source again.
    ['{src,lib}/**', ['', '']],
  ])('%s carries %p', (glob, literals) => {
    expect(compiledGlob(glob)?.globLiterals).toEqual(literals);
  });

  test('are what the runner checks, not the source read again', () => {
    const stored = { ...compiledGlob('src/**')!, globLiterals: ['lib', 'lib'] as [string, string] };
    expect(matchesAny([compiledGlob('src/**')!], 'src/a.ts', false)).toBe(true);
    expect(matchesAny([stored], 'src/a.ts', false)).toBe(false);
  });
});

describe('a plain path is its own literal', () => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const fc = require('fast-check') as typeof import('fast-check');
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { isPlainPath } = require('./glob-regex') as typeof import('./glob-regex');
  test('as the regex reads it (property)', () => {
    const name = fc.string({ unit: fc.constantFrom('a', 'B', '.', '-', '_', ' ', '~', '#', ',', '=', '%', '&', "'", 'é', '*', '$', '{'), minLength: 1, maxLength: 6 });
    fc.assert(fc.property(fc.array(name, { minLength: 1, maxLength: 4 }), fc.boolean(), (names, absolute) => {
      const glob = `${absolute ? '/' : ''}${names.join('/')}`;
      if (!isPlainPath(glob)) return true;
      const compiled = compiledGlob(glob);
      return compiled !== null && JSON.stringify(compiled.globLiterals) === JSON.stringify([glob, glob])
        && JSON.stringify(globLiterals({ source: compiled.source, flags: compiled.flags })) === JSON.stringify({ prefix: glob, required: glob });
    }), { seed: 20261130, numRuns: 3000 });
  });

  test.each([['.claude', true], ['/etc/x', true], ['a//b', false], ['./a', false], ['a/../b', false], ['a/', false], ['a*', false], ['caf\u00e9', false]])('%s: %p', (glob, plain) => {
    expect(isPlainPath(glob as string)).toBe(plain);
  });
});
