import { createHash } from 'crypto';
import { loadPolicyFiles, memoryReader } from '../load';

const pos = (d: { code: string; file?: string; line?: number; column?: number }) => `${d.code} ${d.file}:${d.line}:${d.column}`;

describe('loadPolicyFiles', () => {
  const files = {
    'proj/.claude/policies.yaml': 'version: 1\ninclude:\n  - ai-team\n  - ./team/extra.yaml\n  - shared.yml\n',
    'proj/.claude/team/extra.yaml': 'version: 1\ninclude: [../shared.yml]\n',
    'proj/.claude/shared.yml': 'version: 1\n',
    '/pkg/policies/ai-team.yaml': 'version: 1\ninclude: [base.yaml]\n',
    '/pkg/policies/base.yaml': 'version: 1\n',
  };
  const reader = memoryReader(files, { 'ai-team': '/pkg/policies/ai-team.yaml' });

  test('includes come before their includer, depth-first, each file once', () => {
    const { files: loaded, diagnostics } = loadPolicyFiles(['proj/.claude/policies.yaml'], reader);
    expect(diagnostics).toEqual([]);
    expect(loaded.map((f) => f.file)).toEqual([
      '/pkg/policies/base.yaml',
      '/pkg/policies/ai-team.yaml',
      'proj/.claude/shared.yml',
      'proj/.claude/team/extra.yaml',
      'proj/.claude/policies.yaml',
    ]);
  });

  test('records pack names, resolved includes, root flags and sha256 hashes', () => {
    const { files: loaded } = loadPolicyFiles(['proj/.claude/policies.yaml'], reader);
    const byName = new Map(loaded.map((f) => [f.file, f]));
    const root = byName.get('proj/.claude/policies.yaml')!;
    expect(root.root).toBe(true);
    expect(root.pack).toBeUndefined();
    expect(root.includes).toEqual(['/pkg/policies/ai-team.yaml', 'proj/.claude/team/extra.yaml', 'proj/.claude/shared.yml']);
    expect(root.hash).toBe(createHash('sha256').update(files['proj/.claude/policies.yaml']).digest('hex'));
    expect(byName.get('/pkg/policies/ai-team.yaml')).toMatchObject({ pack: 'ai-team', root: false, includes: ['/pkg/policies/base.yaml'] });
    expect(byName.get('proj/.claude/team/extra.yaml')!.includes).toEqual(['proj/.claude/shared.yml']);
    expect(root.doc).toEqual({ version: 1, include: ['ai-team', './team/extra.yaml', 'shared.yml'] });
  });

  test('roots load in the order given; a root already included is marked root', () => {
    const { files: loaded } = loadPolicyFiles(['proj/.claude/team/extra.yaml', 'proj/.claude/shared.yml'], reader);
    expect(loaded.map((f) => [f.file, f.root])).toEqual([
      ['proj/.claude/shared.yml', true],
      ['proj/.claude/team/extra.yaml', true],
    ]);
  });

  test('a missing root file is policy-not-found without a line', () => {
    const { files: loaded, diagnostics } = loadPolicyFiles(['nope.yaml'], reader);
    expect(loaded).toEqual([]);
    expect(diagnostics).toEqual([expect.objectContaining({ code: 'policy-not-found', file: 'nope.yaml', severity: 'error' })]);
    expect(diagnostics[0].line).toBeUndefined();
  });

  test('missing files and packs are include-not-found at the entry', () => {
    const r = memoryReader({
      'p.yaml': 'version: 1\ninclude:\n  - ./missing.yaml\n  - no-such-pack\n  - broken-pack\n',
    }, { 'broken-pack': '/pkg/gone.yaml' });
    const { files: loaded, diagnostics } = loadPolicyFiles(['p.yaml'], r);
    expect(diagnostics.map(pos)).toEqual([
      'include-not-found p.yaml:3:5',
      'include-not-found p.yaml:4:5',
      'include-not-found p.yaml:5:5',
    ]);
    expect(diagnostics[1].hint).toMatch(/\.yaml/);
    expect(loaded.map((f) => f.file)).toEqual(['p.yaml']);
    expect(loaded[0].includes).toEqual([]);
  });

  test('a cycle is include-cycle at the entry that closes it, and loading still ends', () => {
    const r = memoryReader({
      'a.yaml': 'version: 1\ninclude: [b.yaml]\n',
      'b.yaml': 'version: 1\ninclude:\n  - c.yaml\n',
      'c.yaml': 'version: 1\ninclude: [x.yaml, a.yaml]\n',
      'x.yaml': 'version: 1\n',
    });
    const { files: loaded, diagnostics } = loadPolicyFiles(['a.yaml'], r);
    expect(diagnostics.map(pos)).toEqual(['include-cycle c.yaml:2:19']);
    expect(diagnostics[0].message).toBe('Include cycle: a.yaml -> b.yaml -> c.yaml -> a.yaml');
    expect(loaded.map((f) => f.file)).toEqual(['x.yaml', 'c.yaml', 'b.yaml', 'a.yaml']);
    expect(loaded[1].includes).toEqual(['x.yaml']);
  });

  test('a file including itself is a cycle', () => {
    const { diagnostics } = loadPolicyFiles(['a.yaml'], memoryReader({ 'a.yaml': 'version: 1\ninclude: [./a.yaml]\n' }));
    expect(diagnostics.map(pos)).toEqual(['include-cycle a.yaml:2:11']);
  });

  test('YAML errors of included files are reported; their includes are not followed', () => {
    const r = memoryReader({ 'a.yaml': 'version: 1\ninclude: [b.yaml]\n', 'b.yaml': 'include: [c.yaml\n' });
    const { files: loaded, diagnostics } = loadPolicyFiles(['a.yaml'], r);
    expect(diagnostics.map((d) => `${d.code} ${d.file}`)).toEqual(expect.arrayContaining(['yaml-syntax b.yaml']));
    expect(loaded.map((f) => [f.file, f.doc === null])).toEqual([['b.yaml', true], ['a.yaml', false]]);
  });
});
