/**
 * Where a policy keeps its memory store and how long records live there: the compiled
 * `settings.memory`, with the defaults for a policy (or an older compiled artefact) that
 * says nothing. Pure.
 */
import type { CompiledSettings } from '../types';

/** The store's folder, project-relative, when the policy names none. */
export const DEFAULT_MEMORY_DIR = '.claude/hookpolicy/memory';
export const DEFAULT_RETENTION_DAYS = 90;
export const DEFAULT_MAX_RECORDS = 20_000;

export interface StoreSettings {
  /** Project-relative or absolute folder; null when the policy turned the store off (`store: false`). */
  dir: string | null;
  retentionDays: number;
  maxRecords: number;
}

/**
 * The store settings of a compiled policy (null: no policy), defaults filled in.
 * @example storeSettings({ ...settings }) // { dir: '.claude/hookpolicy/memory', retentionDays: 90, maxRecords: 20000 }
 */
export function storeSettings(settings: CompiledSettings | null): StoreSettings {
  const memory = settings?.memory;
  return {
    dir: memory?.dir === undefined ? DEFAULT_MEMORY_DIR : memory.dir,
    retentionDays: positive(memory?.retentionDays, DEFAULT_RETENTION_DAYS),
    maxRecords: positive(memory?.maxRecords, DEFAULT_MAX_RECORDS),
  };
}

function positive(n: number | undefined, fallback: number): number {
  return typeof n === 'number' && Number.isFinite(n) && n > 0 ? n : fallback;
}
