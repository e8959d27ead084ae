import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { createFsReader, MISSING_FILE } from './fs-reader';
import { checkSources, sha256Hex, statFingerprint } from './cache';

test('a file that cannot be read is recorded as missing, so a build without it is never fresh', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'reader-'));
  try {
    const there = path.join(dir, 'a.yaml');
    fs.writeFileSync(there, 'version: 1\n');
    const reader = createFsReader(dir);
    expect(reader.read(there)).toBe('version: 1\n');
    expect(reader.read(path.join(dir, 'gone.yaml'))).toBeNull();
    expect(reader.read(dir)).toBeNull(); // a folder
    expect(reader.sources()).toEqual([
      { file: there, sha256: sha256Hex('version: 1\n') },
      { file: path.join(dir, 'gone.yaml'), sha256: MISSING_FILE },
      { file: dir, sha256: MISSING_FILE },
    ]);
    expect(checkSources(reader.sources().slice(0, 1)).fresh).toBe(true);
    expect(checkSources(reader.sources()).fresh).toBe(false);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

describe('the build before (known)', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'reader-known-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  // A file is written now: a clock a minute ahead trusts its fingerprint, as the runner's does once it is settled.
  const later = () => Date.now() + 60_000;
  const write = (name: string, text: string) => {
    const file = path.join(dir, name);
    fs.writeFileSync(file, text);
    return file;
  };
  const fingerprint = (file: string) => statFingerprint(file, later()) as string;

  it('gives a file that kept its fingerprint the hash the build before had, without hashing it', () => {
    const pack = write('pack.yaml', 'version: 1\n');
    // A hash no content has: only the build before can have said it.
    const reader = createFsReader(dir, undefined, { known: [{ file: pack, sha256: 'from-the-build-before', stat: fingerprint(pack) }], now: later });
    expect(reader.read(pack)).toBe('version: 1\n');
    expect(reader.digest?.(pack)).toBe('from-the-build-before');
    expect(reader.sources()).toEqual([{ file: pack, sha256: 'from-the-build-before' }]);
  });

  it('hashes a file whose fingerprint moved, one the build before has no fingerprint for, and one too recent to trust', () => {
    const edited = write('edited.yaml', 'version: 1\n');
    const before = fingerprint(edited);
    fs.rmSync(edited);
    write('edited.yaml', 'version: 1\n# edited\n');
    const unstamped = write('unstamped.yaml', 'version: 1\n');
    const recent = write('recent.yaml', 'version: 1\n');
    const known = [{ file: edited, sha256: 'stale', stat: before }, { file: unstamped, sha256: 'stale' }, { file: recent, sha256: 'stale', stat: fingerprint(recent) }];
    const reader = createFsReader(dir, undefined, { known, now: later });
    reader.read(edited);
    reader.read(unstamped);
    // With the real clock the file written just now is too recent: its fingerprint is not trusted.
    const strict = createFsReader(dir, undefined, { known });
    strict.read(recent);
    expect([...reader.sources(), ...strict.sources()]).toEqual([
      { file: edited, sha256: sha256Hex('version: 1\n# edited\n') },
      { file: unstamped, sha256: sha256Hex('version: 1\n') },
      { file: recent, sha256: sha256Hex('version: 1\n') },
    ]);
  });
});
