import { literalOf, matcherAccepts, matcherFor } from './matcher';

const re = (source: string, flags = '') => ({ source, flags });

describe('literalOf', () => {
  it.each([
    ['^Write$', 'Write'],
    ['^mcp__x__y$', 'mcp__x__y'],
    ['^\\.env$', '.env'],
    ['^code-reviewer$', 'code-reviewer'],
    ['^mcp__x__.*$', null],
    ['Write', null],
    ['^a|b$', null],
  ])('%s -> %p', (source, expected) => {
    expect(literalOf(re(source))).toBe(expected);
  });

  it('refuses a case-insensitive literal', () => {
    expect(literalOf(re('^Write$', 'i'))).toBeNull();
  });
});

describe('matcherFor + matcherAccepts: the matcher accepts every value the filter accepts', () => {
  const cases: Array<{ names: string[]; patterns: string[]; accepts: string[]; rejects: string[]; matcher: string }> = [
    { names: ['Write', 'Edit'], patterns: [], accepts: ['Write', 'Edit'], rejects: ['NotebookEdit', 'Writer'], matcher: 'Write|Edit' },
    { names: ['Bash'], patterns: ['^mcp__pw__.*$'], accepts: ['Bash', 'mcp__pw__click'], rejects: ['mcp__other__x', 'BashOutput'], matcher: '^Bash$|^mcp__pw__.*$' },
    { names: ['code-reviewer'], patterns: [], accepts: ['code-reviewer'], rejects: ['senior-code-reviewer'], matcher: '^code\\-reviewer$' },
    { names: ['my-plugin:qa'], patterns: [], accepts: ['my-plugin:qa'], rejects: ['my-plugin:qa2'], matcher: '^my\\-plugin:qa$' },
    { names: [], patterns: ['Edit'], accepts: ['Edit', 'NotebookEdit'], rejects: ['Write'], matcher: '(?:Edit)' },
  ];
  it.each(cases)('$matcher', ({ names, patterns, accepts, rejects, matcher }) => {
    const m = matcherFor(names, patterns.map((p) => re(p)));
    expect(m).toBe(matcher);
    for (const v of accepts) expect(matcherAccepts(m!, v)).toBe(true);
    for (const v of rejects) expect(matcherAccepts(m!, v)).toBe(false);
  });

  it('gives null (no matcher) for a back-reference or an i flag', () => {
    expect(matcherFor([], [re('^(a)\\1$')])).toBeNull();
    expect(matcherFor(['Write'], [re('^bash$', 'i')])).toBeNull();
  });
});
