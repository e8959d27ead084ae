import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { createFileFacts } from './file-facts';

let root: string;

function write(rel: string, content: string, mtime?: number): void {
  const file = path.join(root, rel);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, content);
  if (mtime !== undefined) fs.utimesSync(file, mtime / 1000, mtime / 1000);
}

beforeEach(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'facts-'))).split(path.sep).join('/');
  write('src/a.ts', 'aaaa', 1_700_000_000_000);
  write('src/deep/b.ts', 'bb', 1_700_000_100_000);
  write('src/deep/c.md', 'c');
  write('.env', 'SECRET=1');
  write('.agent/teams/red/global-context.md', 'version: 3\n');
  write('.agent/teams/blue/global-context.md', 'version: 4\n');
  write('node_modules/pkg/index.ts', 'x');
  write('.git/HEAD', 'ref');
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

describe('findFiles', () => {
  it.each([
    ['**/*.ts', ['src/a.ts', 'src/deep/b.ts']],
    ['src/**', ['src/a.ts', 'src/deep/b.ts', 'src/deep/c.md']],
    ['src/*.ts', ['src/a.ts']],
    ['./src/deep/*', ['src/deep/b.ts', 'src/deep/c.md']],
    ['.agent/teams/*/global-context.md', ['.agent/teams/blue/global-context.md', '.agent/teams/red/global-context.md']],
    ['**/.env', ['.env']],
    ['**/*.{md,ts}', ['.agent/teams/blue/global-context.md', '.agent/teams/red/global-context.md', 'src/a.ts', 'src/deep/b.ts', 'src/deep/c.md']],
    ['node_modules/**/*.ts', ['node_modules/pkg/index.ts']],
    ['.git/*', ['.git/HEAD']],
    ['src/a.ts', ['src/a.ts']],
    ['src/missing.ts', []],
    ['nowhere/**', []],
  ])('%s', (glob, expected) => {
    expect(createFileFacts(root).findFiles(glob).map((f) => f.path)).toEqual(expected);
  });

  it('reports sizes and modification times', () => {
    const found = createFileFacts(root).findFiles('src/**/*.ts');
    expect(found).toEqual([
      { path: 'src/a.ts', size: 4, mtimeMs: 1_700_000_000_000 },
      { path: 'src/deep/b.ts', size: 2, mtimeMs: 1_700_000_100_000 },
    ]);
  });

  it('keeps paths outside the project absolute', () => {
    const outside = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'outside-'))).split(path.sep).join('/');
    try {
      fs.writeFileSync(path.join(outside, 'notes.md'), 'hello');
      const facts = createFileFacts(root);
      expect(facts.findFiles(`${outside}/*.md`).map((f) => f.path)).toEqual([`${outside}/notes.md`]);
      const rel = path.posix.relative(root, outside);
      expect(facts.findFiles(`${rel}/*.md`).map((f) => f.path)).toEqual([`${outside}/notes.md`]);
    } finally {
      fs.rmSync(outside, { recursive: true, force: true });
    }
  });

  it('returns an absolute glob inside the project as project-relative paths', () => {
    expect(createFileFacts(root).findFiles(`${root}/src/*.ts`).map((f) => f.path)).toEqual(['src/a.ts']);
  });

  it('stops after visiting maxEntries entries', () => {
    for (let i = 0; i < 50; i++) write(`many/f${String(i).padStart(2, '0')}.txt`, 'x');
    const found = createFileFacts(root, { maxEntries: 10 }).findFiles('many/*.txt');
    expect(found).toHaveLength(10);
    expect(createFileFacts(root).findFiles('many/*.txt')).toHaveLength(50);
  });

  it('does not follow a symlinked folder into a cycle', () => {
    fs.symlinkSync(root, path.join(root, 'src', 'loop'));
    expect(createFileFacts(root).findFiles('src/**/*.ts').map((f) => f.path)).toEqual(['src/a.ts', 'src/deep/b.ts']);
  });
});

describe('stat', () => {
  it.each([
    ['src/a.ts', 'file'],
    ['src', 'dir'],
    ['.agent/teams/red', 'dir'],
    ['src/none', null],
  ])('%s is %s', (p, kind) => {
    expect(createFileFacts(root).stat(p)).toBe(kind);
  });
});

describe('readText', () => {
  it('reads at most maxBytes', () => {
    const facts = createFileFacts(root);
    expect(facts.readText('.env', 6)).toBe('SECRET');
    expect(facts.readText('.env', 1000)).toBe('SECRET=1');
    expect(facts.readText('src/none', 10)).toBeNull();
    expect(facts.readText('src', 10)).toBeNull();
  });

  it('cuts by bytes, whether the file fits (read whole) or not (read in part)', () => {
    write('utf8.txt', 'héllo'); // 6 bytes
    const facts = createFileFacts(root);
    expect(facts.readText('utf8.txt', 6)).toBe('héllo');
    expect(facts.readText('utf8.txt', 5)).toBe('héll');
    expect(facts.readText('utf8.txt', 2)).toBe('h\ufffd');
    expect(facts.readText('utf8.txt', 0)).toBe('');
  });
});

describe('paths found under roots written in other ways', () => {
  it.each([
    ['a trailing slash', (r: string) => `${r}/`],
    ['a dot segment', (r: string) => `${r}/src/..`],
    ['the root itself', (r: string) => r],
  ])('with %s, paths are project-relative as path.relative gives them', (_what, spell) => {
    const facts = createFileFacts(spell(root));
    expect(facts.findFiles('src/deep/*').map((f) => f.path)).toEqual(['src/deep/b.ts', 'src/deep/c.md']);
    expect(facts.findFiles('src/a.ts').map((f) => f.path)).toEqual(['src/a.ts']);
    expect(facts.findFiles('.').map((f) => f.path)).toEqual([]);
  });

  it('gives a place outside the project as an absolute path', () => {
    const facts = createFileFacts(`${root}/src`);
    expect(facts.findFiles('../.env').map((f) => f.path)).toEqual([`${root}/.env`]);
    expect(facts.findFiles(`${root}/src/a.ts`).map((f) => f.path)).toEqual(['a.ts']);
  });
});

describe('realpath', () => {
  let outside: string;
  beforeEach(() => {
    outside = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'real-outside-'))).split(path.sep).join('/');
    fs.symlinkSync(outside, path.join(root, 'src', 'escape'));
    fs.symlinkSync(path.join(root, 'src', 'deep'), path.join(root, 'shortcut'));
  });
  afterEach(() => fs.rmSync(outside, { recursive: true, force: true }));

  it.each([
    ['a plain file is itself', 'src/a.ts', 'src/a.ts'],
    ['a link inside the project that leads outside', 'src/escape/x.ts', '<outside>/x.ts'],
    ['a file not written yet under a linked folder', 'src/escape/new/deeper.ts', '<outside>/new/deeper.ts'],
    ['a link that stays inside', 'shortcut/b.ts', 'src/deep/b.ts'],
    ['a path that does not exist at all', 'nowhere/x.ts', 'nowhere/x.ts'],
  ])('%s', (_name, given, expected) => {
    expect(createFileFacts(root).realpath!(given)).toBe(expected.replace('<outside>', outside));
  });

  it('treats a project reached through a symlinked folder as inside', () => {
    const alias = `${outside}/alias`;
    fs.symlinkSync(root, alias);
    expect(createFileFacts(alias).realpath!('src/a.ts')).toBe('src/a.ts');
  });
});

describe('resolve: link by link, dangling links included', () => {
  const link = (target: string, at: string) => {
    fs.mkdirSync(path.dirname(path.join(root, at)), { recursive: true });
    fs.symlinkSync(target, path.join(root, at));
  };

  it.each<[string, Array<[string, string]>, string, string | null]>([
    // name, links (target, link), path, where it leads
    ['a dangling link leads to the file a write through it creates', [['../src/new.ts', 'tests/dl.test.ts']], 'tests/dl.test.ts', 'src/new.ts'],
    ['a dangling link to a secret', [['.env.local', 'notes.txt']], 'notes.txt', '.env.local'],
    ['a dangling link whose target folder does not exist yet', [['../gen/x/y.ts', 'tests/t.ts']], 'tests/t.ts', 'gen/x/y.ts'],
    ['a dangling absolute link', [['/etc/cron.d/job', 'job']], 'job', '/etc/cron.d/job'],
    ['a link to a dangling link', [['b', 'a'], ['src/c.ts', 'b']], 'a', 'src/c.ts'],
    ['a folder link on the way to a missing file', [['src/deep', 'd']], 'd/new/x.ts', 'src/deep/new/x.ts'],
    ['a link to the writing process\'s descriptor stops there', [['/dev/stdout', 'out']], 'out', '/dev/stdout'],
    ['a link into /proc stops there', [['/proc/self/cwd/x', 'cw']], 'cw', '/proc/self/cwd/x'],
    ['a loop leads nowhere', [['l2', 'l1'], ['l1', 'l2']], 'l1', null],
  ])('%s', (_name, links, given, expected) => {
    for (const [target, at] of links) link(target, at);
    expect(createFileFacts(root).realpath!(given)).toBe(expected);
  });

  it('lists every place a link pointed to on the way', () => {
    write('real/secret', 'x');
    link('real/secret', '.env.local');
    link('.env.local', 'notes.txt');
    expect(createFileFacts(root).resolve!('notes.txt')).toEqual({ real: 'real/secret', via: ['.env.local', 'real/secret'] });
  });

  it('says when Windows file-name rules apply', () => {
    expect(createFileFacts(root).volume!()).toEqual({ windows: process.platform === 'win32' });
    expect(createFileFacts('/mnt/c/Users/me/proj').volume!()).toEqual({ windows: true });
  });
});

describe('one facts instance, one event', () => {
  it('lists a folder once however many globs walk it: a file written meanwhile shows in the next event', () => {
    const facts = createFileFacts(root);
    expect(facts.findFiles('src/**/*.ts').map((f) => f.path)).toEqual(['src/a.ts', 'src/deep/b.ts']);
    write('src/deep/late.ts', 'x');
    expect(facts.findFiles('src/**/*.{ts,md}').map((f) => f.path)).toEqual(['src/a.ts', 'src/deep/b.ts', 'src/deep/c.md']);
    expect(createFileFacts(root).findFiles('src/deep/*.ts').map((f) => f.path)).toEqual(['src/deep/b.ts', 'src/deep/late.ts']);
  });
});

describe('identity and links: which file a path is, whatever its name', () => {
  it('gives every name of one file the same identity, and counts its names', () => {
    fs.linkSync(path.join(root, 'src/a.ts'), path.join(root, 'src/hard.ts'));
    fs.symlinkSync('../src/a.ts', path.join(root, '.agent/soft.ts'));
    const facts = createFileFacts(root);
    const a = facts.identity!('src/a.ts');
    expect(a).toEqual({ id: expect.stringMatching(/^\d+:\d+$/), links: 2, kind: 'file' });
    expect(facts.identity!('src/hard.ts')).toEqual(a);
    expect(facts.identity!(`${root}/.agent/soft.ts`)).toEqual(a);
    expect(facts.identity!('src/deep/b.ts')).toEqual({ id: expect.not.stringMatching(a!.id), links: 1, kind: 'file' });
    expect(facts.identity!('src')?.kind).toBe('dir');
  });

  it('has no identity for a path that does not exist, a dangling link or a name under a file', () => {
    fs.symlinkSync('nowhere', path.join(root, 'dangling'));
    const facts = createFileFacts(root);
    expect(facts.identity!('src/missing.ts')).toBeNull();
    expect(facts.identity!('dangling')).toBeNull();
    expect(facts.identity!('src/a.ts/x')).toBeNull();
  });

  it('reads a symlink\'s text as written, and nothing for a file that is no link', () => {
    fs.symlinkSync('../.claude/policies.yaml', path.join(root, 'src/l'));
    const facts = createFileFacts(root);
    expect(facts.readLink!('src/l')).toBe('../.claude/policies.yaml');
    expect(facts.readLink!('src/a.ts')).toBeNull();
    expect(facts.readLink!('src/missing')).toBeNull();
  });
});
