import fc from 'fast-check';
import { fcParams } from '../../../test/support/fuzz-config';
import { loadShellSyntax } from './parser';
import { plainCommands } from './precheck';
import { walkPlain, walkScript, type WalkResult } from './walk';

describe('plainCommands', () => {
  test.each<[string, Array<[string, string[]]> | null]>([
    ['git status', [['', ['git', 'status']]]],
    ['ls -la src && git status --short', [['', ['ls', '-la', 'src']], ['&&', ['git', 'status', '--short']]]],
    ['git log --oneline | head -5', [['', ['git', 'log', '--oneline']], ['|', ['head', '-5']]]],
    ['rm -rf build; ls\nnpm test', [['', ['rm', '-rf', 'build']], [';', ['ls']], [';', ['npm', 'test']]]],
    ['a || b', [['', ['a']], ['||', ['b']]]],
    ['ls;', [['', ['ls']]]],
    ['ls\n\n', [['', ['ls']]]],
    ['', []],
    // anything else is the parser's
    ['echo hi > f', null],
    ['ls 2>&1', null],
    ["r''m x", null],
    ['r"m" x', null],
    ['\\rm x', null],
    ['{r,}m x', null],
    ['/bin/r? x', null],
    ['$CMD x', null],
    ['`echo rm` x', null],
    ['ls &', null],
    ['ls |& cat', null],
    ['A=1 ls', null],
    ['export x=1', null],
    ['if true', null],
    ['time ls', null],
    ['echo x # y', null],
    ['cat ~/x', null],
    ['! ls', null],
    ['(ls)', null],
    ['ls &&', null],
    ['&& ls', null],
    ['ls && ; ls', null],
  ])('%j', (command, expected) => {
    const got = plainCommands(command);
    expect(got === null ? null : got.map((c) => [c.join, c.argv])).toEqual(expected);
  });
});

describe('the fast path finds what the parser finds', () => {
  const sh = loadShellSyntax();
  const options = { home: '/h', projectRoot: '/p' };
  const token = fc.constantFrom(
    'echo', 'cat', 'ls', 'git', 'status', 'log', '--output=o.txt', 'x', 'src/a.ts', '-f', '-i', '-t', 'dst', 'rm', 'tee', 'cp', 'mv', 'touch',
    'sed', 'dd', 'of=f', 'bash', '-c', 'env', 'A=1', 'a=1', 'sudo', 'xargs', 'find', '-delete', 'python3', '--version', 'cd', 'sub', '..',
    '/tmp', 'npm', 'test', 'RM', '/bin/rm', './tool', 'eval', 'chmod', '+x', 'ln', '-s', 'trap', 'EXIT', 'set', '-a', 'read', 'PATH',
    '/dev/stdout', '/proc/self/cwd/q', '&&', '||', ';', '|', '\n',
  );
  const strip = (r: WalkResult) => ({ writes: r.writes.map((w) => ({ target: w.target, cwd: w.cwd, by: w.by })), unsure: [...r.unsure].sort() });

  test('property: a plain command gives the same writes and reasons either way, or goes to the parser', () => {
    fc.assert(
      fc.property(fc.array(token, { minLength: 1, maxLength: 8 }), (tokens) => {
        const command = tokens.join(' ');
        const plain = plainCommands(command);
        if (plain === null) return;
        const fast = walkPlain(plain, '/p', options);
        if (fast === null) return;
        expect(strip(fast)).toEqual(strip(walkScript(sh, command, '/p', options)));
      }),
      fcParams(),
    );
  });
});
