import * as fs from 'fs';
import * as path from 'path';
import { createWorkspace, type Workspace } from './test-workspace';

describe('policy test\'s workspace', () => {
  let workspace: Workspace;
  beforeEach(() => {
    workspace = createWorkspace();
  });
  afterEach(() => workspace.dispose());

  it('writes one project per distinct file set, whatever the order they are given in', () => {
    const a = workspace.project({ 'src/a.ts': { content: 'x' }, 'big.bin': { size: 3 } });
    expect(workspace.project({ 'big.bin': { size: 3 }, 'src/a.ts': { content: 'x' } })).toBe(a);
    expect(workspace.project({ 'src/a.ts': { content: 'y' } })).not.toBe(a);
    expect([fs.readFileSync(path.join(a, 'src/a.ts'), 'utf8'), fs.statSync(path.join(a, 'big.bin')).size]).toEqual(['x', 3]);
  });

  it('gives each project one set of file facts, which resolves a path once for the whole run', () => {
    const dir = workspace.project({ 'docs/a.md': { content: 'a' } });
    const facts = workspace.facts(dir);
    expect(workspace.facts(dir)).toBe(facts);
    expect(facts.resolve?.('notes.txt')).toEqual({ real: 'notes.txt', via: [] });
    // A link made afterwards is not seen: a run never changes its projects, so the first answer stands.
    fs.symlinkSync(path.join(dir, 'docs/a.md'), path.join(dir, 'notes.txt'));
    expect(facts.resolve?.('notes.txt')).toEqual({ real: 'notes.txt', via: [] });
    expect(facts.realpath?.('notes.txt')).toBe('notes.txt');
    // A new run (fresh facts) sees the link; the other questions read the disk every time.
    const fresh = createWorkspace();
    try {
      expect(fresh.facts(dir).realpath?.('notes.txt')).toBe('docs/a.md');
    } finally {
      fresh.dispose();
    }
    expect(facts.readText('notes.txt', 100)).toBe('a');
  });
});
