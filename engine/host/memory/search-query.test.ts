import { ftsQuery, relevanceOf } from './search-query';

describe('ftsQuery', () => {
  it.each([
    ['JWT auth?', '"jwt" OR "jwt"* OR "auth" OR "auth"*'],
    ['a b', '"a" OR "b"'],
    ['same Same SAME', '"same" OR "same"*'],
    ['"x" AND y*', '"x" OR "and" OR "and"* OR "y"'],
    ['인증을 구현', '"인증을" OR "인증을"* OR "구현" OR "구현"*'],
    ['?!', null],
    ['', null],
  ])('%j -> %j', (text, query) => {
    expect(ftsQuery(text)).toBe(query);
  });

  it('uses at most 32 words', () => {
    const words = Array.from({ length: 40 }, (_, i) => `w${i}`).join(' ');
    expect((ftsQuery(words) ?? '').split(' OR ')).toHaveLength(64);
  });
});

describe('relevanceOf', () => {
  it.each([
    [-11.5, 0.92],
    [-1, 0.5],
    [-1000, 1],
    [0, 0.01],
    [-0.000001, 0.01],
  ])('bm25 %d -> %d', (bm25, relevance) => {
    expect(relevanceOf(bm25)).toBe(relevance);
  });
});
