/**
 * The kept changes of a sandboxed command, made in the real project from the overlay's
 * upper folder: a deletion removes the path, a folder is made, a file is copied in through
 * a temporary file and renamed over the old one (another process sees the old file or the
 * new one), a link is made again, a mode is set. A change that cannot be made is reported,
 * not retried.
 */
import * as fs from 'fs';
import * as path from 'path';
import type { Change } from './changes';

/**
 * Makes each change under `project` (absolute), reading new content from `upper`;
 * returns the changes that failed, with why.
 * @example commitChanges('/p', '/t/upper', [{ kind: 'file', path: 'tests/a.test.ts', mode: 0o644 }]) // []
 */
export function commitChanges(project: string, upper: string, changes: readonly Change[]): Array<{ change: Change; error: string }> {
  const failed: Array<{ change: Change; error: string }> = [];
  for (const change of changes) {
    const target = path.join(project, change.path);
    try {
      switch (change.kind) {
        case 'delete': fs.rmSync(target, { recursive: true, force: true }); break;
        case 'dir': fs.mkdirSync(target, { recursive: true, mode: change.mode }); fs.chmodSync(target, change.mode); break;
        case 'mode': fs.chmodSync(target, change.mode); break;
        case 'file': copyIn(path.join(upper, change.path), target, change.mode); break;
        case 'symlink': linkIn(change.target, target); break;
        case 'special': throw new Error('not a file, folder or link');
      }
    } catch (e) {
      failed.push({ change, error: (e as Error).message });
    }
  }
  return failed;
}

function copyIn(from: string, to: string, mode: number): void {
  fs.mkdirSync(path.dirname(to), { recursive: true });
  const temp = `${to}.hookpolicy-${process.pid}.tmp`;
  fs.copyFileSync(from, temp);
  fs.chmodSync(temp, mode);
  replace(temp, to);
}

function linkIn(target: string, to: string): void {
  fs.mkdirSync(path.dirname(to), { recursive: true });
  const temp = `${to}.hookpolicy-${process.pid}.tmp`;
  fs.symlinkSync(target, temp);
  replace(temp, to);
}

/** rename, after removing a folder in the way (a folder the command replaced by a file). */
function replace(temp: string, to: string): void {
  try {
    fs.renameSync(temp, to);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EISDIR' && (e as NodeJS.ErrnoException).code !== 'ENOTEMPTY') {
      fs.rmSync(temp, { force: true });
      throw e;
    }
    fs.rmSync(to, { recursive: true, force: true });
    fs.renameSync(temp, to);
  }
}
