import { DEFAULT_PRIVACY, privacyGlobMatches, privacyMatch } from './privacy';

describe('privacyGlobMatches', () => {
  test.each<[string, string, boolean]>([
    ['*password*', 'DB PASSWORD=1', true],
    ['*password*', 'pass word', false],
    ['*.env', 'Write /proj/.env', true],
    ['*.env', 'Write .env, src/a.ts', false],
    ['*.env', '.ENV', true],
    ['*secret*', 'line one\nmy secret\nline three', true],
    ['*secret*', 'a/b/secret/c', true],
    ['*api_key*', 'export API_KEY=x', true],
    ['exact', 'exact', true],
    ['exact', 'exactly', false],
    ['a*b*c', 'abc', true],
    ['a*b*c', 'aXbYc', true],
    ['a*b*c', 'acb', false],
    ['a*bc*bc', 'abcbc', true],
    ['ab*ba', 'aba', false],
    ['*', '', true],
    ['', '', true],
    ['', 'x', false],
  ])('%s on %j: %s', (glob, text, expected) => {
    expect(privacyGlobMatches(glob, text)).toBe(expected);
  });

  test('linear on long adversarial text', () => {
    const text = `${'a'.repeat(200_000)}b`;
    const started = Date.now();
    expect(privacyGlobMatches('*a*a*a*a*a*c*', text)).toBe(false);
    expect(Date.now() - started).toBeLessThan(500);
  });
});

describe('privacyMatch', () => {
  test('the first glob any text matches, or null', () => {
    expect(privacyMatch(DEFAULT_PRIVACY, ['Edit src/a.ts', 'uses my_secret'])).toBe('*secret*');
    expect(privacyMatch(DEFAULT_PRIVACY, ['Edit src/a.ts'])).toBeNull();
    expect(privacyMatch([], ['password'])).toBeNull();
  });
});
