/**
 * Facts over the real file system under the project root: the evaluator's only way to
 * look at files. Globs are walked from their static base, bounded in entries visited.
 */
import * as fs from 'fs';
import * as path from 'path';
import type { Facts, FileFact, FileIdentity } from '../types';
import { withinWatchdog } from '../evaluate/regex';
import { walkGlob } from './walk-glob';

export interface FileFactsOptions {
  /** Most directory entries one findFiles may visit (default 10,000). */
  maxEntries?: number;
}

const SKIPPED_DIRS = ['node_modules', '.git'];
/** How long a walk matched by picomatch's regex may take when no deadline applies. */
const WALK_WATCHDOG_MS = 5000;

/**
 * Facts rooted at `projectRoot` (absolute POSIX). Paths are project-relative POSIX, or
 * absolute for places outside the project. One instance serves one event: a folder is
 * listed, and a file found by a walk is stat'ed, once however many globs reach it.
 * @example createFileFacts('/p').findFiles('docs/**\/*.md') // [{ path: 'docs/a.md', size: 12, mtimeMs: ... }]
 */
export function createFileFacts(projectRoot: string, options: FileFactsOptions = {}): Facts {
  const maxEntries = options.maxEntries ?? 10_000;
  const seen: Seen = { listings: new Map(), files: new Map() };
  let rootReal: string | null = null;
  const abs = (p: string) => path.posix.resolve(projectRoot, forwardSlashes(p));
  // `absolute` always comes from resolve or join, so it is normalized: under a normalized
  // root, the relative path is what follows the root's prefix (no path.relative call).
  let prefix: string | null | undefined;
  const display = (absolute: string) => {
    prefix ??= path.posix.resolve(projectRoot) === projectRoot ? (projectRoot.endsWith('/') ? projectRoot : `${projectRoot}/`) : null;
    if (prefix !== null && absolute.length > prefix.length && absolute.startsWith(prefix)) return absolute.slice(prefix.length);
    const rel = path.posix.relative(projectRoot, absolute);
    return rel === '' ? '.' : rel.startsWith('../') || rel === '..' || path.posix.isAbsolute(rel) ? absolute : rel;
  };
  const resolve = (p: string): { real: string; via: string[] } | null => {
    const found = followLinks(abs(p));
    if (found === null) return null;
    // Compare with the root's own real path, so a project under a symlinked folder stays inside.
    rootReal ??= followLinks(projectRoot)?.real ?? projectRoot;
    const root = rootReal;
    const shown = (real: string) => {
      const rel = path.posix.relative(root, real);
      return rel === '' ? '.' : rel.startsWith('../') || rel === '..' || path.posix.isAbsolute(rel) ? real : rel;
    };
    return { real: shown(found.real), via: found.via.map(shown) };
  };
  return {
    findFiles(glob: string): FileFact[] {
      const pattern = forwardSlashes(glob);
      const plan = walkGlob(pattern);
      const base = abs(plan.base === '' ? '.' : plan.base);
      if (!plan.isGlob) {
        const fact = fileFact(base);
        return fact ? [{ ...fact, path: display(base) }] : [];
      }
      const isMatch = plan.test;
      const skipped = SKIPPED_DIRS.filter((d) => !namesFolder(pattern, d));
      const found: FileFact[] = [];
      const walkAll = () => walk(base, '', { isMatch, skipped, budget: { left: maxEntries }, seen }, (rel, fact) => {
        found.push({ ...fact, path: display(path.posix.join(base, rel)) });
      });
      // picomatch's regex on names the agent chose: stopped at what is left of deadline_ms.
      if (plan.native) withinWatchdog(glob, 'a walk of the files under its folder, matched by its regex', walkAll, WALK_WATCHDOG_MS);
      else walkAll();
      return found.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    },
    listFolder(p: string): string[] | null {
      try {
        return fs.readdirSync(abs(p));
      } catch {
        return null;
      }
    },
    stat(p: string): 'file' | 'dir' | null {
      try {
        const s = fs.statSync(abs(p));
        return s.isFile() ? 'file' : s.isDirectory() ? 'dir' : null;
      } catch {
        return null;
      }
    },
    readText(p: string, maxBytes: number): string | null {
      return readHead(abs(p), maxBytes);
    },
    realpath(p: string): string | null {
      return resolve(p)?.real ?? null;
    },
    resolve,
    volume(): { windows: boolean } {
      return { windows: process.platform === 'win32' || WSL_DRIVE.test(projectRoot) };
    },
    identity(p: string): FileIdentity | null {
      return identityOf(abs(p));
    },
    readLink(p: string): string | null {
      try {
        return fs.readlinkSync(abs(p));
      } catch {
        return null;
      }
    },
  };
}

/**
 * The file a write to `absolute` opens (links followed), as device and inode; null when it
 * does not exist, cannot be reached, or has no inode number (some Windows volumes give 0:
 * every file would look alike). An inode number past 2^53, which a plain number would
 * round, is read again exactly.
 */
function identityOf(absolute: string): FileIdentity | null {
  let s: fs.Stats | fs.BigIntStats | undefined;
  try {
    s = fs.statSync(absolute, { throwIfNoEntry: false });
    if (s !== undefined && s.ino > Number.MAX_SAFE_INTEGER) s = fs.statSync(absolute, { bigint: true, throwIfNoEntry: false });
  } catch {
    return null;
  }
  if (s === undefined || Number(s.ino) === 0) return null;
  return { id: `${s.dev}:${s.ino}`, links: Number(s.nlink), kind: s.isFile() ? 'file' : s.isDirectory() ? 'dir' : 'other' };
}

/** A Windows drive mounted in WSL (`/mnt/c/...`): Windows file-name rules apply there. */
const WSL_DRIVE = /^\/mnt\/[a-z](?:\/|$)/;
/** Places that mean the opening process's own descriptors or folders: not followed (they would be the runner's). */
const PROCESS_LOCAL = /^\/(?:proc|dev\/fd|dev\/std(?:in|out|err))(?:\/|$)/;
/** The kernel's bound on links followed in one lookup. */
const MAX_LINKS = 40;

/** `p` with backslashes turned into slashes (string scans, not a regex: no compile at the first event). */
function forwardSlashes(p: string): string {
  return p.includes('\\') ? p.split('\\').join('/') : p;
}

/** True when the glob names `folder` as a whole word (`node_modules/**`, `{src,.git}/*`): the walk then enters it. */
function namesFolder(glob: string, folder: string): boolean {
  const separators = '/{},()|';
  for (let at = glob.indexOf(folder); at >= 0; at = glob.indexOf(folder, at + 1)) {
    const before = at === 0 || separators.includes(glob[at - 1]);
    const after = at + folder.length === glob.length || separators.includes(glob[at + folder.length]);
    if (before && after) return true;
  }
  return false;
}

/**
 * Where an absolute path really leads, link by link: each symlink on the way is replaced
 * by its target, whether that target exists or not (a dangling link leads to the file a
 * write through it creates). `via` holds each place a link pointed to, with the rest of
 * the path appended (the end among them); `real` is the end. Null on a loop. Paths into /proc or /dev/fd stop
 * there: they name the opening process's descriptors, not the runner's. On Windows the
 * longest existing prefix is resolved by the system (8.3 short names expanded).
 * @example followLinks('/p/tests/dl.test.ts') // { real: '/p/src/new.ts', via: [] } for a dangling tests/dl.test.ts -> ../src/new.ts
 */
function followLinks(absolute: string): { real: string; via: string[] } | null {
  if (process.platform === 'win32') {
    const real = resolveExistingNative(absolute);
    return real === null ? null : { real, via: [] };
  }
  const via: string[] = [];
  let rest = absolute.split('/').filter((s) => s !== '' && s !== '.');
  let current = '/';
  let links = 0;
  while (rest.length > 0) {
    const name = rest[0];
    rest = rest.slice(1);
    if (name === '..') {
      current = path.posix.dirname(current);
      continue;
    }
    const next = path.posix.join(current, name);
    if (PROCESS_LOCAL.test(next)) return { real: path.posix.join(next, ...rest), via };
    let target: string | null = null;
    try {
      if (fs.lstatSync(next).isSymbolicLink()) target = fs.readlinkSync(next);
    } catch {
      // Missing (a file about to be created) or unreadable: the rest is appended as written.
      return { real: path.posix.join(next, ...rest), via };
    }
    if (target === null) {
      current = next;
      continue;
    }
    if (++links > MAX_LINKS) return null;
    const base = target.startsWith('/') ? '/' : current;
    const pointed = path.posix.join(base, target, ...rest);
    if (via[via.length - 1] !== pointed) via.push(pointed);
    rest = [...target.split('/').filter((s) => s !== '' && s !== '.'), ...rest];
    current = base;
  }
  return { real: current, via };
}

/** Windows: the longest existing prefix resolved by the system, the rest appended. */
function resolveExistingNative(absolute: string): string | null {
  const tail: string[] = [];
  let head = absolute;
  for (;;) {
    try {
      const real = fs.realpathSync.native(head).split(path.sep).join('/');
      return tail.length === 0 ? real : path.posix.join(real, ...tail.reverse());
    } catch {
      const parent = path.posix.dirname(head);
      if (parent === head) return null;
      tail.push(path.posix.basename(head));
      head = parent;
    }
  }
}

/** What one facts instance has already read from the disk. */
interface Seen {
  /** Folder -> its entries in name order (null: it cannot be listed). */
  listings: Map<string, fs.Dirent[] | null>;
  files: Map<string, Omit<FileFact, 'path'> | null>;
}

interface WalkState {
  isMatch: (rel: string) => boolean;
  skipped: string[];
  budget: { left: number };
  seen: Seen;
}

/** Depth-first walk in name order; symlinked folders are not entered (no cycles). */
function walk(dir: string, rel: string, state: WalkState, onFile: (rel: string, fact: Omit<FileFact, 'path'>) => void): void {
  const entries = listing(dir, state.seen);
  if (!entries) return;
  for (const entry of entries) {
    if (state.budget.left <= 0) return;
    state.budget.left--;
    const childRel = rel === '' ? entry.name : `${rel}/${entry.name}`;
    const child = `${dir}/${entry.name}`;
    if (entry.isDirectory()) {
      if (!state.skipped.includes(entry.name)) walk(child, childRel, state, onFile);
    } else if ((entry.isFile() || entry.isSymbolicLink()) && state.isMatch(childRel)) {
      let fact = state.seen.files.get(child);
      if (fact === undefined) state.seen.files.set(child, (fact = fileFact(child)));
      if (fact) onFile(childRel, fact);
    }
  }
}

function listing(dir: string, seen: Seen): fs.Dirent[] | null {
  let entries = seen.listings.get(dir);
  if (entries === undefined) {
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    } catch {
      entries = null;
    }
    seen.listings.set(dir, entries);
  }
  return entries;
}

function fileFact(file: string): Omit<FileFact, 'path'> | null {
  try {
    const s = fs.statSync(file);
    return s.isFile() ? { size: s.size, mtimeMs: s.mtimeMs } : null;
  } catch {
    return null;
  }
}

/**
 * The file's first `maxBytes` bytes as UTF-8. A file that fits is read whole through
 * readFileSync's utf8 path, which the runner has already used (for its event and caches);
 * open/fstat/read and Buffer#toString would each cost their first call (~0.1 ms together).
 */
function readHead(file: string, maxBytes: number): string | null {
  try {
    if (fs.statSync(file).size <= maxBytes) {
      const text = fs.readFileSync(file, 'utf8');
      // A file that grew since the stat is read again, in part.
      if (Buffer.byteLength(text, 'utf8') <= maxBytes) return text;
    }
  } catch {
    return null;
  }
  return readPart(file, maxBytes);
}

function readPart(file: string, maxBytes: number): string | null {
  let fd: number | null = null;
  try {
    fd = fs.openSync(file, 'r');
    const buffer = Buffer.alloc(Math.max(0, Math.min(maxBytes, fs.fstatSync(fd).size)));
    let filled = 0;
    while (filled < buffer.length) {
      const n = fs.readSync(fd, buffer, filled, buffer.length - filled, filled);
      if (n === 0) break;
      filled += n;
    }
    return buffer.subarray(0, filled).toString('utf8');
  } catch {
    return null;
  } finally {
    if (fd !== null) fs.closeSync(fd);
  }
}
