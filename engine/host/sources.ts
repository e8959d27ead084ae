/**
 * Content hashes of the files a policy was built from. A compiled artefact is valid only
 * while every one of them still has the hash it had when it was read.
 */
import { createHash } from 'crypto';
import * as fs from 'fs';

export interface SourceHash {
  file: string;
  sha256: string;
}

/** @example sha256Hex(Buffer.from('a')) // 'ca978112...' */
export function sha256Hex(data: Buffer | string): string {
  return createHash('sha256').update(data).digest('hex');
}

/** The current hash of a file, or null when it cannot be read. */
export function hashFile(file: string): string | null {
  try {
    return sha256Hex(fs.readFileSync(file));
  } catch {
    return null;
  }
}

/**
 * True when every source still has its recorded hash.
 * @example sourcesUnchanged([{ file: '/p/a.yaml', sha256: 'ab..' }]) // false after an edit
 */
export function sourcesUnchanged(sources: readonly SourceHash[], hash: (file: string) => string | null = hashFile): boolean {
  return sources.every((s) => hash(s.file) === s.sha256);
}
