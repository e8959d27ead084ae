import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { listChanges } from './changes';

/** Three folders as an overlay leaves them: lower (the project), upper (the writes), merged (the command's view). */
function layers(lower: Record<string, string | null>, merged: Record<string, string | null>, upper: Record<string, string | null>) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'hp-changes-'));
  const make = (name: string, files: Record<string, string | null>) => {
    const dir = path.join(root, name);
    fs.mkdirSync(dir);
    for (const [rel, text] of Object.entries(files)) {
      const file = path.join(dir, rel);
      fs.mkdirSync(text === null ? file : path.dirname(file), { recursive: true });
      if (text !== null) fs.writeFileSync(file, text);
    }
    return dir;
  };
  return { root, lower: make('lower', lower), merged: make('merged', merged), upper: make('upper', upper) };
}

describe('listChanges', () => {
  test('new, changed, unchanged copied-up, deleted, and a folder made again without its old files', () => {
    const l = layers(
      { 'src/a.ts': 'a', 'src/same.ts': 's', 'old.md': 'o', 'dist/x.js': 'x', 'dist/y.js': 'y', 'tests/t.test.ts': 't' },
      { 'src/a.ts': 'A', 'src/same.ts': 's', 'src/new.ts': 'n', 'dist/x.js': 'X', 'tests/t.test.ts': 't' },
      { 'src/a.ts': 'A', 'src/same.ts': 's', 'src/new.ts': 'n', 'dist/x.js': 'X' },
    );
    try {
      expect(listChanges(l.upper, l.merged, l.lower)).toEqual([
        { kind: 'delete', path: 'old.md' },
        { kind: 'delete', path: 'dist/y.js' },
        { kind: 'file', path: 'dist/x.js', mode: expect.any(Number) },
        { kind: 'file', path: 'src/a.ts', mode: expect.any(Number) },
        { kind: 'file', path: 'src/new.ts', mode: expect.any(Number) },
      ]);
    } finally {
      fs.rmSync(l.root, { recursive: true, force: true });
    }
  });

  test('a file replaced by a folder, a new folder, a link, a mode change', () => {
    const l = layers({ 'x': 'file', 'run.sh': '#!/bin/sh' }, { 'x/inner.txt': 'i', 'newdir': null, 'run.sh': '#!/bin/sh' }, { 'x/inner.txt': 'i', 'newdir': null, 'run.sh': '#!/bin/sh' });
    try {
      fs.chmodSync(path.join(l.upper, 'run.sh'), 0o755);
      fs.chmodSync(path.join(l.lower, 'run.sh'), 0o644);
      fs.symlinkSync('../src/a.ts', path.join(l.upper, 'link.ts'));
      fs.symlinkSync('../src/a.ts', path.join(l.merged, 'link.ts'));
      expect(listChanges(l.upper, l.merged, l.lower)).toEqual([
        { kind: 'symlink', path: 'link.ts', target: '../src/a.ts' },
        { kind: 'dir', path: 'newdir', mode: expect.any(Number) },
        { kind: 'mode', path: 'run.sh', mode: 0o755 },
        { kind: 'delete', path: 'x' },
        { kind: 'dir', path: 'x', mode: expect.any(Number) },
        { kind: 'file', path: 'x/inner.txt', mode: expect.any(Number) },
      ]);
    } finally {
      fs.rmSync(l.root, { recursive: true, force: true });
    }
  });

  test('nothing written: no change', () => {
    const l = layers({ 'a': '1' }, { 'a': '1' }, {});
    try {
      expect(listChanges(l.upper, l.merged, l.lower)).toEqual([]);
    } finally {
      fs.rmSync(l.root, { recursive: true, force: true });
    }
  });
});
