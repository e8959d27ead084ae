import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { cacheFolderDistrust, forgetFolderVerdicts, sealed, unsealed, unsealedBytes } from './cache-trust';
import { readCacheFiles, takeCacheProblems } from './cache-store';
import { fingerprintOf } from './sources';

describe('cache seals', () => {
  it('gives back what was sealed, and nothing for an edited body or a missing seal', () => {
    const text = sealed('{"outcome":"deny"}');
    expect(unsealed(text)).toBe('{"outcome":"deny"}');
    expect(unsealed(text.replace('deny', 'warn'))).toBeNull();
    expect(unsealed('{"outcome":"deny"}')).toBeNull();
    expect(unsealed(`${text.split('\n')[0]}`)).toBeNull();
  });

  it('checks every byte of the body, however long and wherever the file\'s bytes sit in memory', () => {
    for (const body of ['', 'a', 'ab', 'abc', 'abcd', 'abcde', '{"reason":"n\u00e4he \u2713"}', 'x'.repeat(30_001)]) {
      const text = sealed(body);
      expect(unsealed(text)).toBe(body);
      // At an offset that is not a multiple of 4, as a pooled Buffer may be.
      const shifted = Buffer.concat([Buffer.from('zzz'), Buffer.from(text)]).subarray(3);
      expect(shifted.byteOffset % 4).not.toBe(0);
      expect(unsealedBytes(shifted)).toBe(body);
      const bytes = Buffer.from(text);
      for (const at of [bytes.length - 1, bytes.length - 4, 36]) {
        if (at < 35 || at >= bytes.length) continue;
        const edited = Buffer.from(bytes);
        edited[at] ^= 1;
        expect(unsealedBytes(edited)).toBeNull();
      }
    }
    expect(unsealedBytes(Buffer.from('//hookpolicy-seal 0123456789abcdef'))).toBeNull();
  });

  it('notices one bit changed at any byte, words swapped, and a body cut or grown', () => {
    // Every lane, the words after the last whole group of four, and the last 0-3 bytes.
    const body = '{"rules":[{"id":"r1","outcome":"deny"}],"n":12345678}x';
    const bytes = Buffer.from(sealed(body));
    const start = bytes.length - Buffer.byteLength(body);
    for (let at = start; at < bytes.length; at++) {
      for (const bit of [1, 0x80]) {
        const edited = Buffer.from(bytes);
        edited[at] ^= bit;
        expect(unsealedBytes(edited)).toBeNull();
      }
    }
    const seal = bytes.subarray(0, start).toString();
    const swapped = `${body.slice(4, 8)}${body.slice(0, 4)}${body.slice(8)}`;
    const lanesSwapped = `${body.slice(16, 32)}${body.slice(0, 16)}${body.slice(32)}`;
    for (const other of [swapped, lanesSwapped, body.slice(0, -1), `${body}\0`, `${body}\0\0\0\0`]) {
      expect(unsealed(`${seal}${other}`)).toBeNull();
    }
  });
});

const posix = process.platform !== 'win32' && typeof process.getuid === 'function';

(posix ? describe : describe.skip)('cache folders', () => {
  let base: string;
  beforeEach(() => {
    forgetFolderVerdicts();
    base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'hp-trust-')));
  });
  afterEach(() => fs.rmSync(base, { recursive: true, force: true }));

  it('trusts a folder of this user that only this user writes, and one not made yet', () => {
    fs.mkdirSync(path.join(base, 'c'), { mode: 0o700 });
    expect(cacheFolderDistrust(path.join(base, 'c'))).toBeNull();
    expect(cacheFolderDistrust(path.join(base, 'later', 'c'))).toBeNull();
  });

  it('refuses a folder others can write, and one under a folder others can write that is not sticky', () => {
    const open = path.join(base, 'open');
    fs.mkdirSync(open);
    fs.chmodSync(open, 0o777);
    expect(cacheFolderDistrust(open)).toMatch(/can be written by other users \(mode 777\)/);
    fs.mkdirSync(path.join(open, 'c'), { mode: 0o700 });
    forgetFolderVerdicts();
    expect(cacheFolderDistrust(path.join(open, 'c'))).toMatch(/open can be written by other users/);
    fs.chmodSync(open, 0o1777); // sticky, like /tmp: others cannot replace what is ours
    forgetFolderVerdicts();
    expect(cacheFolderDistrust(path.join(open, 'c'))).toBeNull();
  });

  (process.getuid?.() === 0 ? it : it.skip)('refuses a folder owned by another user (as root: chown)', () => {
    const theirs = path.join(base, 'theirs');
    fs.mkdirSync(theirs, { mode: 0o700 });
    fs.chownSync(theirs, 4242, 4242);
    expect(cacheFolderDistrust(theirs)).toMatch(/owned by another user \(uid 4242\)/);
  });

  it('refuses a symbolic link in place of the folder', () => {
    fs.mkdirSync(path.join(base, 'real'), { mode: 0o700 });
    fs.symlinkSync(path.join(base, 'real'), path.join(base, 'link'));
    expect(cacheFolderDistrust(path.join(base, 'link'))).toMatch(/is a symbolic link/);
  });
});

describe('a cache file read with the stat fingerprint its seal was last found good with', () => {
  let base: string;
  beforeEach(() => {
    base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'hp-stamp-')));
    fs.chmodSync(base, 0o700);
  });
  afterEach(() => fs.rmSync(base, { recursive: true, force: true }));

  it('is not hashed again while it keeps that fingerprint; another fingerprint checks the seal', () => {
    // A file whose seal does not match: only a skipped check lets it through.
    fs.writeFileSync(path.join(base, 'v.json'), `${sealed('{"a":1}').split('\n')[0]}\n{"a":2}`);
    const later = Date.now() + 10_000;
    const fingerprint = fingerprintOf(fs.statSync(path.join(base, 'v.json'), { bigint: true }), later) as string;
    expect(fingerprint).not.toBeNull();
    expect([...readCacheFiles([base], 'v.json', { fingerprint, now: later })].map((f) => f.text)).toEqual(['{"a":2}']);
    expect([...readCacheFiles([base], 'v.json', { fingerprint: `${fingerprint}0`, now: later })]).toEqual([]);
    expect([...readCacheFiles([base], 'v.json')]).toEqual([]);
    expect(takeCacheProblems().map((p) => p.problem)).toEqual(['not used: its content does not match its seal (changed outside hookpolicy)', 'not used: its content does not match its seal (changed outside hookpolicy)']);
  });
});
