import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { LOCK_STALE_MS, acquireLock, claimRecords, drainerAlive, enqueue, hasRecords, outboxFolder, releaseLock, returnRecords, setAside } from '.';

const spoolDirectory = (env: Record<string, string>) => outboxFolder(env, 'webhook-spool');

let spool: string;
beforeEach(() => {
  spool = fs.mkdtempSync(path.join(os.tmpdir(), 'hookpolicy-spool-'));
});
afterEach(() => fs.rmSync(spool, { recursive: true, force: true }));

it('queues records as whole files, claimed oldest first and once', () => {
  enqueue(spool, '{"n":1}');
  enqueue(spool, '{"n":2}');
  expect(hasRecords(spool)).toBe(true);
  const first = claimRecords(spool, 1);
  expect(first.map((f) => fs.readFileSync(f, 'utf8'))).toEqual(['{"n":1}']);
  expect(first[0]).toMatch(new RegExp(`\\.rec\\.${process.pid}\\.sending$`));
  const rest = claimRecords(spool, 8);
  expect(rest.map((f) => fs.readFileSync(f, 'utf8'))).toEqual(['{"n":2}']);
  expect(claimRecords(spool, 8)).toEqual([]);
  expect(hasRecords(spool)).toBe(false);
  expect(fs.readdirSync(spool).filter((n) => n.endsWith('.tmp'))).toEqual([]);
});

it('puts records back in their places, and sets refused ones aside', () => {
  enqueue(spool, '{"n":1}');
  enqueue(spool, '{"n":2}');
  const [first, second] = claimRecords(spool, 2);
  returnRecords([first]);
  setAside([second]);
  expect(claimRecords(spool, 8).map((f) => fs.readFileSync(f, 'utf8'))).toEqual(['{"n":1}']);
  const rejected = fs.readdirSync(path.join(spool, 'rejected'));
  expect(rejected).toHaveLength(1);
  expect(rejected[0]).toMatch(/\.rec$/);
  expect(fs.readFileSync(path.join(spool, 'rejected', rejected[0]), 'utf8')).toBe('{"n":2}');
  expect(hasRecords(spool)).toBe(false);
});

it('claims again what a sender that died had claimed', () => {
  fs.writeFileSync(path.join(spool, '000000001-x-y.rec.999999999.sending'), '{"n":1}');
  expect(hasRecords(spool)).toBe(true);
  expect(claimRecords(spool, 8).map((f) => path.basename(f))).toEqual([`000000001-x-y.rec.${process.pid}.sending`]);
});

it('one lock holder; a stale lock is taken over; release frees it', () => {
  expect(drainerAlive(spool)).toBe(false);
  expect(acquireLock(spool)).toBe(true);
  expect(drainerAlive(spool)).toBe(true);
  expect(acquireLock(spool)).toBe(false);
  // Not touched for LOCK_STALE_MS: its sender died.
  expect(drainerAlive(spool, Date.now() + LOCK_STALE_MS + 1)).toBe(false);
  expect(acquireLock(spool, Date.now() + LOCK_STALE_MS + 1)).toBe(true);
  releaseLock(spool);
  expect(drainerAlive(spool)).toBe(false);
});

it('takes over a lock whose process is gone', () => {
  fs.writeFileSync(path.join(spool, 'sender.lock'), '999999999');
  // Fresh, but its process is gone: no drainer is alive, the next event starts one.
  expect(drainerAlive(spool)).toBe(false);
  expect(acquireLock(spool)).toBe(true);
  expect(fs.readFileSync(path.join(spool, 'sender.lock'), 'utf8')).toBe(String(process.pid));
});

it('puts the spool in a cache folder only this user can write, never in one others can', () => {
  const cache = path.join(spool, 'cache');
  expect(spoolDirectory({ HOOKPOLICY_CACHE_DIR: cache, TMPDIR: path.join(spool, 'tmp') })).toBe(path.join(cache, 'webhook-spool'));
  if (typeof process.getuid !== 'function') return;
  const open = path.join(spool, 'open');
  fs.mkdirSync(open, { mode: 0o777 });
  fs.chmodSync(open, 0o777);
  const fallback = spoolDirectory({ HOOKPOLICY_CACHE_DIR: open, TMPDIR: path.join(spool, 'tmp') });
  expect(fallback).not.toBe(path.join(open, 'webhook-spool'));
  // A folder of this user's own inside one others can write (and rename) is not its alone.
  const inside = path.join(open, 'cache');
  fs.mkdirSync(inside, { mode: 0o700 });
  expect(spoolDirectory({ HOOKPOLICY_CACHE_DIR: inside, TMPDIR: path.join(spool, 'tmp') })).toBe(path.join(spool, 'tmp', `hookpolicy-${process.getuid()}`, 'webhook-spool'));
  expect(fs.existsSync(path.join(inside, 'webhook-spool'))).toBe(false);
});
