/**
 * Free text (a prompt, a search box) as an FTS5 query, and FTS5's bm25 score as a
 * relevance in (0, 1]. Pure functions; they live in the store's room because they speak
 * SQLite's dialect.
 */

/** Most words of the text used in one query. */
const MAX_TERMS = 32;

/**
 * Every distinct word (letters, digits, underscore) as a quoted term, and as a prefix too
 * when it has two characters or more ("auth" finds "authentication", "인증" finds "인증을"),
 * joined by OR; null when the text has no word. Quoting keeps FTS5's operators
 * (AND, NEAR, column filters) out of what a user typed.
 * @example ftsQuery('JWT auth?') // '"jwt" OR "jwt"* OR "auth" OR "auth"*'
 */
export function ftsQuery(text: string): string | null {
  const words = [...new Set((text.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? []))].slice(0, MAX_TERMS);
  if (words.length === 0) return null;
  return words.flatMap((w) => (w.length >= 2 ? [`"${w}"`, `"${w}"*`] : [`"${w}"`])).join(' OR ');
}

/**
 * bm25() (lower is better, never above 0 in FTS5) as a relevance: s / (s + 1) with
 * s = -bm25, two decimals, at least 0.01. The same record scores the same whatever
 * else the search found.
 * @example relevanceOf(-11.5) // 0.92
 */
export function relevanceOf(bm25: number): number {
  const s = Math.max(0, -bm25);
  return Math.max(0.01, Math.round((s / (s + 1)) * 100) / 100);
}
