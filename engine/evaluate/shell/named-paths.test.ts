import { MAX_NAMED, namedInText, namedTokens } from './named-paths';
import type { Arg } from './words';
import { shellWrites } from './writes';

const root = '/proj';
const named = (command: string, cwd = root) => shellWrites(command, { cwd, projectRoot: root, home: '/home/u' }).named.map((p) => p.path);

describe('namedTokens: the path-like pieces of a command\'s words', () => {
  test.each<[Arg[], string[]]>([
    [['gzip', '.claude/policies.yaml'], ['.claude/policies.yaml']],
    // Pieces that only look like paths cost a look-up, nothing more.
    [['python3', '-c', "open('.claude/policies.yaml', 'w').write('')"], ['.claude/policies.yaml', '.write']],
    [['node', '-e', 'require("fs").rmSync(".claude/settings.json")'], ['.rmSync', '.claude/settings.json']],
    [['tool', '--output=out/x.txt', '-o', 'y.txt'], ['out/x.txt', 'y.txt']],
    [['node_modules/.bin/policy', 'uninstall'], ['node_modules/.bin/policy']],
    [['npm', 'test'], []],
    [['prettier', '--write', '.', '..', 'src'], []],
    [['tool', null, 'a.txt'], ['a.txt']],
    [['tool', 'a.txt', 'a.txt'], ['a.txt']],
  ])('%j -> %j', (argv, expected) => {
    expect(namedTokens(argv)).toEqual(expected);
  });

  test(`keeps at most ${MAX_NAMED} pieces`, () => {
    expect(namedTokens(['x', Array.from({ length: 200 }, (_, i) => `f${i}.txt`).join(' ')])).toHaveLength(MAX_NAMED);
  });

  test('PowerShell text: backslashes are separators', () => {
    expect(namedInText('Remove-Item -Force .claude\\policies.yaml; Get-Content C:\\x\\y.txt')).toEqual(['.claude/policies.yaml', '/x/y.txt']);
  });
});

describe('shellWrites: what the commands it cannot check name', () => {
  test.each<[string, string[]]>([
    ['gzip .claude/policies.yaml', ['.claude/policies.yaml']],
    ['cd .claude && gzip policies.yaml', ['.claude/policies.yaml']],
    ['sudo perl -pi -e s/deny/warn/ .claude/policies.yaml', ['s/deny/warn', '.claude/policies.yaml']],
    ['vim ~/.claude/settings.json', ['/home/u/.claude/settings.json']],
    // Checkable commands name nothing: their writes are known.
    ['cat .claude/policies.yaml && echo x > out.txt', []],
    ['rm -f a.txt', []],
  ])('%s names %j', (command, expected) => {
    expect(named(command)).toEqual(expected);
  });
});
