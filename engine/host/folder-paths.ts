/**
 * Where a path lies among folders, read from the file system without creating anything:
 * what the decision log and the memory store check before they make a folder.
 */
import * as fs from 'fs';
import * as path from 'path';

/**
 * The folder itself when it exists, else its nearest existing parent (the root at worst).
 * @example nearestExisting('/p/.claude/new/deeper') // '/p/.claude'
 */
export function nearestExisting(folder: string): string {
  let at = folder;
  while (!fs.existsSync(at)) {
    const up = path.dirname(at);
    if (up === at) break;
    at = up;
  }
  return at;
}

/**
 * True when `file` is `folder` or below it (by name: symlinks are the caller's to resolve).
 * @example isInside('/p/a/b', '/p') // true
 */
export function isInside(file: string, folder: string): boolean {
  const relative = path.relative(folder, file);
  return relative === '' || (relative.split(path.sep)[0] !== '..' && !path.isAbsolute(relative));
}

/**
 * Where `folder` really leads when that is outside the project (a symlinked folder on the
 * way), or null when it stays inside. The project root itself may be reached through a
 * symlink: real and real are compared only when needed.
 * @example leadsOutOf('/p/.claude/logs', '/p') // '/etc' when logs -> /etc
 */
export function leadsOutOf(folder: string, projectRoot: string): string | null {
  const real = fs.realpathSync.native(folder);
  const root = path.resolve(projectRoot);
  return isInside(real, root) || isInside(real, fs.realpathSync.native(root)) ? null : real;
}
