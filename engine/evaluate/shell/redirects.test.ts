import { FdTable, descriptorPath, procPath } from './fds';
import { applyRedirect, heldBy, type RedirectInput } from './redirects';

const file = (path: string) => ({ path, cwd: '/p' });
const redirect = (op: string, n: string, target: string | null, fds = FdTable.initial(), merge = false) =>
  applyRedirect({ op, n, target: () => target, cwd: '/p', fds, merge } satisfies RedirectInput);

describe('descriptor paths', () => {
  test.each<[string, ReturnType<typeof descriptorPath>]>([
    ['/dev/stdin', { fd: 0, rest: '' }],
    ['/dev/stdout', { fd: 1, rest: '' }],
    ['/dev/stderr', { fd: 2, rest: '' }],
    ['/dev/fd/3', { fd: 3, rest: '' }],
    ['/dev/fd/3/a.ts', { fd: 3, rest: '/a.ts' }],
    ['/proc/self/fd/12', { fd: 12, rest: '' }],
    ['/proc/thread-self/fd/4', { fd: 4, rest: '' }],
    ['/proc/self/task/77/fd/5', { fd: 5, rest: '' }],
    ['/dev/null', null],
    ['/dev/fdx/3', null],
    ['/proc/self/cwd/x', null],
  ])('%s', (path, expected) => {
    expect(descriptorPath(path)).toEqual(expected);
  });

  test.each<[string, ReturnType<typeof procPath>]>([
    ['/proc/self/cwd/src/a.ts', { kind: 'cwd', rest: '/src/a.ts' }],
    ['/proc/self/root/etc/x', { kind: 'root', rest: '/etc/x' }],
    ['/proc/123/fd/3', { kind: 'other-process', rest: '' }],
    ['/proc/123/cwd', { kind: 'other-process', rest: '' }],
    ['/proc/cpuinfo', null],
  ])('%s', (path, expected) => {
    expect(procPath(path)).toEqual(expected);
  });
});

describe('applyRedirect', () => {
  test('a file opened for reading is held, and written through its descriptor', () => {
    const opened = redirect('<', '3', 'src/a.ts');
    expect(opened).toEqual({ fds: expect.any(FdTable), touched: [3] });
    expect(opened.fds.get(3)).toEqual([file('/p/src/a.ts')]);
    expect(heldBy('/dev/fd/3', '/p', opened.fds)).toEqual([file('/p/src/a.ts')]);
  });

  test('writes report the file and hold it', () => {
    const r = redirect('&>', '', 'log.txt');
    expect([r.write, r.touched, r.fds.get(1), r.fds.get(2)]).toEqual(['log.txt', [1, 2], [file('/p/log.txt')], [file('/p/log.txt')]]);
  });

  test('duplicate, move, close', () => {
    const three = redirect('<', '3', 'a').fds;
    expect(redirect('<&', '4', '3', three).fds.get(4)).toEqual([file('/p/a')]);
    const moved = redirect('<&', '4', '3-', three).fds;
    expect([moved.get(4), moved.get(3)]).toEqual([[file('/p/a')], []]);
    expect(redirect('>&', '3', '-', three).fds.get(3)).toEqual([]);
    expect(redirect('>&', '2', '1').write).toBeUndefined();
  });

  test('opening /dev/stdout duplicates descriptor 1', () => {
    const one = redirect('<', '1', 'a').fds;
    expect(redirect('>', '5', '/dev/stdout', one).fds.get(5)).toEqual([file('/p/a')]);
  });

  test('a descriptor the shell numbers holds its file for any number not opened', () => {
    const t = redirect('<', '{fd}', 'a').fds;
    expect([t.unnumbered, heldBy('/dev/fd/10', '/p', t)]).toEqual([[file('/p/a')], [file('/p/a')]]);
  });

  test('inside a branch a descriptor gains files, and closing it keeps them', () => {
    const a = redirect('<', '3', 'a').fds;
    const both = redirect('<', '3', 'b', a, true).fds;
    expect(both.get(3)).toEqual([file('/p/a'), file('/p/b')]);
    expect(redirect('>&', '3', '-', both, true).fds.get(3)).toEqual([file('/p/a'), file('/p/b')]);
  });

  test('here-documents feed standard input and hold no file', () => {
    const t = redirect('<', '0', 'a').fds;
    expect(redirect('<<', '', null, t)).toMatchObject({ stdin: 'here', touched: [0] });
    expect(redirect('<<', '', null, t).fds.get(0)).toEqual([]);
  });

  test('a >& target that is not static is reported, and may hold any open file', () => {
    const t = redirect('<', '3', 'a').fds;
    const r = redirect('>&', '4', null, t);
    expect([r.unsure, r.fds.get(4)]).toEqual(['a >& redirection target is not static', [file('/p/a')]]);
  });
});

describe('FdTable', () => {
  test('restore puts back only the descriptors a statement set', () => {
    const before = FdTable.initial().set(3, [file('a')], false);
    const after = before.set(3, [file('b')], false).set(4, [file('c')], false);
    const restored = after.restore([3], before);
    expect([restored.get(3), restored.get(4)]).toEqual([[file('a')], [file('c')]]);
  });

  test('union and sameAs', () => {
    const a = FdTable.initial().set(3, [file('a')], false);
    const b = FdTable.initial().set(3, [file('b')], false);
    expect(a.union(b).get(3)).toEqual([file('a'), file('b')]);
    expect(a.sameAs(FdTable.initial().set(3, a.get(3), false))).toBe(true);
    expect(a.sameAs(b)).toBe(false);
  });
});
