/**
 * What a stored record is about, read from its kind and fields, for the deterministic
 * session summary and the metrics. Packs name kinds as the seed does (`file-change`,
 * `command`, `test`, `error`, `metric`, `summary`); fields say more (`paths`, `command`,
 * `success`, `duration_ms`, `tool`). Pure.
 */
import type { MemoryRecord } from '../types';

/** A record's text or fields said the call failed: `success` false/0/no, or a PostToolUseFailure event. */
export function isFailure(record: Pick<MemoryRecord, 'kind' | 'event' | 'fields'>): boolean {
  const success = record.fields.success?.trim().toLowerCase();
  if (success !== undefined && success !== '') return ['false', '0', 'no', 'failed', 'failure', 'error'].includes(success);
  return record.event === 'PostToolUseFailure' || /error|fail/i.test(record.kind);
}

/** A test run: a kind naming tests, or a `test` field. */
export function isTestRun(record: Pick<MemoryRecord, 'kind' | 'fields'>): boolean {
  return /test/i.test(record.kind) || (record.fields.test ?? '') !== '';
}

/** The files a record names: its `paths` field (", "-separated, as `{{paths}}` renders), `path` or `file_path`. */
export function recordPaths(record: Pick<MemoryRecord, 'fields'>): string[] {
  const { paths, path, file_path: filePath } = record.fields;
  const listed = (paths ?? '').split(/,\s*|\n/).map((p) => p.trim()).filter((p) => p !== '');
  return [...listed, ...[path, filePath].filter((p): p is string => typeof p === 'string' && p.trim() !== '').map((p) => p.trim())];
}

/** A change to files: a kind naming files, writes or edits, or a record whose fields name paths. */
export function isFileChange(record: Pick<MemoryRecord, 'kind' | 'fields'>): boolean {
  return /file|write|edit/i.test(record.kind) || recordPaths(record).length > 0;
}

/** A shell command: a kind naming commands or Bash, or a `command` field. */
export function isCommand(record: Pick<MemoryRecord, 'kind' | 'fields'>): boolean {
  return /command|bash|shell/i.test(record.kind) || (record.fields.command ?? '') !== '';
}
