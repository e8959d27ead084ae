import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { LogRefusedError, openLogForAppend } from './log-file';

let tmp: string;
beforeEach(() => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'hookpolicy-logfile-')));
});
afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

function append(target: string, root: string, text: string): void {
  const fd = openLogForAppend(target, root);
  try {
    fs.writeSync(fd, text);
  } finally {
    fs.closeSync(fd);
  }
}

it('creates the file and its folders, then appends', () => {
  const root = path.join(tmp, 'p');
  fs.mkdirSync(root);
  append(path.join(root, 'a/b/log.jsonl'), root, 'one\n');
  append(path.join(root, 'a/b/log.jsonl'), root, 'two\n');
  expect(fs.readFileSync(path.join(root, 'a/b/log.jsonl'), 'utf8')).toBe('one\ntwo\n');
});

it('accepts a project reached through a symlink (its folders are compared real to real)', () => {
  fs.mkdirSync(path.join(tmp, 'real'));
  fs.symlinkSync(path.join(tmp, 'real'), path.join(tmp, 'link'));
  append(path.join(tmp, 'link', '.claude/log.jsonl'), path.join(tmp, 'link'), 'x\n');
  expect(fs.readFileSync(path.join(tmp, 'real/.claude/log.jsonl'), 'utf8')).toBe('x\n');
});

it('follows symlinked folders that stay inside the project', () => {
  const root = path.join(tmp, 'p');
  fs.mkdirSync(path.join(root, 'var/logs'), { recursive: true });
  fs.symlinkSync(path.join(root, 'var/logs'), path.join(root, 'logs'));
  append(path.join(root, 'logs/log.jsonl'), root, 'x\n');
  expect(fs.readFileSync(path.join(root, 'var/logs/log.jsonl'), 'utf8')).toBe('x\n');
});

it('appends outside the project when the policy names such a file, but never through a symlink as its last part', () => {
  const root = path.join(tmp, 'p');
  fs.mkdirSync(root);
  append(path.join(tmp, 'shared.jsonl'), root, 'x\n');
  expect(fs.readFileSync(path.join(tmp, 'shared.jsonl'), 'utf8')).toBe('x\n');
  fs.symlinkSync(path.join(tmp, 'shared.jsonl'), path.join(tmp, 'alias.jsonl'));
  expect(() => openLogForAppend(path.join(tmp, 'alias.jsonl'), root)).toThrow(LogRefusedError);
});

it('refuses a folder, with the open\'s own error', () => {
  fs.mkdirSync(path.join(tmp, 'log.jsonl'));
  expect(() => openLogForAppend(path.join(tmp, 'log.jsonl'), tmp)).toThrow(/EISDIR/);
});
