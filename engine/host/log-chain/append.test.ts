import { execFileSync, spawn } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import fc from 'fast-check';
import { GENESIS, lineHash, splitLines } from '../../decision-log/chain';
import { verifyChain } from '../../decision-log/verify';
import { appendDecisionRecord, type DecisionRecord } from '../decision-log';
import { appendChainedLine, lockPathOf } from './append';
import { lastLinePathOf } from './last-line';
import { acquireLogLock, tryLogLock } from './lock';
import { lastLineHash, settledTail } from './tail';
import { appendScript } from './test-support';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

function tmp(): string {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'hp-log-chain-')));
  dirs.push(dir);
  return dir;
}

const record = (i: number): DecisionRecord => ({ time: `2026-01-14T09:00:${String(i % 60).padStart(2, '0')}.000Z`, session_id: 's', event: 'PreToolUse', tool: 'Bash', agent: null, outcome: 'deny', rules: [`r${i}`], reason: null, paths: [], policy: ['p.yaml'] });

function verifyFile(file: string) {
  return verifyChain(splitLines(fs.readFileSync(file)));
}

function tailOf(file: string) {
  const fd = fs.openSync(file, 'r');
  try {
    return lastLineHash(fd, fs.fstatSync(fd).size);
  } finally {
    fs.closeSync(fd);
  }
}

describe('lastLineHash', () => {
  it.each([
    ['an empty file', '', { hash: GENESIS, terminated: true }],
    ['one line', 'abc\n', { hash: lineHash(Buffer.from('abc')), terminated: true }],
    ['the last of two', 'abc\ndef\n', { hash: lineHash(Buffer.from('def')), terminated: true }],
    ['a line cut short', 'abc\nde', { hash: lineHash(Buffer.from('de')), terminated: false }],
    ['an empty last line', 'abc\n\n', { hash: lineHash(Buffer.from('')), terminated: true }],
  ])('%s', (_name, text, expected) => {
    const file = path.join(tmp(), 'log');
    fs.writeFileSync(file, text);
    expect(tailOf(file)).toEqual(expected);
  });

  it.each([4095, 4096, 4097, 70_000, 200_000])('a last line of %d bytes, longer than the tail read, is hashed whole', (length) => {
    const file = path.join(tmp(), 'log');
    const long = 'x'.repeat(length);
    fs.writeFileSync(file, `first\n${long}\n`);
    expect(tailOf(file)).toEqual({ hash: lineHash(Buffer.from(long)), terminated: true });
    fs.writeFileSync(file, long);
    expect(tailOf(file)).toEqual({ hash: lineHash(Buffer.from(long)), terminated: false });
  });

  it('hashes as node:crypto does (what `policy log verify` checks with), for any bytes of any length', () => {
    const file = path.join(tmp(), 'log');
    const line = fc.uint8Array({ maxLength: 9000 }).map((bytes) => bytes.map((b) => (b === 0x0a ? 0x20 : b)));
    fc.assert(fc.property(line, (bytes) => {
      fs.writeFileSync(file, Buffer.concat([Buffer.from('before\n'), bytes, Buffer.from('\n')]));
      expect(tailOf(file).hash).toBe(lineHash(bytes));
    }), { numRuns: 200 });
  });
});

describe('settledTail', () => {
  it('a line seen half written (the size read while another process wrote it) is read again once whole, not taken for a cut one', () => {
    const file = path.join(tmp(), 'log');
    fs.writeFileSync(file, 'first\nsecond line\n');
    const fd = fs.openSync(file, 'r');
    try {
      expect(settledTail(fd, 9)).toEqual({ hash: lineHash(Buffer.from('second line')), terminated: true, size: 18 });
    } finally {
      fs.closeSync(fd);
    }
  });

  it('a line that stays cut short is kept as such', () => {
    const file = path.join(tmp(), 'log');
    fs.writeFileSync(file, 'first\nsec');
    const fd = fs.openSync(file, 'r');
    try {
      expect(settledTail(fd, 9)).toEqual({ hash: lineHash(Buffer.from('sec')), terminated: false, size: 9 });
    } finally {
      fs.closeSync(fd);
    }
  });
});

describe('the last line\'s hash beside the log', () => {
  const lastOf = (file: string) => fs.readFileSync(lastLinePathOf(file), 'latin1');
  const linesOf = (file: string) => fs.readFileSync(file, 'utf8').trimEnd().split('\n');

  it('holds the log\'s inode, size and ctime and the hash of its last line after each append', () => {
    const dir = tmp();
    const file = path.join(dir, 'decisions.jsonl');
    for (let i = 1; i <= 3; i++) {
      appendDecisionRecord('decisions.jsonl', dir, record(i));
      const st = fs.statSync(file, { bigint: true });
      const last = linesOf(file)[i - 1];
      const stamp = [st.ino, st.size, st.ctimeNs].map((n) => String(n).padStart(20, '0')).join(' ');
      expect(lastOf(file)).toBe(`${stamp} ${lineHash(Buffer.from(last))}\n`);
    }
  });

  it('chains every line to the one before it, whatever its length and characters (the hash begun before the lock)', () => {
    const dir = tmp();
    const file = path.join(dir, 'decisions.jsonl');
    let n = 0;
    fc.assert(fc.property(fc.string({ unit: 'grapheme', maxLength: 3000 }), (reason) => {
      appendDecisionRecord('decisions.jsonl', dir, { ...record(n++), reason });
    }), { numRuns: 60 });
    const lines = linesOf(file);
    expect(lines).toHaveLength(60);
    expect(verifyFile(file)).toMatchObject({ breaks: [], chainedFrom: 1 });
    expect(lastOf(file).slice(-65, -1)).toBe(lineHash(Buffer.from(lines[59])));
  });

  it('is used while the log keeps its stamp: a planted hash becomes the next prev, and verify reports the break', () => {
    const dir = tmp();
    const file = path.join(dir, 'decisions.jsonl');
    appendDecisionRecord('decisions.jsonl', dir, record(1));
    const planted = 'f'.repeat(64);
    fs.writeFileSync(lastLinePathOf(file), `${lastOf(file).slice(0, 63)}${planted}\n`);
    appendDecisionRecord('decisions.jsonl', dir, record(2));
    expect(JSON.parse(linesOf(file)[1]).prev).toBe(planted);
    expect(verifyFile(file).breaks.map((b) => [b.line, b.kind])).toEqual([[2, 'mismatch']]);
  });

  it.each([
    ['lines appended by another writer', (file: string) => fs.appendFileSync(file, `${JSON.stringify(record(9))}\n`)],
    ['a log replaced by another file of the same size (the inode may be the same)', (file: string) => {
      const text = fs.readFileSync(file);
      fs.rmSync(file);
      fs.writeFileSync(file, Buffer.from(text.toString('latin1').replace('r1', 'r8'), 'latin1'));
    }],
    ['a malformed file', (file: string) => fs.writeFileSync(lastLinePathOf(file), 'garbage\n')],
    ['no file', (file: string) => fs.rmSync(lastLinePathOf(file))],
  ])('after %s, the tail is hashed from the log itself', (_name, change) => {
    const dir = tmp();
    const file = path.join(dir, 'decisions.jsonl');
    appendDecisionRecord('decisions.jsonl', dir, record(1));
    change(file);
    appendDecisionRecord('decisions.jsonl', dir, record(2));
    const lines = linesOf(file);
    expect(JSON.parse(lines[lines.length - 1]).prev).toBe(lineHash(Buffer.from(lines[lines.length - 2])));
  });

  it.each([
    ['a symlink', 'a symbolic link', (at: string, outside: string) => fs.symlinkSync(outside, at)],
    ['a hard link', 'a file with 2 links', (at: string, outside: string) => fs.linkSync(outside, at)],
    ['a FIFO', 'a FIFO', (at: string) => execFileSync('mkfifo', [at])],
  ])('%s planted at its path is neither followed, written nor waited on: set aside, noted, and the chain goes on', (_name, why, plant) => {
    const dir = tmp();
    const outside = path.join(tmp(), 'bashrc');
    fs.writeFileSync(outside, 'export PATH=/usr/bin\n');
    const file = path.join(dir, 'decisions.jsonl');
    plant(lastLinePathOf(file), outside);
    expect(appendDecisionRecord('decisions.jsonl', dir, record(1))).toMatchObject({ code: 'log-notice', message: expect.stringContaining(`decisions.jsonl.last was ${why}, set aside as decisions.jsonl.last.set-aside-`) });
    expect(appendDecisionRecord('decisions.jsonl', dir, record(2))).toBeNull();
    expect(fs.readFileSync(outside, 'utf8')).toBe('export PATH=/usr/bin\n');
    expect(fs.lstatSync(lastLinePathOf(file)).isFile()).toBe(true);
    expect(fs.readdirSync(dir).filter((n) => n.startsWith('decisions.jsonl.last.set-aside-'))).toHaveLength(1);
    // The notice, then the two records: verify reports that the end could not be checked before line 1.
    expect(verifyFile(file)).toMatchObject({ lines: 3, breaks: [{ line: 1, kind: 'end-unchecked' }] });
  });
});

describe('appendDecisionRecord', () => {
  it('chains each line to the one before it, from the genesis value, and gives the record its prev', () => {
    const dir = tmp();
    const records = [record(1), record(2), record(3)];
    for (const r of records) expect(appendDecisionRecord('.claude/decisions.jsonl', dir, r)).toBeNull();
    const file = path.join(dir, '.claude', 'decisions.jsonl');
    const lines = fs.readFileSync(file, 'utf8').trimEnd().split('\n');
    expect(lines.map((l) => JSON.parse(l).prev)).toEqual([GENESIS, lineHash(Buffer.from(lines[0])), lineHash(Buffer.from(lines[1]))]);
    expect(records.map((r) => r.prev)).toEqual(lines.map((l) => JSON.parse(l).prev));
    expect(verifyFile(file).breaks).toEqual([]);
    expect(fs.existsSync(lockPathOf(file))).toBe(false);
  });

  it('after lines written without the chain, the first chained line names the last of them', () => {
    const dir = tmp();
    const file = path.join(dir, 'decisions.jsonl');
    const old = `${JSON.stringify(record(1))}\n${JSON.stringify(record(2))}\n`;
    fs.writeFileSync(file, old);
    appendDecisionRecord('decisions.jsonl', dir, record(3));
    expect(verifyFile(file)).toMatchObject({ chainedFrom: 3, breaks: [] });
    expect(JSON.parse(fs.readFileSync(file, 'utf8').split('\n')[2]).prev).toBe(lineHash(Buffer.from(JSON.stringify(record(2)))));
  });

  it('after a line cut short, starts a new line and names the cut one (verify still reports it)', () => {
    const dir = tmp();
    const file = path.join(dir, 'decisions.jsonl');
    fs.writeFileSync(file, `${JSON.stringify(record(1)).slice(0, 30)}`);
    appendDecisionRecord('decisions.jsonl', dir, record(2));
    const lines = fs.readFileSync(file, 'utf8').split('\n');
    expect(JSON.parse(lines[1]).prev).toBe(lineHash(Buffer.from(lines[0])));
    expect(verifyFile(file).breaks.map((b) => [b.line, b.kind])).toEqual([[1, 'garbled']]);
  });

  it('a lock held by a live process past the wait: appended anyway, with log-lock, and the lock left alone', () => {
    const dir = tmp();
    const file = path.join(dir, 'decisions.jsonl');
    fs.writeFileSync(lockPathOf(file), `${process.pid} ${os.hostname()}`);
    const started = Date.now();
    const fd = fs.openSync(file, 'a+');
    const result = appendChainedLine(fd, file, JSON.stringify(record(1)), { waitMs: 150, projectRoot: dir });
    fs.closeSync(fd);
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    expect(Date.now() - started).toBeLessThan(1000);
    expect(result).toEqual({ prev: GENESIS, unlocked: expect.stringMatching(/decisions\.jsonl\.lock was held for longer than 150 ms$/), notices: [] });
    expect(fs.existsSync(lockPathOf(file))).toBe(true);
    expect(verifyFile(file).breaks).toEqual([]);
  });

  it('the runner\'s append reports log-lock when the wait runs out (a lock touched by someone all the time)', async () => {
    const dir = tmp();
    const lock = lockPathOf(path.join(dir, 'decisions.jsonl'));
    fs.writeFileSync(lock, 'planted');
    const toucher = spawn(process.execPath, ['-e', `setInterval(() => { const t = new Date(); require('fs').utimesSync(${JSON.stringify(lock)}, t, t); }, 50); console.log('on')`], { stdio: ['ignore', 'pipe', 'ignore'] });
    await new Promise((resolve) => toucher.stdout.once('data', resolve));
    const started = Date.now();
    let problem: ReturnType<typeof appendDecisionRecord>;
    try {
      problem = appendDecisionRecord('decisions.jsonl', dir, record(1));
    } finally {
      toucher.kill();
    }
    expect(Date.now() - started).toBeLessThan(4500);
    expect(problem).toMatchObject({ code: 'log-lock', severity: 'warning', file: path.join(dir, 'decisions.jsonl') });
    expect(verifyFile(path.join(dir, 'decisions.jsonl')).lines).toBe(1);
  });

  it('the lock is a symlink naming its process (pid host nonce), never followed; a second taker waits and gives up', () => {
    const lock = lockPathOf(path.join(tmp(), 'decisions.jsonl'));
    const first = acquireLogLock(lock);
    expect(first.held).toBe(true);
    expect(fs.lstatSync(lock).isSymbolicLink()).toBe(true);
    expect(fs.readlinkSync(lock)).toMatch(new RegExp(`^${process.pid} ${os.hostname().replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} [0-9a-z]+$`));
    const second = acquireLogLock(lock, { waitMs: 30 });
    expect(second).toMatchObject({ held: false, why: `${lock} was held for longer than 30 ms` });
    second.release();
    expect(fs.lstatSync(lock).isSymbolicLink()).toBe(true);
    first.release();
    expect(() => fs.lstatSync(lock)).toThrow(/ENOENT/);
  });

  it('a lock left by a runner that died (a symlink naming a gone pid) is taken over at once', async () => {
    const dir = tmp();
    const lock = lockPathOf(path.join(dir, 'decisions.jsonl'));
    const child = spawn(process.execPath, ['-e', '']);
    const pid = child.pid as number;
    await new Promise((resolve) => child.on('exit', resolve));
    fs.symlinkSync(`${pid} ${os.hostname()} dead1234`, lock);
    const started = Date.now();
    expect(appendDecisionRecord('decisions.jsonl', dir, record(1))).toBeNull();
    expect(Date.now() - started).toBeLessThan(500);
    expect(() => fs.lstatSync(lock)).toThrow(/ENOENT/);
  });

  it('a release after the lock was taken over leaves the new holder\'s lock alone', () => {
    const lock = lockPathOf(path.join(tmp(), 'decisions.jsonl'));
    const first = acquireLogLock(lock);
    fs.unlinkSync(lock);
    const second = acquireLogLock(lock);
    first.release();
    expect(fs.lstatSync(lock).isSymbolicLink()).toBe(true);
    second.release();
    expect(() => fs.lstatSync(lock)).toThrow(/ENOENT/);
  });

  it('takes over a lock whose process is gone, at once', async () => {
    const dir = tmp();
    const lock = lockPathOf(path.join(dir, 'decisions.jsonl'));
    const child = spawn(process.execPath, ['-e', '']);
    const pid = child.pid as number;
    await new Promise((resolve) => child.on('exit', resolve));
    fs.writeFileSync(lock, `${pid} ${os.hostname()}`);
    const started = Date.now();
    expect(appendDecisionRecord('decisions.jsonl', dir, record(1))).toBeNull();
    expect(Date.now() - started).toBeLessThan(500);
    expect(fs.existsSync(lock)).toBe(false);
  });

  it('takes over a lock older than the stale age, whoever holds it', () => {
    const dir = tmp();
    const lock = lockPathOf(path.join(dir, 'decisions.jsonl'));
    fs.writeFileSync(lock, `${process.pid} other-host`);
    const old = new Date(Date.now() - 5000);
    fs.utimesSync(lock, old, old);
    expect(appendDecisionRecord('decisions.jsonl', dir, record(1))).toBeNull();
    expect(fs.existsSync(lock)).toBe(false);
  });

  it('a symlink planted as the lock is never followed: its target is not written, and it is taken over once stale', () => {
    const dir = tmp();
    const outside = path.join(tmp(), 'victim');
    fs.writeFileSync(outside, 'keep');
    const lock = lockPathOf(path.join(dir, 'decisions.jsonl'));
    fs.symlinkSync(outside, lock);
    const lockTaken = acquireLogLock(lock, { waitMs: 50 });
    expect(lockTaken.held).toBe(false);
    expect(fs.readFileSync(outside, 'utf8')).toBe('keep');
    const old = new Date(Date.now() - 5000);
    fs.lutimesSync(lock, old, old);
    expect(appendDecisionRecord('decisions.jsonl', dir, record(1))).toBeNull();
    expect([fs.readFileSync(outside, 'utf8'), fs.existsSync(lock)]).toEqual(['keep', false]);
  });

  it('a folder planted as the lock is not removed: bounded wait, then log-lock', () => {
    const dir = tmp();
    const lock = lockPathOf(path.join(dir, 'decisions.jsonl'));
    fs.mkdirSync(lock);
    const old = new Date(Date.now() - 5000);
    fs.utimesSync(lock, old, old);
    expect(appendDecisionRecord('decisions.jsonl', dir, record(1))).toMatchObject({ code: 'log-lock' });
    expect(fs.statSync(lock).isDirectory()).toBe(true);
  });
});

describe('taking over a lock', () => {
  const host = os.hostname();
  async function deadPid(): Promise<number> {
    const child = spawn(process.execPath, ['-e', '']);
    const pid = child.pid as number;
    await new Promise((resolve) => child.on('exit', resolve));
    return pid;
  }

  it('a lock judged dead, then released and made anew by a live holder before the takeover, is left to that holder', async () => {
    const lock = lockPathOf(path.join(tmp(), 'decisions.jsonl'));
    fs.symlinkSync(`${await deadPid()} ${host} gone0001`, lock);
    const live = `${process.pid} ${host} live0002`;
    let calls = 0;
    // The clock is read once as the wait starts, once as the dead lock is found, and once as
    // the takeover looks again: in between, its holder released it and another runner took it
    // (the same inode number may come back: only the text tells the two apart).
    const now = () => {
      if (++calls === 3) {
        fs.unlinkSync(lock);
        fs.symlinkSync(live, lock);
      }
      return Date.now();
    };
    const got = acquireLogLock(lock, { now, waitMs: 40, maxWaitMs: 40, suspectMs: 0 });
    expect(got.held).toBe(false);
    expect(fs.readlinkSync(lock)).toBe(live);
    expect(fs.readdirSync(path.dirname(lock))).toEqual([path.basename(lock)]);
  });

  it('one takeover at a time: while another runner is taking over, a dead lock is waited for, then taken', async () => {
    const lock = lockPathOf(path.join(tmp(), 'decisions.jsonl'));
    fs.symlinkSync(`${await deadPid()} ${host} gone0003`, lock);
    fs.symlinkSync(`${process.pid} ${host} brk00004`, `${lock}.break`);
    expect(acquireLogLock(lock, { waitMs: 40, maxWaitMs: 40 }).held).toBe(false);
    expect(fs.readlinkSync(lock)).toMatch(/ gone0003$/);
    // The runner taking over died: its takeover lock is cleared, and the dead lock taken.
    fs.unlinkSync(`${lock}.break`);
    fs.symlinkSync(`${await deadPid()} ${host} brk00005`, `${lock}.break`);
    const got = acquireLogLock(lock, { waitMs: 200 });
    expect(got.held).toBe(true);
    got.release();
    expect(fs.readdirSync(path.dirname(lock))).toEqual([]);
  });

  it('a live holder on this host is not taken over for its age until LOCK_HUNG_MS', () => {
    const lock = lockPathOf(path.join(tmp(), 'decisions.jsonl'));
    fs.symlinkSync(`${process.pid} ${host} slow0006`, lock);
    const old = new Date(Date.now() - 10_000);
    fs.lutimesSync(lock, old, old);
    expect(acquireLogLock(lock, { waitMs: 200 }).held).toBe(false);
    const got = acquireLogLock(lock, { waitMs: 200, hungMs: 5000 });
    expect(got.held).toBe(true);
    got.release();
  });

  it('tryLogLock never waits: a live holder\'s lock is reported at once', () => {
    const lock = lockPathOf(path.join(tmp(), 'decisions.jsonl'));
    const first = acquireLogLock(lock);
    const started = Date.now();
    const second = tryLogLock(lock);
    expect(Date.now() - started).toBeLessThan(20);
    expect(second).toMatchObject({ held: false, why: `${lock} is held` });
    first.release();
    const third = tryLogLock(lock);
    expect(third.held).toBe(true);
    third.release();
  });

  it('a lock that keeps changing hands is waited for past waitMs: the queue moves', async () => {
    const dir = tmp();
    const lock = lockPathOf(path.join(dir, 'decisions.jsonl'));
    // Another process hands the lock on every 20 ms for 600 ms (a new holder's text renamed over
    // the last, so it is never free in between), then lets it go.
    const holder = spawn(process.execPath, ['-e', `
      const fs = require('fs'); const lock = ${JSON.stringify(lock)}; const host = require('os').hostname(); let n = 0;
      const hand = () => { fs.symlinkSync(process.pid + ' ' + host + ' h' + n, lock + '.next'); fs.renameSync(lock + '.next', lock); };
      hand();
      console.log('on');
      const t = setInterval(() => { if (++n > 30) { clearInterval(t); fs.unlinkSync(lock); return; } hand(); }, 20);
    `], { stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise((resolve) => holder.stdout.once('data', resolve));
    const started = Date.now();
    const got = acquireLogLock(lock, { waitMs: 100, maxWaitMs: 5000 });
    const waited = Date.now() - started;
    holder.kill();
    expect(got.held).toBe(true);
    got.release();
    expect(waited).toBeGreaterThan(300);
    expect(waited).toBeLessThan(5000);
  });
});

describe('concurrent appenders', () => {
  let script: string;
  beforeAll(() => {
    // A child that appends N records through the runner's own append path.
    script = appendScript(tmp());
  }, 60_000);

  it('16 processes appending 40 records each at once: every record there, the chain intact', async () => {
    const dir = tmp();
    const children = Array.from({ length: 16 }, (_, k) => new Promise<[number | null, string]>((resolve) => {
      const child = spawn(process.execPath, [script, dir, `p${k}`, '40'], { stdio: ['ignore', 'ignore', 'pipe'] });
      let err = '';
      child.stderr.on('data', (d) => (err += d));
      child.on('exit', (code) => resolve([code, err]));
    }));
    const results = await Promise.all(children);
    expect(results.filter(([code]) => code !== 0)).toEqual([]);
    const file = path.join(dir, 'decisions.jsonl');
    const report = verifyFile(file);
    expect(report).toMatchObject({ lines: 640, chainedFrom: 1, breaks: [] });
    const lines = fs.readFileSync(file, 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l));
    for (let k = 0; k < 16; k++) expect(lines.filter((r) => r.session_id === `p${k}`).map((r) => r.rules[0])).toEqual(Array.from({ length: 40 }, (_, i) => `r${i}`));
    expect(new Set(lines.map((r) => r.prev)).size).toBe(640);
    expect(fs.existsSync(lockPathOf(file))).toBe(false);
  }, 60_000);
});
