import { normalizePath, touchedPaths } from './paths';

describe('normalizePath', () => {
  test.each<[string, string, string, string]>([
    // raw, cwd, root, expected
    ['src/a.ts', '/proj', '/proj', 'src/a.ts'],
    ['/proj/src/a.ts', '/elsewhere', '/proj', 'src/a.ts'],
    ['a.ts', '/proj/src', '/proj', 'src/a.ts'],
    ['./src/./a.ts', '/proj', '/proj', 'src/a.ts'],
    ['../lib/b.ts', '/proj/src', '/proj', 'lib/b.ts'],
    ['src//deep///a.ts', '/proj', '/proj', 'src/deep/a.ts'],
    ['src/dir/', '/proj', '/proj', 'src/dir'],
    ['src\\win\\a.ts', '/proj', '/proj', 'src/win/a.ts'],
    ['/proj', '/proj', '/proj', '.'],
    ['.', '/proj', '/proj/', '.'],
    ['/etc/hosts', '/proj', '/proj', '/etc/hosts'],
    ['../outside/x', '/proj', '/proj', '/outside/x'],
    ['/proj-other/a', '/proj', '/proj', '/proj-other/a'],
    ['../../../../x', '/proj', '/proj', '/x'],
    ['C:\\proj\\src\\a.ts', 'C:\\proj', 'C:/proj', 'src/a.ts'],
    ['c:/proj/src/a.ts', 'C:\\proj', 'C:/proj', 'src/a.ts'],
    ['src\\a.ts', 'C:\\proj', 'C:/proj', 'src/a.ts'],
    ['..\\other\\a.ts', 'C:\\proj\\src', 'C:\\proj', 'other/a.ts'],
    ['D:\\data\\x.txt', 'C:\\proj', 'C:/proj', 'D:/data/x.txt'],
    ['C:\\Windows\\hosts', 'C:\\proj', 'C:/proj', 'C:/Windows/hosts'],
    ['a.ts', 'sub', '/proj', 'sub/a.ts'],
  ])('%s (cwd %s, root %s) -> %s', (raw, cwd, root, expected) => {
    expect(normalizePath(raw, cwd, root)).toBe(expected);
  });
});

describe('touchedPaths', () => {
  const root = '/proj';
  test.each<[string, Record<string, unknown>, string[]]>([
    ['Write', { tool_name: 'Write', tool_input: { file_path: '/proj/a.ts' } }, ['a.ts']],
    ['Edit', { tool_name: 'Edit', tool_input: { file_path: 'b.ts' } }, ['b.ts']],
    ['MultiEdit', { tool_name: 'MultiEdit', tool_input: { file_path: 'c.ts' } }, ['c.ts']],
    ['Read outside', { tool_name: 'Read', tool_input: { file_path: '/etc/passwd' } }, ['/etc/passwd']],
    ['NotebookEdit', { tool_name: 'NotebookEdit', tool_input: { notebook_path: 'n.ipynb' } }, ['n.ipynb']],
    ['Grep with path', { tool_name: 'Grep', tool_input: { path: 'src' } }, ['src']],
    ['Glob without path: cwd', { tool_name: 'Glob', tool_input: { pattern: '*' }, cwd: '/proj/src' }, ['src']],
    ['LS without path at root', { tool_name: 'LS', tool_input: {} }, ['.']],
    ['relative to cwd', { tool_name: 'Write', tool_input: { file_path: 'x.ts' }, cwd: '/proj/sub' }, ['sub/x.ts']],
    ['Bash touches nothing', { tool_name: 'Bash', tool_input: { command: 'ls' } }, []],
    ['no tool', {}, []],
    ['tool_input null', { tool_name: 'Write', tool_input: null }, []],
    ['file_path not a string', { tool_name: 'Write', tool_input: { file_path: 3 } }, []],
    ['empty file_path', { tool_name: 'Write', tool_input: { file_path: '' } }, []],
  ])('%s', (_name, fields, expected) => {
    expect(touchedPaths({ hook_event_name: 'PreToolUse', cwd: root, ...fields }, root)).toEqual(expected);
  });
});
