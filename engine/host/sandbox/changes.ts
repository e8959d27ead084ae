/**
 * What a sandboxed command changed in the project: read inside the sandbox once the
 * command has ended, from the overlay's upper folder (everything written lands there),
 * the merged view (what the command left) and the lower folder (the project as it is).
 * Deletions are names the lower folder has and the merged view lacks: that covers
 * whiteouts and folders removed and made again (opaque), without reading xattrs.
 * A file copied up with its content and mode unchanged (opened for writing, touched) is
 * no change.
 */
import * as fs from 'fs';
import * as path from 'path';

export type Change =
  | { kind: 'file'; path: string; mode: number }
  | { kind: 'dir'; path: string; mode: number }
  | { kind: 'symlink'; path: string; target: string }
  | { kind: 'mode'; path: string; mode: number }
  | { kind: 'delete'; path: string }
  | { kind: 'special'; path: string };

/** Files larger than this are taken as changed without comparing their bytes. */
const COMPARE_MAX_BYTES = 64 * 1024 * 1024;

/**
 * The changes, project-relative, in walk order: a deletion before what replaces it, a
 * folder before what it holds.
 * @example listChanges('/t/upper', '/p', '/t/lower') // [{ kind: 'file', path: 'src/a.ts', mode: 0o644 }, { kind: 'delete', path: 'old.md' }]
 */
export function listChanges(upper: string, merged: string, lower: string): Change[] {
  const out: Change[] = [];
  walk(upper, merged, lower, '', out);
  return out;
}

function walk(upper: string, merged: string, lower: string, rel: string, out: Change[]): void {
  const at = (root: string, name: string) => path.join(root, rel, name);
  const join = (name: string) => (rel === '' ? name : `${rel}/${name}`);
  for (const name of deleted(at(merged, ''), at(lower, ''))) out.push({ kind: 'delete', path: join(name) });
  let names: string[];
  try {
    names = fs.readdirSync(at(upper, '')).sort();
  } catch {
    return;
  }
  for (const name of names) {
    const u = lstat(at(upper, name));
    if (!u || (u.isCharacterDevice() && u.rdev === 0)) continue; // a whiteout: seen as a deletion above
    const l = lstat(at(lower, name));
    const p = join(name);
    if (l && kindOf(l) !== kindOf(u) && !deletedAlready(out, p)) out.push({ kind: 'delete', path: p });
    if (u.isDirectory()) {
      if (!l || !l.isDirectory()) out.push({ kind: 'dir', path: p, mode: u.mode & 0o7777 });
      else if ((u.mode & 0o7777) !== (l.mode & 0o7777)) out.push({ kind: 'mode', path: p, mode: u.mode & 0o7777 });
      walk(upper, merged, lower, p, out);
    } else if (u.isFile()) {
      if (l && l.isFile() && sameFile(at(upper, name), at(lower, name), u, l)) {
        if ((u.mode & 0o7777) !== (l.mode & 0o7777)) out.push({ kind: 'mode', path: p, mode: u.mode & 0o7777 });
        continue;
      }
      out.push({ kind: 'file', path: p, mode: u.mode & 0o7777 });
    } else if (u.isSymbolicLink()) {
      const target = fs.readlinkSync(at(upper, name));
      if (l && l.isSymbolicLink() && fs.readlinkSync(at(lower, name)) === target) continue;
      out.push({ kind: 'symlink', path: p, target });
    } else {
      out.push({ kind: 'special', path: p });
    }
  }
}

/** Names in the lower folder that the merged view no longer has. */
function deleted(merged: string, lower: string): string[] {
  let before: string[];
  try {
    before = fs.readdirSync(lower);
  } catch {
    return [];
  }
  let after: Set<string>;
  try {
    after = new Set(fs.readdirSync(merged));
  } catch {
    after = new Set();
  }
  return before.filter((n) => !after.has(n)).sort();
}

function deletedAlready(out: readonly Change[], p: string): boolean {
  return out.some((c) => c.kind === 'delete' && c.path === p);
}

function lstat(p: string): fs.Stats | null {
  try {
    return fs.lstatSync(p);
  } catch {
    return null;
  }
}

function kindOf(s: fs.Stats): string {
  return s.isDirectory() ? 'dir' : s.isFile() ? 'file' : s.isSymbolicLink() ? 'symlink' : 'special';
}

function sameFile(a: string, b: string, sa: fs.Stats, sb: fs.Stats): boolean {
  if (sa.size !== sb.size) return false;
  if (sa.size > COMPARE_MAX_BYTES) return false;
  try {
    return fs.readFileSync(a).equals(fs.readFileSync(b));
  } catch {
    return false;
  }
}
