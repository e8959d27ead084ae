import { patchFiles } from './apply-patch';

describe('patchFiles', () => {
  it('reads each file a patch adds, updates, deletes and moves', () => {
    const patch = [
      '*** Begin Patch',
      '*** Add File: src/new.ts',
      '+export const a = 1;',
      '*** Update File: src/old.ts',
      '@@ function f',
      ' keep',
      '-gone',
      '+come',
      '*** Delete File: README.md',
      '*** Update File: a.txt',
      '*** Move to: b.txt',
      '@@',
      '-x',
      '+y',
      '*** End Patch',
    ].join('\n');
    expect(patchFiles(patch)).toEqual([
      { tool: 'Write', path: 'src/new.ts', op: 'add', input: { content: 'export const a = 1;\n' } },
      { tool: 'Edit', path: 'src/old.ts', op: 'update', input: { old_string: 'keep\ngone', new_string: 'keep\ncome' } },
      { tool: 'Edit', path: 'README.md', op: 'delete', input: {} },
      { tool: 'Edit', path: 'a.txt', op: 'move', input: { old_string: 'x', new_string: 'y' } },
      { tool: 'Write', path: 'b.txt', op: 'move', input: {} },
    ]);
  });

  it('reads markers however they are indented or ended, as the confined agent may write them', () => {
    expect(patchFiles('  *** Add File: .claude/policies.yaml  \r\n+x\r\n').map((f) => f.path)).toEqual(['.claude/policies.yaml']);
  });

  it('names no file in text that is no patch', () => {
    expect(patchFiles('echo hello')).toEqual([]);
  });
});
