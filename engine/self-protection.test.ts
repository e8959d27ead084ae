import { protectedGlobs, type SelfProtectionFacts } from './self-protection';
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
