/**
 * The loader's window on the file system: reads policy files and finds shipped packs,
 * remembering the hash of every byte it handed out so the cache can tell when any of
 * them changes. A file the build before read, unchanged since (the same stat
 * fingerprint once read), keeps the hash it had: after an edit only the edited file is
 * hashed.
 */
import * as fs from 'fs';
import * as path from 'path';
import { parsePolicyText, type PolicyReader } from '../load';
import { snapshotSourceMap, type ParseSnapshot } from '../load/parse-snapshot';
import { sha256Hex, statFingerprint, type SourceHash } from './cache';

export interface RecordingReader extends PolicyReader {
  /**
   * Every file read so far, with the hash of the content that was read; a file that could
   * not be read has MISSING_FILE, which no file ever hashes to.
   */
  sources(): SourceHash[];
}

/**
 * The "hash" of a file that could not be read. A policy built without it (an include left
 * out) is then never fresh in the cache: it is built again until the file appears, never
 * served stale after.
 */
export const MISSING_FILE = 'missing';

/**
 * A reader over the real file system; packs are `<packDir>/<name>.yaml`. `shipped`: the
 * build's parses of the shipped packs by text hash (shipped-parses.ts), asked once, when a
 * file of `packDir` is loaded; such a file whose text has one is not parsed again.
 * `known`: the sources of the build before, with their fingerprints; `now`: the clock that
 * says when a fingerprint is too recent to trust (sources.ts).
 * @example createFsReader('/pkg/policies').packPath('ai-team') // '/pkg/policies/ai-team.yaml'
 */
export function createFsReader(
  packDir: string, shipped: () => Record<string, ParseSnapshot> | null = () => null, options: { known?: readonly SourceHash[]; now?: () => number } = {},
): RecordingReader {
  const read = new Map<string, string>();
  const known = options.known ?? [];
  /** The hash `known` gives the file when, read, it still has the fingerprint recorded with it. */
  const knownHash = (file: string): string | undefined => {
    const before = known.find((k) => k.file === file && typeof k.stat === 'string');
    if (!before) return undefined;
    // Stat'ed after the read: a change before or during it has moved the fingerprint.
    return safeFingerprint(file, (options.now ?? Date.now)()) === before.stat ? before.sha256 : undefined;
  };
  let snapshots: Record<string, ParseSnapshot> | null | undefined;
  return {
    parsed(file, text) {
      if (path.resolve(path.dirname(file)) !== path.resolve(packDir)) return null;
      const sha = read.get(file);
      if (snapshots === undefined) snapshots = shipped();
      const snapshot = sha !== undefined && snapshots !== null && Object.hasOwn(snapshots, sha) ? snapshots[sha] : undefined;
      if (!snapshot) return null;
      const map = snapshotSourceMap(file, snapshot, () => parsePolicyText(file, text).map);
      return { doc: snapshot.doc, map, diagnostics: [], placed: [], ...(snapshot.expressions ? { expressions: snapshot.expressions } : {}), ...(snapshot.expressionRegexes ? { expressionRegexes: snapshot.expressionRegexes } : {}), ...(snapshot.valid ? { valid: true as const } : {}) };
    },
    read(file: string): string | null {
      let bytes: Buffer;
      try {
        bytes = fs.readFileSync(file);
      } catch {
        read.set(file, MISSING_FILE);
        return null;
      }
      read.set(file, knownHash(file) ?? sha256Hex(bytes));
      return bytes.toString('utf8');
    },
    digest: (file) => read.get(file),
    packPath(name: string): string | null {
      if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(name)) return null;
      const file = path.join(packDir, `${name}.yaml`);
      return fs.existsSync(file) ? file.split(path.sep).join('/') : null;
    },
    sources(): SourceHash[] {
      return [...read].map(([file, sha256]) => ({ file, sha256 }));
    },
  };
}

/**
 * The shipped packs folder: `policies/` at the package root, found from the bundle
 * (dist/) or from the sources (engine/host/).
 */
export function defaultPackDir(here: string = __dirname): string {
  const candidates = [path.resolve(here, '..', 'policies'), path.resolve(here, '..', '..', 'policies')];
  return candidates.find((dir) => fs.existsSync(dir)) ?? candidates[0];
}

function safeFingerprint(file: string, nowMs: number): string | null {
  try {
    return statFingerprint(file, nowMs);
  } catch {
    return null;
  }
}
