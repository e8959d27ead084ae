/**
 * A memory store held in memory: the MemoryFacts `policy test` and `policy explain
 * --memory` give the evaluator, built from a list of records as a suite writes them.
 * Pure; search is a plain word match (the real store uses SQLite's FTS5), enough to test
 * rules with.
 */
import type { MemoryFacts, MemoryRecord, MemoryScope, MemoryWho } from '../types';

/** One record as a suite or a --memory file gives it; what it leaves out is filled in. */
export interface MemorySeed {
  kind: string;
  text: string;
  /** Default: the session of the event under test. */
  session?: string | null;
  /** Default: none (the main session). */
  agent?: string | null;
  /** An ISO time, or a time before now: `-45m`, `-2h`, `-3d`. Default: now. */
  at?: string;
  importance?: number;
  fields?: Record<string, string>;
  event?: string;
  rule?: string;
}

const AGO = /^-(\d+(?:\.\d+)?)\s*(m|h|d)$/;
const UNIT_MS: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000 };

/**
 * Epoch ms of a seed's `at`, or null when it is neither an ISO time nor `-N(m|h|d)`.
 * @example seedTime('-45m', Date.parse('2026-01-15T10:00:00Z')) // Date.parse('2026-01-15T09:15:00Z')
 */
export function seedTime(at: string | undefined, nowMs: number): number | null {
  if (at === undefined) return nowMs;
  const ago = AGO.exec(at.trim());
  if (ago) return nowMs - Number(ago[1]) * UNIT_MS[ago[2]];
  const ms = Date.parse(at);
  return Number.isFinite(ms) ? ms : null;
}

/**
 * The records of a list of seeds, ids 1, 2, ... in list order.
 * @example memoryRecords([{ kind: 'test-fail', text: 'jest: 2 failed' }], { session: 's1', nowMs })[0].session // 's1'
 */
export function memoryRecords(seeds: readonly MemorySeed[], defaults: { session: string | null; nowMs: number }): MemoryRecord[] {
  return seeds.map((s, i) => ({
    id: i + 1,
    rule: s.rule ?? '(memory)',
    kind: s.kind,
    importance: s.importance ?? 0.5,
    text: s.text,
    fields: { ...(s.fields ?? {}) },
    at: new Date(seedTime(s.at, defaults.nowMs) ?? defaults.nowMs).toISOString(),
    session: s.session === undefined ? defaults.session : s.session,
    agent: s.agent ?? null,
    event: s.event ?? '',
  }));
}

/**
 * MemoryFacts over a fixed list of records.
 * @example new InMemoryMemory(records).count('test-fail', 'session', { session: 's1', agent: null }) // 2
 */
export class InMemoryMemory implements MemoryFacts {
  constructor(private readonly records: readonly MemoryRecord[]) {}

  count(kind: string, scope: MemoryScope, who: MemoryWho, sinceMs?: number): number {
    let n = 0;
    for (const r of this.records) if (this.selects(r, kind, scope, who) && (sinceMs === undefined || Date.parse(r.at) >= sinceMs)) n++;
    return n;
  }

  last(kind: string, scope: MemoryScope, who: MemoryWho, first?: boolean): MemoryRecord | null {
    const found = this.records.filter((r) => this.selects(r, kind, scope, who)).sort(newestFirst);
    return (first ? found[found.length - 1] : found[0]) ?? null;
  }

  summaries(limit: number, excludeSession: string | null): MemoryRecord[] {
    const newest = new Map<string | null, MemoryRecord>();
    for (const r of [...this.records].sort(newestFirst)) {
      if (r.kind !== 'summary' || (excludeSession !== null && r.session === excludeSession) || newest.has(r.session)) continue;
      newest.set(r.session, r);
    }
    return [...newest.values()].slice(0, limit);
  }

  search(query: string, limit: number): Array<{ record: MemoryRecord; relevance: number }> {
    const terms = [...new Set(wordsOf(query))];
    if (terms.length === 0) return [];
    const found: Array<{ record: MemoryRecord; relevance: number }> = [];
    for (const record of this.records) {
      const words = new Set(wordsOf(record.text));
      const hits = terms.filter((t) => words.has(t)).length;
      if (hits > 0) found.push({ record, relevance: hits / terms.length });
    }
    return found.sort((a, b) => b.relevance - a.relevance || newestFirst(a.record, b.record)).slice(0, limit);
  }

  sessionRecords(session: string): MemoryRecord[] {
    return this.records.filter((r) => r.session === session).sort((a, b) => -newestFirst(a, b));
  }

  private selects(r: MemoryRecord, kind: string, scope: MemoryScope, who: MemoryWho): boolean {
    if (kind !== '*' && r.kind !== kind) return false;
    if (scope === 'project') return true;
    // An event without a session has no session's records (as the store's SQL has it).
    if (who.session === null || r.session !== who.session) return false;
    return scope === 'session' || r.agent === who.agent;
  }
}

function newestFirst(a: MemoryRecord, b: MemoryRecord): number {
  return Date.parse(b.at) - Date.parse(a.at) || b.id - a.id;
}

/** Lower-cased words (letters and digits of any script). */
function wordsOf(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? [];
}

/**
 * A list of records as a `--memory` file gives it (the shape of a suite's `memory`), or
 * why it is not one.
 * @example memorySeeds([{ kind: 'test-fail', text: 'jest: 2 failed', at: '-5m' }]) // the same list
 * @example memorySeeds({ kind: 'x' }) // 'expected a list of records ({ kind, text, ... })'
 */
export function memorySeeds(value: unknown): MemorySeed[] | string {
  if (!Array.isArray(value)) return 'expected a list of records ({ kind, text, ... })';
  for (const [i, r] of value.entries()) {
    if (r === null || typeof r !== 'object' || Array.isArray(r)) return `record ${i + 1} is not a mapping`;
    const seed = r as Record<string, unknown>;
    if (typeof seed.kind !== 'string' || seed.kind === '' || typeof seed.text !== 'string') return `record ${i + 1} needs a kind and a text`;
    if (seed.at !== undefined && (typeof seed.at !== 'string' || seedTime(seed.at, 0) === null)) return `record ${i + 1}: at is neither an ISO time nor -N(m|h|d)`;
    if (seed.importance !== undefined && !(typeof seed.importance === 'number' && seed.importance >= 0 && seed.importance <= 1)) return `record ${i + 1}: importance is not a number from 0 to 1`;
    if (seed.fields !== undefined && (seed.fields === null || typeof seed.fields !== 'object' || Object.values(seed.fields).some((v) => typeof v !== 'string'))) return `record ${i + 1}: fields must map names to text`;
    for (const key of ['session', 'agent'] as const) {
      if (seed[key] !== undefined && seed[key] !== null && typeof seed[key] !== 'string') return `record ${i + 1}: ${key} must be text or null`;
    }
  }
  return value as MemorySeed[];
}
