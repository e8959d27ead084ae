import { ancestorFolders, guardedFiles, guardedPaths, namedGuards, protectedGlobs, runtimePackageGlobs, type SelfProtectionFacts } from './self-protection';
import { globRegex } from './compile/glob-regex';
import { compiledPolicy } from '../test/support/compiled';
import type { CompiledSettings } from './types';

const facts: SelfProtectionFacts = { projectRoot: '/p', home: '/home/me', cacheDirs: ['/home/me/.cache/hookpolicy'], packageRoots: ['/p/node_modules/hookpolicy'], managedDir: null };
const withMemory = (dir: string | null): Partial<CompiledSettings> => ({ memory: { dir, retentionDays: 90, maxRecords: 20000, privacy: [] } });

describe('protectedGlobs: the memory store', () => {
  it.each([
    ['no memory settings (the default folder)', {}, '.claude/hookpolicy/memory/**'],
    ['a project-relative folder', withMemory('var/memory'), 'var/memory/**'],
    ['a ./ folder', withMemory('./var/memory/'), 'var/memory/**'],
    ['an absolute folder in the project', withMemory('/p/mem'), 'mem/**'],
    ['an absolute folder elsewhere', withMemory('/srv/memory'), '/srv/memory/**'],
  ])('protects %s', (_name, settings, glob) => {
    expect(protectedGlobs(compiledPolicy([], settings), facts)).toContain(glob);
  });

  it('protects no store when the policy turned it off', () => {
    expect(protectedGlobs(compiledPolicy([], withMemory(null)), facts).filter((g) => g.includes('memory'))).toEqual([]);
  });
});

describe('protectedGlobs: the folders that hold the guard', () => {
  it('are guarded as exact paths: the project (. and its absolute folders above), .claude, node_modules, the cache folders above', () => {
    const globs = protectedGlobs(compiledPolicy([], {}), { ...facts, projectRoot: '/work/my[app]' });
    expect(globs).toEqual(expect.arrayContaining(['.', '.claude', 'node_modules', '.claude/hookpolicy', '/work/my\\[app\\]', '/work', '/', '/home/me/.cache', '/home/me']));
    // Never the project as a relative path, never a folder under a guarded one.
    expect(globs.filter((g) => g.startsWith('work') || g === 'node_modules/hookpolicy')).toEqual([]);
  });

  it('ancestorFolders: the folders above the literal part of each glob', () => {
    expect(ancestorFolders(['.claude/settings.json', 'node_modules/hookpolicy/**', '/home/me/.cache/hookpolicy/**', 'a\\*b/c'])).toEqual([
      '.claude', 'node_modules', '/', '/home', '/home/me', '/home/me/.cache', 'a\\*b',
    ]);
  });
});

describe('protectedGlobs: the programs the hook command starts', () => {
  it('guards node and env in each PATH folder, as exact paths, and the folders above them', () => {
    const programs = ['/home/me/.cargo/bin/node', '/home/me/.cargo/bin/env', '/p/node_modules/.bin/node', '/usr/bin/node'];
    const globs = protectedGlobs(compiledPolicy([], {}), { ...facts, programs });
    expect(globs).toEqual(expect.arrayContaining(['/home/me/.cargo/bin/node', '/home/me/.cargo/bin/env', 'node_modules/.bin/node', '/usr/bin/node', '/home/me/.cargo/bin', '/usr/bin']));
  });
});

describe('guardedFiles: what a command the parser cannot read is asked about when it names it', () => {
  it('holds the guarded files and folders, not the folders above them', () => {
    const files = guardedFiles(compiledPolicy([], {}), { ...facts, programs: ['/usr/bin/node'] });
    expect(files).toEqual(expect.arrayContaining(['.claude/policies.yaml', '.claude/settings.json', 'node_modules/hookpolicy/**', '/home/me/.cache/hookpolicy/**', '/usr/bin/node']));
    expect(files.filter((g) => ['.', '.claude', 'node_modules', '/', '/home/me', '/usr/bin'].includes(g))).toEqual([]);
  });
});

describe('namedGuards: what a command the parser cannot read is asked about when it names it', () => {
  it('the guarded files and the folders in the project that hold them, not the project, the home folder, the root or a folder above the project', () => {
    const policy = compiledPolicy([], {});
    const withPrograms = { ...facts, projectRoot: '/home/me/work/p', programs: ['/usr/bin/node'] };
    const named = namedGuards(protectedGlobs(policy, withPrograms), guardedFiles(policy, withPrograms), withPrograms);
    expect(named).toEqual(expect.arrayContaining(['.claude/policies.yaml', '.claude', 'node_modules', '/home/me/.cache', '/usr/bin']));
    expect(named.filter((g) => ['.', '/', '/home', '/home/me', '/home/me/work', '/home/me/work/p'].includes(g))).toEqual([]);
  });
});

describe('protectedGlobs: the user settings in $CLAUDE_CONFIG_DIR', () => {
  it('guards settings.json and settings.local.json there, beside ~/.claude', () => {
    const globs = protectedGlobs(compiledPolicy([], {}), { ...facts, configDir: '/home/me/.claude-work' });
    expect(globs).toEqual(expect.arrayContaining(['/home/me/.claude-work/settings.json', '/home/me/.claude-work/settings.local.json', '/home/me/.claude/settings.json']));
  });
});

describe('runtimePackageGlobs: the packages hookpolicy loads, where npm hoists them', () => {
  it('one glob beside each node_modules/hookpolicy, none for a package root that is not in node_modules', () => {
    const globs = runtimePackageGlobs({ ...facts, packageRoots: ['/p/node_modules/hookpolicy', '/opt/hookpolicy'] });
    expect(globs).toHaveLength(1);
    expect(globs[0]).toMatch(/^node_modules\/\{ajv,.*,mvdan-sh,.*,picomatch,.*\}\/\*\*$/);
    const regex = globRegex(globs[0]);
    const matches = (p: string) => regex !== null && new RegExp(regex.source, regex.flags).test(p);
    expect(['node_modules/mvdan-sh/index.js', 'node_modules/picomatch/lib/parse.js', 'node_modules/better-sqlite3/build/Release/better_sqlite3.node', 'node_modules/picomatch'].map(matches)).toEqual([true, true, true, true]);
    expect(['node_modules/left-pad/index.js', 'node_modules/picomatch-extra/index.js', 'src/picomatch/index.js'].map(matches)).toEqual([false, false, false]);
    expect(protectedGlobs(compiledPolicy([], {}), facts)).toContain(globs[0]);
  });

  it("under pnpm, also each package's store folder beside hookpolicy's own", () => {
    const globs = runtimePackageGlobs({ ...facts, packageRoots: ['/p/node_modules/hookpolicy', '/p/node_modules/.pnpm/hookpolicy@0.1.0/node_modules/hookpolicy'] });
    expect(globs).toHaveLength(3);
    const matches = (p: string) => globs.some((g) => {
      const regex = globRegex(g);
      return regex !== null && new RegExp(regex.source, regex.flags).test(p);
    });
    expect([
      'node_modules/.pnpm/mvdan-sh@0.10.1/node_modules/mvdan-sh/index.js',
      'node_modules/.pnpm/hookpolicy@0.1.0/node_modules/picomatch/index.js',
      'node_modules/.pnpm/left-pad@1.3.0/node_modules/left-pad/index.js',
      'node_modules/.pnpm/mvdan-sh-extra@1.0.0/node_modules/mvdan-sh-extra/index.js',
    ].map(matches)).toEqual([true, true, false, false]);
  });
});

describe('guardedPaths: the guard\'s own files and folders, looked at by identity', () => {
  it('lists the team\'s and Claude Code\'s files, the log, the guard\'s folders and the folders that hold them; not the programs nor the packages it loads', () => {
    const policy = compiledPolicy([], { log: { file: '.claude/decisions.jsonl', webhook: null, record: ['deny'] } });
    const paths = guardedPaths(policy, { ...facts, programs: ['/usr/bin/node'], configDir: '/home/me/.claude-work' });
    expect(paths.files).toEqual(expect.arrayContaining([
      '.claude/policies.yaml', '.claude/settings.json', '.claude/decisions.jsonl', '.claude/decisions.jsonl.lock',
      '/home/me/.claude/settings.json', '/home/me/.claude-work/settings.json',
    ]));
    expect(paths.folders).toEqual(expect.arrayContaining(['.claude/hookpolicy/memory']));
    expect(paths.holders).toEqual(expect.arrayContaining(['.claude', '.claude/hookpolicy', '/home/me/.claude']));
    const all = [...paths.files, ...paths.folders, ...paths.holders];
    expect(all.filter((p) => p.includes('/usr/bin') || p.startsWith('node_modules/mvdan-sh') || p === '.' || p === '/' || p === '/home/me' || p === '/home')).toEqual([]);
  });
});
