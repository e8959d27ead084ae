/**
 * Content hashes of the files a policy was built from. A compiled artefact is valid only
 * while every one of them still has the hash it had when it was read.
 *
 * Checking is made cheap by a stat fingerprint (inode, size, mtime, ctime) recorded
 * beside the hash: while it is unchanged the file is not read at all; a small file that
 * changed is hashed without loading `crypto` (~2 ms; engine/content-hash.ts). A
 * fingerprint is recorded only for a file whose last change is older than RACY_MS, so a
 * write in the same clock tick as the read (same size, same coarse timestamps) can never
 * hide behind it; any other change moves ctime, which no user tool can set back.
 */
import * as fs from 'fs';
import { sha256Hex } from '../../content-hash';

export { sha256Hex };

export interface SourceHash {
  file: string;
  sha256: string;
  /** Stat fingerprint taken when the content was known to have this hash. */
  stat?: string;
}

/** A file changed this recently may change again within the same timestamp tick. */
export const RACY_MS = 2000;

/** The current hash of a file, or null when it cannot be read. */
export function hashFile(file: string): string | null {
  try {
    return sha256Hex(fs.readFileSync(file));
  } catch {
    return null;
  }
}

/**
 * The stat fingerprint of a file, or null when it cannot be stat'ed or changed less
 * than RACY_MS before `nowMs` (too recent to trust).
 * @example statFingerprint('/p/a.yaml', Date.now()) // '1234:87:1700000000000000000:1700000000000000000'
 */
export function statFingerprint(file: string, nowMs: number): string | null {
  const s = fs.statSync(file, { bigint: true, throwIfNoEntry: false });
  return s ? fingerprintOf(s, nowMs) : null;
}

/**
 * statFingerprint of stats already taken (an open file's fstat), null when too recent.
 * @example fingerprintOf(fs.fstatSync(fd, { bigint: true }), Date.now())
 */
export function fingerprintOf(s: fs.BigIntStats, nowMs: number): string | null {
  const changedMs = Number((s.ctimeNs > s.mtimeNs ? s.ctimeNs : s.mtimeNs) / 1_000_000n);
  if (nowMs - changedMs < RACY_MS) return null;
  return `${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}`;
}

export interface SourceCheck {
  /** Every source still has its recorded content. */
  fresh: boolean;
  /**
   * When fresh and some fingerprint was missing or outdated but can now be trusted: the
   * sources with fingerprints brought up to date (worth writing back); else null.
   */
  refreshed: SourceHash[] | null;
}

/**
 * Whether every source still has its recorded hash: by fingerprint when it matches, by
 * reading and hashing the file otherwise.
 * @example checkSources([{ file: '/p/a.yaml', sha256: 'ab..' }]).fresh // false after an edit
 */
export function checkSources(
  sources: readonly SourceHash[],
  hash: (file: string) => string | null = hashFile,
  nowMs: number = Date.now(),
): SourceCheck {
  let refreshed = false;
  const updated: SourceHash[] = [];
  for (const source of sources) {
    const fingerprint = safeFingerprint(source.file, nowMs);
    if (source.stat !== undefined && fingerprint === source.stat) {
      updated.push(source);
      continue;
    }
    if (hash(source.file) !== source.sha256) return { fresh: false, refreshed: null };
    if (fingerprint !== null) refreshed = true;
    updated.push(fingerprint !== null ? { ...source, stat: fingerprint } : withoutStat(source));
  }
  return { fresh: true, refreshed: refreshed ? updated : null };
}

/**
 * True when every source still has its recorded hash.
 * @example sourcesUnchanged([{ file: '/p/a.yaml', sha256: 'ab..' }]) // false after an edit
 */
export function sourcesUnchanged(sources: readonly SourceHash[], hash: (file: string) => string | null = hashFile): boolean {
  return checkSources(sources, hash).fresh;
}

/**
 * The sources of a fresh build with fingerprints added where the file still has the
 * hash that was compiled (stat first, then hash: a change in between moves the stat). A
 * file `known` (the build before) with this very fingerprint and hash is not hashed again.
 */
export function fingerprintSources(
  sources: readonly SourceHash[], hash: (file: string) => string | null = hashFile, nowMs: number = Date.now(), known: readonly SourceHash[] = [],
): SourceHash[] {
  return sources.map((source) => {
    const fingerprint = safeFingerprint(source.file, nowMs);
    if (fingerprint === null) return withoutStat(source);
    if (known.some((k) => k.file === source.file && k.stat === fingerprint && k.sha256 === source.sha256)) return { ...source, stat: fingerprint };
    return hash(source.file) === source.sha256 ? { ...source, stat: fingerprint } : withoutStat(source);
  });
}

function safeFingerprint(file: string, nowMs: number): string | null {
  try {
    return statFingerprint(file, nowMs);
  } catch {
    return null;
  }
}

function withoutStat(source: SourceHash): SourceHash {
  return { file: source.file, sha256: source.sha256 };
}
