import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { RACY_MS, checkSources, fingerprintSources, hashFile, statFingerprint } from './sources';

let dir: string;
let file: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sources-'));
  file = path.join(dir, 'a.yaml');
  fs.writeFileSync(file, 'version: 1\n');
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const later = () => Date.now() + RACY_MS + 1000;

it('trusts no fingerprint of a file changed within RACY_MS', () => {
  expect(statFingerprint(file, Date.now())).toBeNull();
  expect(statFingerprint(file, later())).toMatch(/^\d+:11:\d+:\d+$/);
  expect(statFingerprint(path.join(dir, 'missing.yaml'), later())).toBeNull();
});

it('a fresh build records fingerprints only once they can be trusted', () => {
  const sources = [{ file, sha256: hashFile(file)! }];
  expect(fingerprintSources(sources, hashFile, Date.now())).toEqual(sources);
  expect(fingerprintSources(sources, hashFile, later())[0].stat).toEqual(statFingerprint(file, later()));
});

it('a file the build before had, with the same fingerprint and hash, gets its fingerprint without being hashed again', () => {
  const sha256 = hashFile(file)!;
  const known = [{ file, sha256, stat: statFingerprint(file, later()) as string }];
  const reads: string[] = [];
  const counting = (f: string) => { reads.push(f); return hashFile(f); };
  expect(fingerprintSources([{ file, sha256 }], counting, later(), known)).toEqual(known);
  expect(reads).toEqual([]);
  // A hash that differs, or a fingerprint that moved, is checked by reading.
  expect(fingerprintSources([{ file, sha256 }], counting, later(), [{ ...known[0], sha256: 'other' }])).toEqual(known);
  fs.writeFileSync(file, 'version: 2\n');
  expect(fingerprintSources([{ file, sha256 }], counting, later(), known)).toEqual([{ file, sha256 }]);
  expect(reads).toEqual([file, file]);
});

it('a matching fingerprint skips reading; a same-size edit is still caught', () => {
  const [source] = fingerprintSources([{ file, sha256: hashFile(file)! }], hashFile, later());
  const reads: string[] = [];
  const counting = (f: string) => { reads.push(f); return hashFile(f); };
  expect(checkSources([source], counting, later())).toEqual({ fresh: true, refreshed: null });
  expect(reads).toEqual([]);
  fs.writeFileSync(file, 'version: 2\n');
  expect(checkSources([source], counting, Date.now()).fresh).toBe(false);
  expect(reads).toEqual([file]);
});

it('a touched but unchanged file is fresh, and its fingerprint is refreshed', () => {
  const sha256 = hashFile(file)!;
  const stale = { file, sha256, stat: '1:2:3:4' };
  const check = checkSources([stale], hashFile, later());
  expect(check.fresh).toBe(true);
  expect(check.refreshed).toEqual([{ file, sha256, stat: statFingerprint(file, later()) }]);
});
