/**
 * Where an outbox lives: a folder of the first cache folder this user alone can write.
 */
import * as fs from 'fs';
import * as path from 'path';
import { cacheDirectories, cacheFolderDistrust } from '../cache';

/**
 * The outbox `name` under the first cache folder this user alone can write (made with mode
 * 0700 when missing); null when there is none. A folder is judged as the policy cache
 * judges its own (cacheFolderDistrust): records waiting here are sent on, and a folder
 * another user can write would let them change or add one.
 * @example outboxFolder(process.env, 'webhook-spool') // '/home/me/.cache/hookpolicy/webhook-spool'
 */
export function outboxFolder(env: Readonly<Record<string, string | undefined>>, name: string): string | null {
  for (const dir of cacheDirectories(env)) {
    if (cacheFolderDistrust(dir) !== null) continue;
    const folder = path.join(dir, name);
    try {
      fs.mkdirSync(folder, { recursive: true, mode: 0o700 });
    } catch {
      continue;
    }
    if (cacheFolderDistrust(dir) === null && cacheFolderDistrust(folder) === null) return folder;
  }
  return null;
}
