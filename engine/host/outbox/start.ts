/**
 * The runner's side of an outbox: queue a record, and start the drainer when none is alive.
 * One file write and one stat; the drainer is a detached process nobody waits for.
 */
import type { spawn as spawnChild } from 'child_process';
import { diagnostic } from '../../diagnostics';
import type { Diagnostic } from '../../types';
import { drainerAlive } from './lock';
import { enqueue } from './queue';

export interface StartDrainerOptions {
  spawn?: typeof spawnChild;
  /** The drainer's environment (default: this process's, which it inherits). */
  env?: NodeJS.ProcessEnv;
}

/**
 * Starts `node script folder` detached, unless a live drainer holds the folder's lock.
 * Returns a `log-error` warning when it cannot be started.
 * @example startDrainer(folder, path.join(__dirname, 'webhook-sender.cjs'))
 */
export function startDrainer(folder: string, script: string, options: StartDrainerOptions = {}): Diagnostic | null {
  if (drainerAlive(folder)) return null;
  try {
    // child_process (and the net and stream modules it pulls in) costs ~3 ms to load:
    // only a runner that has to start a drainer pays for it.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const spawn = options.spawn ?? (require('child_process') as { spawn: typeof spawnChild }).spawn;
    const child = spawn(process.execPath, [script, folder], {
      stdio: ['ignore', 'ignore', 'ignore'],
      detached: true,
      windowsHide: true,
      ...(options.env ? { env: options.env } : {}),
    });
    child.on('error', () => undefined);
    child.unref();
    return null;
  } catch (e) {
    return diagnostic('log-error', `cannot start ${script}: ${(e as Error).message}`);
  }
}

/**
 * Queues one record in `folder` and starts its drainer when none is alive. Returns a
 * `log-error` warning instead of throwing.
 * @example sendThroughOutbox(folder, JSON.stringify(item), path.join(__dirname, 'otlp-exporter.cjs'))
 */
export function sendThroughOutbox(folder: string, text: string, script: string, options: StartDrainerOptions = {}): Diagnostic | null {
  try {
    enqueue(folder, text);
  } catch (e) {
    return diagnostic('log-error', `cannot queue a record in ${folder}: ${(e as Error).message}`);
  }
  return startDrainer(folder, script, options);
}
