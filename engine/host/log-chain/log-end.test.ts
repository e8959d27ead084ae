/**
 * The log's end and what is at its path: a second name made for the log, a symlink or a
 * FIFO put in its place, lines removed from its end or the log emptied, through a second
 * name or not. No decision goes unrecorded, and `policy log verify` (verifyDecisionLog)
 * reports every loss at the end, against what the appender keeps beside the log.
 */
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { appendDecisionRecord, type DecisionRecord } from '../decision-log';
import { openLogForAppend } from '../log-file';
import { appendChainedLine } from './append';
import { lastLinePathOf } from './last-line';
import { verifyDecisionLog } from './read';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

function tmp(): string {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'hp-log-end-')));
  dirs.push(dir);
  return dir;
}

const record = (i: number): DecisionRecord => ({ time: '2026-01-14T09:00:00.000Z', session_id: `s${i}`, event: 'PreToolUse', tool: 'Bash', agent: null, outcome: 'deny', rules: ['r'], reason: null, paths: [], policy: ['p.yaml'] });

/** A project with a log of `n` records; returns the log's path. */
function logWith(n: number): { dir: string; file: string } {
  const dir = tmp();
  for (let i = 1; i <= n; i++) expect(appendDecisionRecord('decisions.jsonl', dir, record(i))).toBeNull();
  return { dir, file: path.join(dir, 'decisions.jsonl') };
}

const lines = (file: string) => fs.readFileSync(file, 'utf8').trimEnd().split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as Record<string, unknown>);
const kinds = (file: string) => verifyDecisionLog(file)?.breaks.map((b) => [b.line, b.kind]);
const asides = (dir: string) => fs.readdirSync(dir).filter((n) => n.startsWith('decisions.jsonl.set-aside-'));

describe('lines lost at the end', () => {
  it('verify reports a log cut short, or emptied, against the end its appender left', () => {
    const { file } = logWith(3);
    expect(kinds(file)).toEqual([]);
    const text = fs.readFileSync(file, 'utf8');
    fs.truncateSync(file, text.lastIndexOf('\n', text.length - 2) + 1);
    expect(verifyDecisionLog(file)?.breaks).toEqual([{ line: 2, kind: 'cut', message: expect.stringMatching(/^the log ends before the last line its appender wrote: lines were removed from its end, or it was emptied/) }]);
    fs.truncateSync(file, 0);
    expect(kinds(file)).toEqual([[0, 'cut']]);
    fs.rmSync(file);
    expect(kinds(file)).toEqual([[0, 'cut']]);
  });

  it('the last line changed (the chain alone cannot show it): it is not in the log', () => {
    const { file } = logWith(2);
    const text = fs.readFileSync(file, 'utf8');
    fs.writeFileSync(file, text.replace(/"s2"/, '"s9"'));
    expect(verifyDecisionLog(file)?.breaks.map((b) => b.message)).toEqual([expect.stringMatching(/^the last line its appender wrote is not in the log: it was changed, or removed with the lines after it/)]);
  });

  it('a line before the last edited: the chain shows it, and the end is still found (no cut noted)', () => {
    const { dir, file } = logWith(3);
    const text = fs.readFileSync(file, 'utf8');
    fs.writeFileSync(file, text.replace(/"s1"/, '"s1-edited"'));
    expect(kinds(file)).toEqual([[2, 'mismatch']]);
    expect(appendDecisionRecord('decisions.jsonl', dir, record(4))).toBeNull();
    expect(kinds(file)).toEqual([[2, 'mismatch']]);
  });

  it('the next append notes the cut before its record; verify keeps reporting it there', () => {
    const { dir, file } = logWith(3);
    const text = fs.readFileSync(file, 'utf8');
    fs.truncateSync(file, text.indexOf('\n') + 1);
    expect(appendDecisionRecord('decisions.jsonl', dir, record(4))).toMatchObject({ code: 'log-notice', message: expect.stringMatching(/^the log had lost lines at its end: its appender had left it at \d+ bytes/) });
    expect(lines(file).map((r) => r.event)).toEqual(['PreToolUse', 'LogNotice', 'PreToolUse']);
    expect(lines(file)[1]).toMatchObject({ outcome: 'none', notice: { kind: 'cut', found: text.indexOf('\n') + 1, had: { size: text.length } } });
    expect(kinds(file)).toEqual([[2, 'cut']]);
    // Once noted, the next appends go on as usual.
    expect(appendDecisionRecord('decisions.jsonl', dir, record(5))).toBeNull();
    expect(kinds(file)).toEqual([[2, 'cut']]);
  });

  it('a log removed while the file beside it stays: the new log begins with the notice', () => {
    const { dir, file } = logWith(2);
    fs.rmSync(file);
    expect(appendDecisionRecord('decisions.jsonl', dir, record(3))).toMatchObject({ code: 'log-notice' });
    expect(lines(file).map((r) => r.event)).toEqual(['LogNotice', 'PreToolUse']);
    expect(kinds(file)).toEqual([[1, 'cut']]);
  });

  it('lines another writer appended without the lock are not a loss', () => {
    const { dir, file } = logWith(2);
    fs.appendFileSync(file, `${JSON.stringify(record(9))}\n`);
    expect(kinds(file)).toEqual([[3, 'unchained']]);
    expect(appendDecisionRecord('decisions.jsonl', dir, record(3))).toBeNull();
    expect(kinds(file)).toEqual([[3, 'unchained']]);
  });

  it('moved aside together with the file beside it, a log begins anew with no notice', () => {
    const { dir, file } = logWith(2);
    fs.renameSync(file, `${file}.old`);
    fs.renameSync(lastLinePathOf(file), `${lastLinePathOf(file)}.old`);
    expect(appendDecisionRecord('decisions.jsonl', dir, record(3))).toBeNull();
    expect(lines(file)).toHaveLength(1);
    expect(kinds(file)).toEqual([]);
  });
});

describe('a second name for the log', () => {
  it('does not stop the log: it is set aside whole, a new log begins with a notice, and verify checks the set-aside file', () => {
    const { dir, file } = logWith(3);
    const before = fs.readFileSync(file, 'utf8');
    const second = path.join(dir, 'src-p.jsonl');
    fs.linkSync(file, second);
    expect(appendDecisionRecord('decisions.jsonl', dir, record(4))).toMatchObject({ code: 'log-notice', message: expect.stringMatching(/\(a file with 2 links: another name was made for it\) was set aside as decisions\.jsonl\.set-aside-/) });
    const [aside] = asides(dir);
    expect(fs.readFileSync(path.join(dir, aside), 'utf8')).toBe(before);
    expect(fs.statSync(file).nlink).toBe(1);
    expect(lines(file).map((r) => r.event)).toEqual(['LogNotice', 'PreToolUse']);
    expect(lines(file)[0]).toMatchObject({ notice: { kind: 'set-aside', file: aside, size: before.length } });
    expect(kinds(file)).toEqual([]);
    // The other name now reaches only the set-aside log: emptying it there shows.
    fs.writeFileSync(second, '');
    expect(verifyDecisionLog(file)?.breaks).toEqual([{ line: 1, kind: 'set-aside-changed', message: expect.stringContaining(`the log set aside as ${aside} (line 1) no longer holds its last line`) }]);
  });

  it('emptied through the second name before the next append: verify reports it, and the notice keeps it', () => {
    const { dir, file } = logWith(3);
    const second = path.join(dir, 'src-p.jsonl');
    fs.linkSync(file, second);
    fs.writeFileSync(second, '');
    expect(kinds(file)).toEqual([[0, 'cut']]);
    expect(appendDecisionRecord('decisions.jsonl', dir, record(4))).toMatchObject({ code: 'log-notice' });
    expect(lines(file)[0]).toMatchObject({ notice: { kind: 'set-aside', size: 0, had: { size: expect.any(Number) } } });
    expect(kinds(file)).toEqual([[1, 'cut']]);
  });

  it('a hard link to a file outside the project in the log\'s place: that file is neither written nor read into the log', () => {
    const dir = tmp();
    const outside = path.join(tmp(), 'profile');
    fs.writeFileSync(outside, 'export PATH=$PATH\n');
    fs.linkSync(outside, path.join(dir, 'decisions.jsonl'));
    expect(appendDecisionRecord('decisions.jsonl', dir, record(1))).toMatchObject({ code: 'log-notice' });
    expect(fs.readFileSync(outside, 'utf8')).toBe('export PATH=$PATH\n');
    expect(lines(path.join(dir, 'decisions.jsonl')).map((r) => r.event)).toEqual(['LogNotice', 'PreToolUse']);
  });

  it.each([
    ['a symlink', (file: string, outside: string) => fs.symlinkSync(outside, file)],
    ['a FIFO', (file: string) => execFileSync('mkfifo', [file])],
  ])('%s in the log\'s place: set aside unopened; the lost log is reported', (_name, plant) => {
    const { dir, file } = logWith(2);
    const outside = path.join(tmp(), 'bashrc');
    fs.writeFileSync(outside, 'alias ll="ls -l"\n');
    fs.renameSync(file, path.join(dir, 'moved.jsonl'));
    plant(file, outside);
    const started = Date.now();
    expect(appendDecisionRecord('decisions.jsonl', dir, record(3))).toMatchObject({ code: 'log-notice' });
    expect(Date.now() - started).toBeLessThan(2000);
    expect(fs.readFileSync(outside, 'utf8')).toBe('alias ll="ls -l"\n');
    expect(lines(file)[0]).toMatchObject({ notice: { kind: 'set-aside', size: null, head: null, had: { size: expect.any(Number) } } });
    expect(kinds(file)).toEqual([[1, 'cut']]);
  });

  it('an appender that opened the log before another set it aside writes into the new one', () => {
    const { dir, file } = logWith(1);
    // Opened as a runner opens it, before the lock: the other runner sets it aside meanwhile.
    const early = openLogForAppend(file, dir, { readable: true, keepLinked: true });
    try {
      fs.linkSync(file, path.join(dir, 'second.jsonl'));
      expect(appendDecisionRecord('decisions.jsonl', dir, record(2))).toMatchObject({ code: 'log-notice' });
      expect(appendChainedLine(early, file, JSON.stringify(record(3)), { projectRoot: dir }).notices).toEqual([]);
    } finally {
      fs.closeSync(early);
    }
    expect(lines(file).map((r) => r.session_id)).toEqual([null, 's2', 's3']);
    expect(lines(path.join(dir, 'second.jsonl')).map((r) => r.session_id)).toEqual(['s1']);
    expect(kinds(file)).toEqual([]);
  });
});
