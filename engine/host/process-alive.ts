/**
 * Whether a process still runs, for the locks that name their holder's pid (the decision
 * log's, an outbox's drainer): a holder that is gone leaves a lock to take over.
 */
import * as fs from 'fs';

/**
 * True when a process with this pid exists and is not a zombie (one of another user's
 * counts: signal 0 answers EPERM).
 * @example processAlive(process.pid) // true
 */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
  // A killed process whose parent (a runner, gone) left it to an init that does not reap
  // is a zombie: it answers signal 0 but holds nothing. Linux says so in /proc.
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return true;
  }
}
