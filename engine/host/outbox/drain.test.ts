import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { acquireLock, drainerAlive, drainOutbox, enqueue, hasRecords, MAX_RECORD_BYTES, releaseLock } from '.';
import { forgetFolderVerdicts } from '../cache/cache-trust';

let folder: string;
beforeEach(() => {
  folder = fs.mkdtempSync(path.join(os.tmpdir(), 'hookpolicy-outbox-'));
});
afterEach(() => fs.rmSync(folder, { recursive: true, force: true }));

const quick = { idleMs: 20, pollMs: 5, backoffMs: { first: 5, max: 20 } };

it('delivers every record once, oldest first, in batches, and ends when idle', async () => {
  for (let n = 0; n < 10; n++) enqueue(folder, String(n));
  const batches: string[][] = [];
  const result = await drainOutbox(folder, async (texts) => {
    batches.push(texts);
    return true;
  }, { ...quick, batch: 4 });
  expect(batches).toEqual([['0', '1', '2', '3'], ['4', '5', '6', '7'], ['8', '9']]);
  expect(result).toEqual({ drained: true, sent: 10, retried: 0, rejected: 0 });
  expect(hasRecords(folder)).toBe(false);
  expect(fs.readdirSync(folder)).toEqual([]);
});

it('keeps what the sink could not take and tries it again, with a growing wait, until it is taken', async () => {
  for (let n = 0; n < 3; n++) enqueue(folder, String(n));
  const tries: number[] = [];
  let down = 3;
  const seen: string[] = [];
  const result = await drainOutbox(folder, async (texts) => {
    tries.push(Date.now());
    if (down-- > 0) throw new Error('ECONNREFUSED');
    seen.push(...texts);
    return true;
  }, { idleMs: 20, pollMs: 5, backoffMs: { first: 20, max: 1000 } });
  expect(seen).toEqual(['0', '1', '2']);
  expect(result.sent).toBe(3);
  expect(result.retried).toBe(9);
  const waits = tries.slice(1).map((t, i) => t - tries[i]);
  // 20, 40, 80 ms: doubled after each failure.
  expect(waits[0]).toBeGreaterThanOrEqual(18);
  expect(waits[1]).toBeGreaterThanOrEqual(38);
  expect(waits[2]).toBeGreaterThanOrEqual(78);
});

it('per record: deletes what was sent, retries what asks for it, sets aside what was refused', async () => {
  for (const text of ['ok', 'again', 'bad']) enqueue(folder, text);
  let round = 0;
  await drainOutbox(folder, async (texts) => {
    round++;
    return texts.map((t) => (t === 'again' && round === 1 ? 'retry' : t === 'bad' ? 'rejected' : 'sent'));
  }, quick);
  expect(round).toBe(2);
  expect(hasRecords(folder)).toBe(false);
  const rejected = fs.readdirSync(path.join(folder, 'rejected'));
  expect(rejected.map((n) => fs.readFileSync(path.join(folder, 'rejected', n), 'utf8'))).toEqual(['bad']);
});

it('leaves the records on disk when its life ends while the sink is down', async () => {
  enqueue(folder, 'x');
  const result = await drainOutbox(folder, async () => false, { ...quick, maxLifeMs: 60 });
  expect(result.sent).toBe(0);
  expect(result.retried).toBeGreaterThan(0);
  expect(hasRecords(folder)).toBe(true);
  // The lock is given up: the next runner's drainer can start.
  expect(acquireLock(folder)).toBe(true);
  releaseLock(folder);
});

it('does nothing while another drainer holds the lock', async () => {
  enqueue(folder, 'x');
  expect(acquireLock(folder)).toBe(true);
  const deliver = jest.fn(async () => true);
  expect(await drainOutbox(folder, deliver, quick)).toEqual({ drained: false, sent: 0, retried: 0, rejected: 0 });
  expect(deliver).not.toHaveBeenCalled();
  releaseLock(folder);
});

it('in parallel: claims new records while a batch waits, and a failing round backs off once, not once per batch', async () => {
  for (let n = 0; n < 6; n++) enqueue(folder, String(n));
  const tries: Array<{ text: string; at: number }> = [];
  const started = Date.now();
  const result = await drainOutbox(folder, async ([text]) => {
    tries.push({ text, at: Date.now() - started });
    await new Promise((resolve) => setTimeout(resolve, 10));
    return tries.length > 6;
  }, { batch: 1, parallel: 6, idleMs: 20, pollMs: 5, backoffMs: { first: 50, max: 10_000 } });
  expect(result.sent).toBe(6);
  // All six were in flight at once, failed together, and came back after one backoff (50 ms), not 2^5 of it.
  expect(tries.slice(0, 6).map((t) => t.text).sort()).toEqual(['0', '1', '2', '3', '4', '5']);
  expect(tries[6].at).toBeGreaterThanOrEqual(50);
  expect(tries[6].at).toBeLessThan(1000);
});

const posix = process.platform === 'win32' ? describe.skip : describe;

posix('records it does not read', () => {
  it.each([
    ['a symlink to /dev/zero', (file: string) => fs.symlinkSync('/dev/zero', file)],
    ['a FIFO', (file: string) => execFileSync('mkfifo', [file])],
    ['a second name of another file', (file: string) => {
      fs.writeFileSync(path.join(folder, 'elsewhere'), '{"x":1}');
      fs.linkSync(path.join(folder, 'elsewhere'), file);
    }],
    ['a file past MAX_RECORD_BYTES', (file: string) => fs.writeFileSync(file, 'x'.repeat(MAX_RECORD_BYTES + 1))],
  ])('%s is set aside unread; the records after it are delivered', async (_name, plant) => {
    plant(path.join(folder, '000000000-planted-0000-aaaaaaaa.rec'));
    enqueue(folder, 'real');
    const seen: string[] = [];
    const result = await drainOutbox(folder, async (texts) => {
      seen.push(...texts);
      return true;
    }, quick);
    expect(seen).toEqual(['real']);
    expect(result).toMatchObject({ sent: 1, rejected: 1 });
    expect(fs.readdirSync(path.join(folder, 'rejected'))).toEqual(['000000000-planted-0000-aaaaaaaa.rec']);
  });

  it('a `rejected` that is a symlink out of the folder is set aside itself: nothing is moved through it', async () => {
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'hookpolicy-outside-'));
    try {
      fs.symlinkSync(outside, path.join(folder, 'rejected'));
      fs.symlinkSync('/dev/zero', path.join(folder, '000000000-planted-0000-aaaaaaaa.rec'));
      await drainOutbox(folder, async () => true, quick);
      expect(fs.readdirSync(outside)).toEqual([]);
      expect(fs.lstatSync(path.join(folder, 'rejected')).isDirectory()).toBe(true);
    } finally {
      fs.rmSync(outside, { recursive: true, force: true });
    }
  });

  it('a FIFO or a symlink planted as the drainer\'s lock is never waited on nor followed: not alive, and taken over', () => {
    for (const plant of [(lock: string) => execFileSync('mkfifo', [lock]), (lock: string) => fs.symlinkSync('/dev/zero', lock)]) {
      const lock = path.join(folder, 'sender.lock');
      plant(lock);
      const started = Date.now();
      expect(drainerAlive(folder)).toBe(false);
      expect(acquireLock(folder)).toBe(true);
      expect(Date.now() - started).toBeLessThan(1000);
      expect(fs.readFileSync(lock, 'utf8')).toBe(String(process.pid));
      releaseLock(folder);
      expect(fs.existsSync(lock)).toBe(false);
    }
  });

  it('a folder other users can write is not drained at all', async () => {
    enqueue(folder, 'x');
    fs.chmodSync(folder, 0o777);
    forgetFolderVerdicts();
    const deliver = jest.fn(async () => true);
    expect(await drainOutbox(folder, deliver, quick)).toEqual({ drained: false, sent: 0, retried: 0, rejected: 0 });
    expect(deliver).not.toHaveBeenCalled();
    fs.chmodSync(folder, 0o700);
    forgetFolderVerdicts();
  });
});

