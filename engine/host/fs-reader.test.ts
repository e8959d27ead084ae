import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { createFsReader, MISSING_FILE } from './fs-reader';
import { checkSources, sha256Hex } from './cache';

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
