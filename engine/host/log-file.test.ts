import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { LogRefusedError, openLogForAppend, setAsideAtPath } from './log-file';

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

it('refuses a folder as what is at the path (to be set aside)', () => {
  fs.mkdirSync(path.join(tmp, 'log.jsonl'));
  expect(() => openLogForAppend(path.join(tmp, 'log.jsonl'), tmp)).toThrow(expect.objectContaining({ name: 'LogRefusedError', atPath: 'a folder' }));
});

it('setAsideAtPath renames whatever is at the path beside it, following nothing', () => {
  const target = path.join(tmp, 'outside.txt');
  fs.writeFileSync(target, 'keep');
  fs.symlinkSync(target, path.join(tmp, 'log.jsonl'));
  const aside = setAsideAtPath(path.join(tmp, 'log.jsonl'));
  expect(aside).toMatch(/^log\.jsonl\.set-aside-\d{8}T\d{6}Z-[0-9a-z]+$/);
  expect(fs.readlinkSync(path.join(tmp, aside as string))).toBe(target);
  expect(fs.existsSync(path.join(tmp, 'log.jsonl'))).toBe(false);
  expect(fs.readFileSync(target, 'utf8')).toBe('keep');
  expect(setAsideAtPath(path.join(tmp, 'log.jsonl'))).toBeNull();
});
