/**
 * Free text (a prompt, a search box) as FTS5 queries, and what a found record's relevance
 * is: the share of the query's words it contains, each word weighted by how rare it is in
 * the store (its IDF), counting only words some record has. A record holding every such
 * word is 1; one holding only a word most records have is near 0. Unlike a raw bm25
 * score, this means the same in a store of 5 records as in one of 20,000, so a
 * `min_relevance` keeps its sense as the store grows. Pure functions; they live in the
 * store's room because they speak SQLite's dialect.
 */

/** Most words of the text used in one query. */
const MAX_TERMS = 32;

/**
 * The text's distinct words (letters, digits, underscore), lower-cased, diacritics
 * removed (as FTS5's unicode61 tokenizer reads them), at most 32.
 * @example queryTerms('JWT auth? jwt') // ['jwt', 'auth']
 */
export function queryTerms(text: string): string[] {
  return [...new Set(words(text))].slice(0, MAX_TERMS);
}

function words(text: string): string[] {
  return text.normalize('NFD').replace(/\p{M}/gu, '').normalize('NFC').toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? [];
}

/**
 * The terms as one FTS5 query: each a quoted prefix (so "auth" finds "authentication"
 * and "인증" finds "인증을"), joined by OR; null for no term. Quoting keeps FTS5's
 * operators (AND, NEAR, column filters) out of what a user typed.
 * @example ftsQuery(['jwt', 'auth']) // '"jwt"* OR "auth"*'
 */
export function ftsQuery(terms: readonly string[]): string | null {
  return terms.length === 0 ? null : terms.map(prefixTerm).join(' OR ');
}

/** One term as a quoted FTS5 prefix query. */
export function prefixTerm(term: string): string {
  return `"${term.replace(/"/g, '""')}"*`;
}

/**
 * A term's weight: its inverse document frequency, ln(1 + (N - n + 0.5) / (n + 0.5)),
 * always above 0 (rarer is heavier).
 * @example idf(100, 1) // 4.2
 */
export function idf(records: number, containing: number): number {
  return Math.log(1 + (records - containing + 0.5) / (containing + 0.5));
}

/**
 * The relevance of a record's text to the known terms (those some record has, with their
 * weights): the weight of the terms the text has (a word starting with the term) over
 * the weight of them all, two decimals, at least 0.01.
 * @example relevance('JWT middleware', new Map([['jwt', 2], ['auth', 1]])) // 0.67
 */
export function relevance(text: string, known: ReadonlyMap<string, number>): number {
  const tokens = words(text);
  let total = 0;
  let found = 0;
  for (const [term, weight] of known) {
    total += weight;
    if (tokens.some((t) => t.startsWith(term))) found += weight;
  }
  if (total === 0) return 0.01;
  return Math.max(0.01, Math.round((found / total) * 100) / 100);
}
