/**
 * What a compile works out of a pattern, remembered per process by the pattern's text, and
 * handed from one compile to the next through the policy cache (engine/host/cache/compile-memo.ts).
 * A table starts over once it holds `max` entries: a long-lived server compiles many policies.
 */

export interface RememberedTable<V> {
  /** The value for `key`, worked out by `make` the first time. */
  get(key: string, make: () => V): V;
  /** Every entry this process holds, oldest first. */
  entries(): Array<[string, V]>;
  /** Entries an earlier process worked out; one already known is kept. */
  remember(entries: ReadonlyArray<readonly [string, V]>): void;
}

/**
 * @example const t = rememberedTable<number>(5000); t.get('a', () => 1); t.entries() // [['a', 1]]
 */
export function rememberedTable<V>(max: number): RememberedTable<V> {
  const table = new Map<string, V>();
  return {
    get(key, make) {
      if (table.has(key)) return table.get(key) as V;
      const value = make();
      if (table.size >= max) table.clear();
      table.set(key, value);
      return value;
    },
    entries: () => [...table],
    remember(entries) {
      for (const [key, value] of entries) if (!table.has(key) && table.size < max) table.set(key, value);
    },
  };
}
