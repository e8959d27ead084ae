import type { Facts, FileFact, FileIdentity, GuardedPaths } from '../types';
import { compiledRule, toolFilter } from '../../test/support/compiled';
import { GuardIdentity, identityGuardFor } from './guard-identity';

/** Facts over an identity table: path -> [id, links, kind]; every identity call is counted. */
function facts(table: Record<string, [string, number, FileIdentity['kind']?]>, files: string[] = []): Facts & { asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    identity(path: string): FileIdentity | null {
      asked.push(path);
      const found = table[path];
      return found ? { id: found[0], links: found[1], kind: found[2] ?? 'file' } : null;
    },
    findFiles(glob: string): FileFact[] {
      const folder = glob.replace(/\/\*\*$/, '');
      return files.filter((f) => f.startsWith(`${folder}/`)).map((path) => ({ path, size: 1, mtimeMs: 0 }));
    },
    stat: () => null,
    readText: () => null,
  };
}

const GUARD: GuardedPaths = {
  files: ['.claude/policies.yaml', '.claude/settings.json', '/home/me/.claude/settings.json'],
  folders: ['.claude/hookpolicy/memory', '/home/me/.cache/hookpolicy'],
  holders: ['.claude'],
};

describe('GuardIdentity: a path read as the guarded file it is', () => {
  it('reads a hard link of a guarded file as that file, and says the file has several names', () => {
    const f = facts({ 'src/p.yaml': ['1:10', 2], '.claude/policies.yaml': ['1:10', 2], '.claude/settings.json': ['1:11', 1], '.': ['1:1', 5, 'dir'] });
    const identity = new GuardIdentity(GUARD, f);
    expect(identity.namesOf('src/p.yaml')).toEqual(['.claude/policies.yaml']);
    expect(identity.warnings.map((w) => [w.code, w.severity, w.message.split(':')[0]])).toEqual([['guard-linked', 'warning', '.claude/policies.yaml has 2 names (hard links)']]);
  });

  it('reads the file a guarded name links to as the guarded file (a settings file kept in a dotfiles folder)', () => {
    const f = facts({ '/home/me/dotfiles/claude.json': ['1:20', 1], '.claude/settings.json': ['1:20', 1] });
    expect(new GuardIdentity(GUARD, f).namesOf('/home/me/dotfiles/claude.json')).toEqual(['.claude/settings.json']);
  });

  it('reads a path inside a folder a guarded folder\'s name leads to as inside the guarded folder, and that folder itself as it', () => {
    const f = facts({
      '/data/mem/journal.jsonl': ['2:5', 1], '/data/mem': ['2:4', 3, 'dir'], '/data': ['2:2', 3, 'dir'],
      '.claude/hookpolicy/memory': ['2:4', 3, 'dir'],
    });
    const identity = new GuardIdentity(GUARD, f);
    expect(identity.namesOf('/data/mem/journal.jsonl')).toEqual(['.claude/hookpolicy/memory/journal.jsonl']);
    expect(identity.namesOf('/data/mem')).toEqual(['.claude/hookpolicy/memory']);
    expect(identity.namesOf('/data')).toEqual([]);
  });

  it('reads the folder a holder\'s name leads to as the holder (removing it removes the guarded files)', () => {
    const f = facts({ '/dots/claude': ['3:1', 2, 'dir'], '.claude': ['3:1', 2, 'dir'], '/dots': ['3:0', 2, 'dir'] });
    expect(new GuardIdentity(GUARD, f).namesOf('/dots/claude')).toEqual(['.claude']);
  });

  it('finds a hard link of a file inside a guarded folder by searching the folders, only for a file with several names', () => {
    const table: Record<string, [string, number, FileIdentity['kind']?]> = {
      'src/j': ['4:9', 2], '.claude/hookpolicy/memory/journal.jsonl': ['4:9', 2], 'src/one': ['4:8', 1],
    };
    const f = facts(table, ['.claude/hookpolicy/memory/index.db', '.claude/hookpolicy/memory/journal.jsonl']);
    const identity = new GuardIdentity(GUARD, f);
    expect(identity.namesOf('src/j')).toEqual(['.claude/hookpolicy/memory/journal.jsonl']);
    f.asked.length = 0;
    expect(identity.namesOf('src/one')).toEqual([]);
    expect(f.asked.filter((p) => p.startsWith('.claude/hookpolicy/memory/'))).toEqual([]);
  });

  it('looks at nothing more for a path that does not exist, and at the guarded files once per event', () => {
    const f = facts({ 'src/a.ts': ['5:1', 1], 'src/b.ts': ['5:2', 1] });
    const identity = new GuardIdentity(GUARD, f);
    expect(identity.namesOf('src/new.ts')).toEqual([]);
    expect(f.asked).toEqual(['src/new.ts']);
    identity.namesOf('src/a.ts');
    identity.namesOf('src/b.ts');
    identity.namesOf('src/b.ts');
    expect(f.asked.filter((p) => p === '.claude/policies.yaml')).toHaveLength(1);
    expect(f.asked.filter((p) => p === 'src/b.ts')).toHaveLength(1);
  });

  it('is quiet where nothing is another name: the guarded file by its own name, the project as a guarded folder (hookpolicy\'s own repository)', () => {
    const f = facts({
      '.claude/policies.yaml': ['6:1', 1], '.': ['6:3', 9, 'dir'], '/home/me/.cache/hookpolicy': ['6:3', 9, 'dir'], 'src': ['6:4', 2, 'dir'], 'src/a.ts': ['6:5', 1],
    });
    const identity = new GuardIdentity(GUARD, f);
    expect(identity.namesOf('.claude/policies.yaml')).toEqual([]);
    expect(identity.namesOf('src/a.ts')).toEqual([]);
    expect(identity.warnings).toEqual([]);
  });
});

describe('identityGuardFor', () => {
  it('gives what a rule with identity guards for the tools it names, and nothing for others', () => {
    const guard = compiledRule({ id: 'g', tools: toolFilter('Write|Bash'), identity: GUARD });
    const rules = [compiledRule({ id: 'team', tools: toolFilter('Write') }), guard];
    expect(identityGuardFor(rules, 'Write')).toBe(GUARD);
    expect(identityGuardFor(rules, 'Read')).toBeNull();
    expect(identityGuardFor(rules, null)).toBeNull();
  });
});
