import fc from 'fast-check';
import { fcParams } from '../../../test/support/fuzz-config';
import { loadShellSyntax } from './parser';
import { mayWrite } from './precheck';
import { walkScript } from './walk';

describe('mayWrite', () => {
  test.each<[string, boolean]>([
    ['git status', false],
    ['npm test', false],
    ['ls -la src', false],
    ['cat src/app.ts', false],
    ['grep -n foo src/app.ts', false],
    ['git log --oneline | head -5', false],
    ['format src', false],
    ['echo hi > f', true],
    ['ls 2>&1', true],
    ['rm x', true],
    ['/bin/rm x', true],
    ['RM x', true],
    ["r''m x", true],
    ['r"m" x', true],
    ['\\rm x', true],
    ['r\\\nm x', true],
    ['{r,}m x', true],
    ['/bin/r? x', true],
    ['/bin/r[m] x', true],
    ['$CMD x', true],
    ['`echo rm` x', true],
    ['echo | bash', true],
    ['python3.12 tool.py', true],
    ['git rm x', true],
    ['find . -delete', true],
    ['xargs -0 rm', true],
  ])('%s -> %s', (command, expected) => {
    expect(mayWrite(command)).toBe(expected);
  });
});

describe('the pre-check never hides a write the parser finds', () => {
  const sh = loadShellSyntax();
  const token = fc.constantFrom(
    'echo', 'cat', 'ls', 'git', 'x', 'src/a.ts', '-f', '-i', '-t', 'dst', 'rm', 'tee', 'cp', 'mv', 'touch', 'sed', 'dd', 'of=f',
    "'s/a/b/'", 'r""m', "t''ee", '\\rm', 'bash', '-c', "'touch q'", 'env', 'A=1', 'sudo', 'xargs', 'find', '-delete', 'python3', 'cd',
    '&&', '||', ';', '|', '(', ')', '{', '}', '>', '>>', '2>&1', '<', '"a b"', '$X', '$(', '`', '~/x', '*', 'eval', 'chmod', '+x', 'ln',
  );
  test('property: writes or unsure imply mayWrite', () => {
    fc.assert(
      fc.property(fc.array(token, { minLength: 1, maxLength: 8 }), (tokens) => {
        const command = tokens.join(' ');
        const found = walkScript(sh, command, '/p', { home: '/h' });
        const parsed = !found.unsure.some((u) => u.startsWith('the command cannot be parsed'));
        if (parsed && (found.writes.length > 0 || found.unsure.length > 0)) expect(mayWrite(command)).toBe(true);
      }),
      fcParams(),
    );
  });
});
