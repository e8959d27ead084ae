/**
 * Entry of dist/pg-shipper.cjs: the one process that drains the `postgres-outbox` folder
 * (its argument) into the database at $HOOKPOLICY_DATABASE_URL. Started detached by a
 * runner that queued records; ends when the outbox stays empty, or after its life while
 * the database is down (the records stay queued for the next one). Nobody waits for it.
 * It writes what it last saw to `shipper-state.json` in the folder for `policy db status`.
 */
import * as fs from 'fs';
import * as path from 'path';
import { drainOutbox } from '../outbox';
import { SHIPPER_STATE_FILE, databaseUrl } from './config';
import { postgresDeliver, type ShipperState } from './deliver';

const folder = process.argv[2];
const url = databaseUrl(process.env);
if (folder && url) void run(folder, url);

async function run(dir: string, databaseUrlText: string): Promise<void> {
  let last = '';
  const { deliver, close } = postgresDeliver(databaseUrlText, {
    onState: (state) => {
      // Written when it changes: a healthy shipper does not rewrite it at every batch.
      const key = `${state.ok}|${state.error ?? ''}`;
      if (key !== last) writeState(dir, state);
      last = key;
    },
  });
  try {
    await drainOutbox(dir, deliver, { batch: 200, idleMs: 2000, backoffMs: { first: 1000, max: 30_000 } });
  } finally {
    await close();
  }
}

function writeState(dir: string, state: ShipperState): void {
  const file = path.join(dir, SHIPPER_STATE_FILE);
  const temporary = `${file}.${process.pid}.tmp`;
  try {
    fs.writeFileSync(temporary, `${JSON.stringify(state)}\n`, { mode: 0o600, flag: 'wx' });
    fs.renameSync(temporary, file);
  } catch {
    // Only a report: the records themselves are safe in the outbox either way.
  }
}
