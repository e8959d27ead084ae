/**
 * Store folders and records for the room's tests.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import type { JournalRecord } from './journal';

/** A fresh project folder (real path) and its store folder (not made yet). */
export function tempStore(): { projectRoot: string; dir: string; remove(): void } {
  const projectRoot = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'hp-memory-')));
  return { projectRoot, dir: path.join(projectRoot, '.claude', 'hookpolicy', 'memory'), remove: () => fs.rmSync(projectRoot, { recursive: true, force: true }) };
}

/** A journal record with everything filled, the given fields on top. */
export function journalRecord(extra: Partial<JournalRecord> = {}): JournalRecord {
  return {
    at: '2026-01-15T10:00:00.000Z', session: 's1', agent: null, event: 'PostToolUse', rule: 'observe',
    kind: 'file-change', importance: 0.7, text: 'Write src/a.ts', fields: { tool: 'Write' }, ...extra,
  };
}
