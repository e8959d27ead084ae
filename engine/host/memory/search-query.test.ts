import { ftsQuery, idf, prefixTerm, queryTerms, relevance } from './search-query';

describe('queryTerms', () => {
  it.each([
    ['JWT auth? jwt', ['jwt', 'auth']],
    ['"x" AND y*', ['x', 'and', 'y']],
    ['Café résumé', ['cafe', 'resume']],
    ['인증을 구현', ['인증을', '구현']],
    ['?!', []],
  ])('%j -> %j', (text, terms) => {
    expect(queryTerms(text)).toEqual(terms);
  });

  it('keeps at most 32 words', () => {
    expect(queryTerms(Array.from({ length: 40 }, (_, i) => `w${i}`).join(' '))).toHaveLength(32);
  });
});

describe('ftsQuery', () => {
  it('ORs quoted prefixes; null for no term', () => {
    expect(ftsQuery(['jwt', 'auth'])).toBe('"jwt"* OR "auth"*');
    expect(ftsQuery([])).toBeNull();
    expect(prefixTerm('a"b')).toBe('"a""b"*');
  });
});

describe('idf', () => {
  it('is above 0, and larger for rarer words', () => {
    expect(idf(3, 3)).toBeGreaterThan(0);
    expect(idf(100, 1)).toBeGreaterThan(idf(100, 50));
    expect(idf(100, 1)).toBeCloseTo(4.2, 1);
  });
});

describe('relevance', () => {
  const known = new Map([['jwt', 2], ['auth', 1], ['the', 0.1]]);
  it.each([
    ['every known word', 'the JWT auth middleware', 1],
    ['the rare words, not the common one', 'JWT authentication', 0.97],
    ['one rare word', 'JWT refresh', 0.65],
    ['only the common word', 'the end', 0.03],
    ['nothing', 'unrelated', 0.01],
  ])('%s', (_name, text, r) => {
    expect(relevance(text, known)).toBe(r);
  });

  it('is 0.01 with no known word', () => {
    expect(relevance('anything', new Map())).toBe(0.01);
  });
});
