import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { commitChanges } from './commit';

describe('commitChanges', () => {
  test('makes each change in the project from the upper folder', () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'hp-commit-'));
    const project = path.join(root, 'p');
    const upper = path.join(root, 'u');
    try {
      fs.mkdirSync(path.join(project, 'old'), { recursive: true });
      fs.writeFileSync(path.join(project, 'old', 'x'), 'x');
      fs.writeFileSync(path.join(project, 'a.txt'), 'old');
      fs.writeFileSync(path.join(project, 'run.sh'), 'sh');
      fs.mkdirSync(path.join(upper, 'tests', 'deep'), { recursive: true });
      fs.writeFileSync(path.join(upper, 'a.txt'), 'new');
      fs.writeFileSync(path.join(upper, 'tests', 'deep', 'b.test.ts'), 'b');
      const failed = commitChanges(project, upper, [
        { kind: 'delete', path: 'old' },
        { kind: 'file', path: 'a.txt', mode: 0o600 },
        { kind: 'file', path: 'tests/deep/b.test.ts', mode: 0o644 },
        { kind: 'symlink', path: 'link', target: 'a.txt' },
        { kind: 'mode', path: 'run.sh', mode: 0o755 },
        { kind: 'dir', path: 'empty', mode: 0o755 },
        { kind: 'special', path: 'fifo' },
      ]);
      expect(failed).toEqual([{ change: { kind: 'special', path: 'fifo' }, error: 'not a file, folder or link' }]);
      expect(fs.existsSync(path.join(project, 'old'))).toBe(false);
      expect(fs.readFileSync(path.join(project, 'a.txt'), 'utf8')).toBe('new');
      expect(fs.statSync(path.join(project, 'a.txt')).mode & 0o777).toBe(0o600);
      expect(fs.readFileSync(path.join(project, 'tests', 'deep', 'b.test.ts'), 'utf8')).toBe('b');
      expect(fs.readlinkSync(path.join(project, 'link'))).toBe('a.txt');
      expect(fs.statSync(path.join(project, 'run.sh')).mode & 0o777).toBe(0o755);
      expect(fs.statSync(path.join(project, 'empty')).isDirectory()).toBe(true);
      expect(fs.readdirSync(project).filter((n) => n.includes('hookpolicy'))).toEqual([]);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});
