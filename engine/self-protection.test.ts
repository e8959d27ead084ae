import { ancestorFolders, protectedGlobs, type SelfProtectionFacts } from './self-protection';
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
