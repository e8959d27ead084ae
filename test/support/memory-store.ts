/**
 * An EvaluationContext with a memory store: the in-memory files of memory-facts.ts plus
 * engine/memory/in-memory.ts over a list of records, at a fixed clock.
 */
import { InMemoryMemory, memoryRecords, type MemorySeed } from '../../engine/memory/in-memory';
import type { EvaluationContext } from '../../engine/types';
import { memoryContext, type MemoryFile } from './memory-facts';

/** The clock of these contexts: 2026-01-15T10:00:00Z. */
export const NOW_MS = Date.parse('2026-01-15T10:00:00Z');

/**
 * A context whose facts.memory holds `seeds` (session default `session`), `now` at NOW_MS.
 * @example storeContext([{ kind: 'test-fail', text: 'jest: 2 failed' }]).facts.memory?.count('test-fail', 'session', who) // 1
 */
export function storeContext(
  seeds: readonly MemorySeed[],
  options: { session?: string | null; files?: Record<string, MemoryFile>; env?: Record<string, string | undefined> } = {},
): EvaluationContext {
  const ctx = memoryContext(options.files ?? {}, options.env ?? {}, () => NOW_MS);
  const memory = new InMemoryMemory(memoryRecords(seeds, { session: options.session === undefined ? 's1' : options.session, nowMs: NOW_MS }));
  return { ...ctx, facts: Object.assign(ctx.facts, { memory }) };
}
