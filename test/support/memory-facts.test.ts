import { MemoryFacts } from './memory-facts';

describe('MemoryFacts', () => {
  const facts = new MemoryFacts({
    'src/a.ts': { content: 'héllo' },
    'src/.hidden/b.md': { size: 40, mtimeMs: 5 },
    '.env': { content: 'X=1' },
  });

  test.each<[string, 'file' | 'dir' | null]>([
    ['src/a.ts', 'file'], ['src', 'dir'], ['src/.hidden', 'dir'], ['src/', 'dir'], ['.', 'dir'], ['nope', null], ['sr', null],
  ])('stat %s', (path, expected) => {
    expect(facts.stat(path)).toBe(expected);
  });

  test('findFiles uses dot:true globs, sorted by path, with sizes in bytes', () => {
    expect(facts.findFiles('**')).toEqual([
      { path: '.env', size: 3, mtimeMs: 0 },
      { path: 'src/.hidden/b.md', size: 40, mtimeMs: 5 },
      { path: 'src/a.ts', size: 6, mtimeMs: 0 },
    ]);
    expect(facts.findFiles('src/*.ts').map((f) => f.path)).toEqual(['src/a.ts']);
  });

  test('readText reads at most maxBytes', () => {
    expect(facts.readText('src/a.ts', 100)).toBe('héllo');
    expect(facts.readText('src/a.ts', 1)).toBe('h');
    expect(facts.readText('missing', 10)).toBeNull();
  });
});
