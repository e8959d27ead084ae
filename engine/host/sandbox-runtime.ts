/**
 * Can Claude Code's sandbox start on this machine? On Linux it runs each Bash command under
 * bubblewrap (`bwrap`, which needs user namespaces, or root) and bridges the command's
 * network through `socat`; on macOS under Seatbelt (`sandbox-exec`). With
 * `failIfUnavailable`, a session does not start without them (docs/commands/init.md).
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';

/** A program on PATH, or null. */
function onPath(program: string, pathList: string): string | null {
  for (const dir of pathList.split(path.delimiter)) {
    if (dir === '') continue;
    const file = path.join(dir, program);
    try {
      fs.accessSync(file, fs.constants.X_OK);
      if (fs.statSync(file).isFile()) return file;
    } catch {
      // Not here.
    }
  }
  return null;
}

/**
 * Why the sandbox cannot start here, or null when it can (or on a platform this does not know).
 * On Linux, bubblewrap is also run once the way the sandbox runs it (new user, pid and
 * network namespaces): where user namespaces are refused (some container runtimes,
 * Ubuntu's AppArmor restriction), it says so.
 * @example sandboxUnavailable(process.env) // null, or 'socat is not on PATH'
 */
export function sandboxUnavailable(env: Readonly<Record<string, string | undefined>>, platform: NodeJS.Platform = process.platform): string | null {
  const pathList = env.PATH ?? '';
  if (platform === 'darwin') return fs.existsSync('/usr/bin/sandbox-exec') ? null : '/usr/bin/sandbox-exec (Seatbelt) is missing';
  if (platform !== 'linux') return null;
  const missing = ['bwrap', 'socat'].filter((p) => onPath(p, pathList) === null);
  if (missing.length > 0) {
    return `${missing.map((p) => (p === 'bwrap' ? 'bwrap (bubblewrap)' : p)).join(' and ')} ${missing.length > 1 ? 'are' : 'is'} not on PATH (Debian and Ubuntu: apt-get install bubblewrap socat; Fedora: dnf install bubblewrap socat)`;
  }
  const trial = spawnSync(onPath('bwrap', pathList) as string, ['--ro-bind', '/', '/', '--dev', '/dev', '--unshare-user', '--unshare-pid', '--unshare-net', '--proc', '/proc', '--', '/bin/sh', '-c', 'exit 0'], { encoding: 'utf8', timeout: 10_000 });
  if (trial.status === 0) return null;
  return `bubblewrap cannot make its namespaces here (${(trial.stderr || trial.error?.message || `exit ${trial.status}`).trim()})`;
}
