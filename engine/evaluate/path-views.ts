/**
 * Judging a touched path by every path it may really be. A path is caught by `deny` when
 * any reading of it matches (as written, as resolved through symlinks, with backslashes as
 * name characters; case-insensitively; NFC), and it is inside `allow` (or `except`) only
 * when every reading is (case-sensitively). Ambiguity falls on the side of catching.
 */
import type { CompiledPathFilter, RegexSource } from '../types';
import { normalizePath } from './paths';
import { toRegExp } from './regex';

/** The readings of one touched path. */
export interface PathView {
  /** As written, normalized: project-relative, or absolute outside the project. */
  path: string;
  /** Where it really leads once symlinks are followed, when that differs. */
  resolved: string | null;
  /** With backslashes as characters of a name (POSIX projects), when that differs. */
  literal: string | null;
}

/**
 * The readings of a raw path. Backslashes are separators on a Windows project root, and
 * both separators and name characters on a POSIX one.
 * @example pathView('src/link/a.ts', '/p', '/p', (p) => (p === 'src/link/a.ts' ? '/etc/a.ts' : p))
 *   // { path: 'src/link/a.ts', resolved: '/etc/a.ts', literal: null }
 */
export function pathView(raw: string, cwd: string, projectRoot: string, realpath?: (path: string) => string | null): PathView {
  const path = normalizePath(raw, cwd, projectRoot);
  const posixRoot = projectRoot.startsWith('/');
  const literalPath = posixRoot && raw.includes('\\') ? normalizePath(raw, cwd, projectRoot, { backslash: 'literal' }) : null;
  const real = realpath ? realpath(path) : null;
  const resolved = real === null || real === '' ? null : normalizePath(real, projectRoot, projectRoot);
  return { path, resolved: resolved === path ? null : resolved, literal: literalPath === path ? null : literalPath };
}

/**
 * True when the filter catches the path: a reading matches `deny` or lies outside `allow`,
 * and not every reading is exempted by `except`.
 * @example isCaught(pathFilter({ deny: ['.env'] }), { path: '.ENV', resolved: null, literal: null }) // true
 */
export function isCaught(filter: CompiledPathFilter, view: PathView): boolean {
  const readings = [view.path, view.resolved, view.literal].filter((p): p is string => p !== null).map((p) => p.normalize('NFC'));
  if (filter.except && readings.every((p) => matchesAny(filter.except as RegexSource[], p, false))) return false;
  if (filter.deny && readings.some((p) => matchesAny(filter.deny as RegexSource[], p, true))) return true;
  return filter.allow !== null && readings.some((p) => !matchesAny(filter.allow as RegexSource[], p, false));
}

const DRIVE_PATH = /^[A-Za-z]:(?:\/|$)/;
/** A compiled glob that starts with a drive letter (`D:/**`), with or without the relative-only guard. */
const DRIVE_GLOB = /^\^(?:\(\?!\/\|\\\.\\\.\/\))?\(\?:[A-Za-z]:/;

/**
 * True when one of the compiled globs matches the path. A path on a drive (`D:/x`) is only
 * matched by globs naming a drive: the compiler's relative-only guard rules out `/` and
 * `../` but not `D:/`.
 * @example matchesAny([globRegex('**')], 'D:/x', false) // false
 */
export function matchesAny(globs: readonly RegexSource[], path: string, ignoreCase: boolean): boolean {
  const onDrive = DRIVE_PATH.test(path);
  for (const glob of globs) {
    if (onDrive && !DRIVE_GLOB.test(glob.source)) continue;
    if (toRegExp(variant(glob, ignoreCase)).test(path)) return true;
  }
  return false;
}

const variants = new WeakMap<RegexSource, { exact: RegexSource; folded: RegexSource }>();

/** The glob with an NFC source, and its case-insensitive twin, built once per glob. */
function variant(glob: RegexSource, ignoreCase: boolean): RegexSource {
  let pair = variants.get(glob);
  if (!pair) {
    const source = glob.source.normalize('NFC');
    pair = {
      exact: source === glob.source ? glob : { source, flags: glob.flags },
      folded: { source, flags: glob.flags.includes('i') ? glob.flags : `${glob.flags}i` },
    };
    variants.set(glob, pair);
  }
  return ignoreCase ? pair.folded : pair.exact;
}
