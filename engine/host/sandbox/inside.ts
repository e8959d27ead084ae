/**
 * The sandbox from inside: started by `unshare` as the first process of a new user, mount
 * and PID namespace (root there, this user outside). It lays an overlay over the project,
 * runs the command as this user in it, stops every process the command left behind (none
 * may write after the changes are read), lists the changes (changes.ts) and hands them out
 * on descriptor 3. It judges and commits nothing: the project it sees is the command's
 * view, which the command could have changed (its policy file included), so that is done
 * outside (cli/sandbox-main.ts), on the real project.
 */
import { spawn, spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import { listChanges, type Change } from './changes';

export interface InsideSpec {
  project: string;
  /** The overlay's folders, in a private temp folder: upper (the writes), work, lower (the project, bound). */
  upper: string;
  work: string;
  lower: string;
  cwd: string;
  /** This user, outside, to run the command as. */
  uid: number;
  gid: number;
  shell: string;
  command: string;
}

/** What the inside hands out: the changes and how the command ended, or why it could not run. */
export type InsideReport =
  | { setup: string }
  | { status: number | null; signal: string | null; changes: Change[] };

/**
 * Sets up the overlay, runs the command, reports on descriptor 3; resolves to the exit code.
 * @example await runInside(spec) // 0, with {"status":0,"signal":null,"changes":[...]} on fd 3
 */
export async function runInside(spec: InsideSpec, report: (r: InsideReport) => void): Promise<number> {
  const setup = mountOverlay(spec);
  if (setup !== null) {
    report({ setup });
    return 125;
  }
  const ended = await runCommand(spec);
  // Every process of the command is in this PID namespace, which this process heads: none
  // may write once the changes are read. (Only ever as PID 1: elsewhere -1 would be all of this user's processes.)
  if (process.pid === 1) {
    try {
      process.kill(-1, 'SIGKILL');
    } catch {
      // nothing left
    }
  }
  report({ ...ended, changes: listChanges(spec.upper, spec.project, spec.lower) });
  return ended.status ?? 128 + (signalNumber(ended.signal) ?? 1);
}

/** The project bound read-only at `lower` (so it stays readable), then the overlay over the project; null, or why not. */
function mountOverlay(spec: InsideSpec): string | null {
  for (const p of [spec.project, spec.upper, spec.work, spec.lower]) {
    // The overlay's options are comma- and colon-separated.
    if (/[,:\\\n]/.test(p)) return `the path ${JSON.stringify(p)} holds a character the overlay's options cannot carry`;
  }
  const bind = spawnSync('mount', ['--bind', spec.project, spec.lower], { encoding: 'utf8' });
  if (bind.status !== 0) return `mount --bind failed: ${(bind.stderr || bind.error?.message || `exit ${bind.status}`).trim()}`;
  // Read-only, or the command would write the real project through it. The flag is locked
  // for namespaces the command makes (it cannot remount it, nor unmount the overlay).
  const readOnly = spawnSync('mount', ['-o', 'remount,bind,ro', spec.lower], { encoding: 'utf8' });
  if (readOnly.status !== 0) return `mount -o remount,bind,ro failed: ${(readOnly.stderr || readOnly.error?.message || `exit ${readOnly.status}`).trim()}`;
  const options = `userxattr,lowerdir=${spec.lower},upperdir=${spec.upper},workdir=${spec.work}`;
  const overlay = spawnSync('mount', ['-t', 'overlay', 'overlay', '-o', options, spec.project], { encoding: 'utf8' });
  if (overlay.status !== 0) return `mount -t overlay failed: ${(overlay.stderr || overlay.error?.message || `exit ${overlay.status}`).trim()}`;
  return null;
}

/** The command, as this user (a user namespace inside this one maps it back), in its folder as seen through the overlay. */
function runCommand(spec: InsideSpec): Promise<{ status: number | null; signal: string | null }> {
  return new Promise((resolve) => {
    const args = ['--user', `--map-user=${spec.uid}`, `--map-group=${spec.gid}`, '--', spec.shell, '-c', spec.command];
    // The folder is opened again by its path, so it is the overlay's, not the project under it.
    const child = spawn('unshare', args, { cwd: existingFolder(spec.cwd), stdio: ['inherit', 'inherit', 'inherit'], env: process.env });
    child.on('error', (e) => {
      process.stderr.write(`hookpolicy sandbox: ${e.message}\n`);
      resolve({ status: 127, signal: null });
    });
    child.on('exit', (status, signal) => resolve({ status, signal }));
  });
}

function existingFolder(dir: string): string {
  try {
    return fs.statSync(dir).isDirectory() ? dir : '/';
  } catch {
    return '/';
  }
}

function signalNumber(signal: string | null): number | null {
  if (signal === null) return null;
  const n = (os.constants.signals as Record<string, number>)[signal];
  return typeof n === 'number' ? n : null;
}
