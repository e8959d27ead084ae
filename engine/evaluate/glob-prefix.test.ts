import { globRegex } from '../../test/support/compiled';
import { globPrefix, matchesAny } from './path-views';

const GLOBS = ['services/svc0/secrets/**', 'docs/generated-9/**', '.env', '**/.env', 'mission/**', 'src/*.ts', 'a+b/**', 'x{1,2}/y', '{src,lib}/**', 'Caf\u00e9/**', 'ops/golf-7/**', 'a?c/**', '[ab]x/**', 'dir/file.md'];
const PATHS = ['services/svc0/secrets/k', 'SERVICES/svc0/Secrets/k', 'services/svc01/secrets', 'docs/generated-9', 'docs/generated-9/a/b', '.env', '.ENV', 'a/.env', 'mission', 'mission/out.txt',
  'MISSION/x', 'missio', 'src/a.ts', 'a+b/c', 'x1/y', 'x2/y', 'src/x', 'lib/y', 'caf\u00e9/x', 'Caf\u00e9/x', 'CAF\u00c9/x', 'ops/golf-7/a', 'abc/d', 'ax/y', 'bx/y', 'dir/file.md', 'DIR/FILE.MD',
  '\u017fervices/svc0/secrets/k', 'o\u017fs/golf-7/a', 'docs/generated-9/\u212a', ''];

describe('globPrefix', () => {
  test.each([
    ['services/svc0/secrets/**', 'services/svc0/secrets'],
    ['.env', ''], // a bare name matches in any folder
    ['dir/file.md', 'dir/file.md'],
    ['**/.env', ''],
    ['{src,lib}/**', ''],
    ['a?c/**', 'a'],
  ])('%s starts with %p', (glob, prefix) => {
    expect(globPrefix(globRegex(glob))).toBe(prefix);
  });

  test('is never wrong: matchesAny with the prefix check answers as the regex alone, exact and case-folded', () => {
    for (const glob of GLOBS) {
      const source = globRegex(glob);
      const exact = new RegExp(source.source.normalize('NFC'), source.flags);
      const folded = new RegExp(source.source.normalize('NFC'), `${source.flags}i`);
      for (const path of PATHS) {
        expect([glob, path, matchesAny([source], path, false)]).toEqual([glob, path, exact.test(path)]);
        expect([glob, path, matchesAny([source], path, true)]).toEqual([glob, path, folded.test(path)]);
      }
    }
  });
});
