/**
 * MemoryRecord values for tests: every field filled, the given ones on top.
 */
import type { MemoryRecord } from '../types';

let nextId = 1;

/**
 * A record of `kind` with `text`, and anything else given.
 * @example memoryRecord('command', 'npm test', { fields: { command: 'npm test' } }).id // 1
 */
export function memoryRecord(kind: string, text: string, extra: Partial<MemoryRecord> = {}): MemoryRecord {
  return {
    id: nextId++,
    rule: 'r',
    kind,
    importance: 0.5,
    text,
    fields: {},
    at: '2026-01-15T10:00:00.000Z',
    session: 's1',
    agent: null,
    event: 'PostToolUse',
    ...extra,
  };
}
