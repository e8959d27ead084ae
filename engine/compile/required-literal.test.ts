import { requiredAlternatives, requiredLiteral, requiredLiterals } from './required-literal';

describe('requiredLiteral', () => {
  test.each<[string, string, string | null]>([
    ['\\bgit\\s+push\\b.*--force', '', '--force'],
    ['^chmod\\s', '', 'chmod'],
    ['(?:^|;)\\s*(?:sudo\\s+)?rm\\s+-rf', '', '-rf'],
    ['\\.env(?:\\.local)?$', '', '.env'],
    ['dd\\s[^;&|]*\\bof=/dev/', '', 'of=/dev/'],
    ['ab*c', '', null], // b may be absent: runs "a" and "c" are too short
    ['abc+d', '', 'ab'], // c+ leaves the run
    ['abcd?', '', 'abc'],
    ['ab{0,2}cd', '', 'cd'],
    ['a|bcd', '', null], // top-level alternation
    ['(abc)', '', 'abc'], // a group every match goes through
    ['(abc)?', '', null], // an optional one
    ['[abc]def', '', 'def'],
    ['x\\dyz', '', 'yz'],
    ['\\$HOME/', '', '$HOME/'],
    ['CHMOD 777', 'i', 'chmod 777'],
    ['caf\u00e9', 'i', null], // non-ASCII under i: no prefilter
    ['KELVIN', 'iu', null],
    ['(unclosed', '', null],
    // Character codes are not their digits: `\x60` is a backtick.
    ['echo\\x60abc', '', 'echo'],
    ['ab\\u0060cdef', '', 'cdef'],
    ['ab\\cJcd', '', 'ab'],
    ['(?<n>x)\\k<n>yz', '', 'yz'],
    ['ab\\12cd', '', 'ab'],
  ])('/%s/%s -> %p', (source, flags, expected) => {
    expect(requiredLiteral(source, flags)).toBe(expected);
  });

  test.each([
    ['echo\\x60abc', 'echo`abc'],
    ['ab\\u0060cdef', 'ab`cdef'],
    ['ab\\cJcd', 'ab\ncd'],
  ])('/%s/ still matches %j, which holds every required literal', (source, text) => {
    expect(new RegExp(source).test(text)).toBe(true);
    for (const l of requiredLiterals(source, '')) expect(text).toContain(l);
  });

  test.each([
    ['\\bgit\\s+push\\b.*--force', 'git push origin main --force'],
    ['abc+d', 'xxabcccd'],
    ['ab{0,2}cd', 'acd'],
    ['CHMOD 777', 'sudo chmod 777 x'],
  ])('every match of /%s/ contains the literal (%s)', (source, text) => {
    const literal = requiredLiteral(source, source === 'CHMOD 777' ? 'i' : '') as string;
    const match = new RegExp(source, source === 'CHMOD 777' ? 'i' : '').exec(text);
    expect(match).not.toBeNull();
    expect((source === 'CHMOD 777' ? match![0].toLowerCase() : match![0]).includes(literal)).toBe(true);
  });
});

describe('requiredLiterals', () => {
  test.each<[string, string, string[]]>([
    ['\\bgit\\s+push\\b[^;&|]*\\s\\+(?:main|master)', '', ['push', 'git', '+', 'm', 'a']],
    ['ab*c', '', ['a', 'c']],
    ['a.a', '', ['a']], // repeats once
    ['a|b', '', []],
    ['CHMOD [0-7]+ X', 'i', ['chmod ', ' x']],
    ['caf\u00e9 x', 'i', []],
    ['(unclosed', '', []],
  ])('/%s/%s -> %p', (source, flags, expected) => {
    expect(requiredLiterals(source, flags)).toEqual(expected);
  });
});

describe('requiredLiterals reads the groups every match goes through', () => {
  test.each<[string, string[]]>([
    ['ab|ba', ['a', 'b']],
    ['a|bcd', []],
    ['(?:ab|ba)c', ['a', 'b', 'c']],
    ['(?!xy)z', ['z']],
    ['(?:xy)?z', ['z']],
    ['(?:xy){0,2}z', ['z']],
    ['(?:xy){1,2}z', ['xy', 'z']],
    ['(?:xy)+z', ['xy', 'z']],
    ['x(?=[^;]*\\s(?:-f|--force|-[a-z]*f[a-z]*))', ['x', '-', 'f']],
    ['(?<=ab)c', ['ab', 'c']],
    ['(?<!ab)c', ['c']],
  ])('/%s/ -> %p', (source, expected) => {
    expect(requiredLiterals(source, '')).toEqual(expected);
  });
});

describe('syntax read by the parser, on every Node', () => {
  test.each<[string, string, string[]]>([
    // modifier groups: one that changes case folding is not read (the prefilter compares exactly)
    ['(?i:abc)def', '', ['def']],
    ['(?-i:ABC)def', 'i', ['def']],
    ['(?s:abc).x', '', ['abc', 'x']],
    ['(?m:^abc$)', '', ['abc']],
    // named groups, duplicate names, backreferences
    ['(?<n>push)\\s+\\k<n>', '', ['push']],
    ['(?:(?<y>ab)x|(?<y>ab)y)', '', ['ab']],
    ['\\k<n>x', '', ['<n>x']], // no named group: `\k` is the letter k
    // lookbehinds, positive and negative
    ['(?<=git\\s)push', '', ['push', 'git']],
    ['(?<!no)push', '', ['push']],
    // the v flag: class sets and strings are classes, not literals
    ['[\\p{L}--[a-z]]abc', 'v', ['abc']],
    ['[\\q{xyz}]abc', 'v', ['abc']],
    ['[[a-z]&&[aeiou]]+abc', 'v', ['abc']],
    ['abc', 'iv', []],
  ])('/%s/%s -> %p', (source, flags, expected) => {
    expect(requiredLiterals(source, flags)).toEqual(expected);
    // Each one is in a text the pattern matches (where this Node reads it).
    const sample: Record<string, string> = { '(?<n>push)\\s+\\k<n>': 'push push', '(?<=git\\s)push': 'git push', '\\k<n>x': 'k<n>x' };
    if (sample[source]) {
      expect(new RegExp(source, flags).test(sample[source])).toBe(true);
      for (const l of expected) expect(sample[source]).toContain(l);
    }
  });

  test.each<[string, string, string[] | null]>([
    ['(?:curl|wget)\\s', '', ['curl', 'wget']],
    ['(?i:curl|wget)\\s', '', null],
    ['(?<t>npm|pnpm)\\s+publish', 'v', ['npm', 'pnpm']],
  ])('alternatives of /%s/%s -> %p', (source, flags, expected) => {
    expect(requiredAlternatives(source, flags)).toEqual(expected);
  });
});

describe('requiredLiteral never rules out a real match (property)', () => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const fc = require('fast-check') as typeof import('fast-check');
  const token = fc.constantFrom('a', 'b', 'c', 'ab', '\\.', '.', 'a*', 'b+', 'c?', '(ab)?', '(a|b)+', '[ab]', '|', '\\s', ' ', 'x{0,2}', 'b*?', '^', '$', '\\b',
    '\\x61', '\\u0062', '\\x2e', '\\1', '\\cA', '(?=ab)', '(?<=a)', '(?:ab|ba)', '(a|ab)', '(?!ab)', '(?:x\\.|yy)+',
    '(?:a|)', '(?:ab){0,2}', '(?:ba){1,2}', '(?=c|bc)', '(?:a(?:b|c)|ca)');
  test('if the pattern matches, the text contains the literal', () => {
    fc.assert(
      fc.property(fc.array(token, { maxLength: 8 }), fc.string({ unit: fc.constantFrom('a', 'b', 'c', '.', ' ', 'x', 'A'), maxLength: 12 }), fc.boolean(), (tokens, text, ignoreCase) => {
        const source = tokens.join('');
        const flags = ignoreCase ? 'i' : '';
        const literal = requiredLiteral(source, flags);
        if (literal === null || !new RegExp(source, flags).test(text)) return true;
        return (ignoreCase ? text.toLowerCase() : text).includes(literal);
      }),
      { seed: 20261122, numRuns: 3000 },
    );
  });

  test('if the pattern matches, the text contains every one of requiredLiterals', () => {
    fc.assert(
      fc.property(fc.array(token, { maxLength: 8 }), fc.string({ unit: fc.constantFrom('a', 'b', 'c', '.', ' ', 'x', 'A'), maxLength: 12 }), fc.boolean(), (tokens, text, ignoreCase) => {
        const source = tokens.join('');
        const flags = ignoreCase ? 'i' : '';
        const literals = requiredLiterals(source, flags);
        if (literals.length === 0 || !new RegExp(source, flags).test(text)) return true;
        return literals.every((l) => (ignoreCase ? text.toLowerCase() : text).includes(l));
      }),
      { seed: 20261123, numRuns: 3000 },
    );
  });
});

describe('requiredAlternatives', () => {
  test.each<[string, string, string[] | null]>([
    ['\\b(?:curl|wget)\\b[^;&|]*\\|\\s*sh', '', ['curl', 'wget']],
    ['(?<tool>npm|pnpm|yarn)\\s+publish', '', ['npm', 'pnpm', 'yarn']],
    ['(CURL|Wget) x', 'i', ['curl', 'wget']],
    ['(?:curl|wget)?\\s+sh', '', null], // optional group
    ['(?:curl|wget)+', '', null], // quantified group
    ['(?=curl|wget)x', '', null], // lookahead
    ['(?!curl|wget)x', '', null],
    ['(?:curl|)x', '', null], // an empty alternative
    ['(?:c.rl|wget)', '', null], // not plain literals
    ['(?:ab|cd)|xyz', '', null], // top-level alternation
    ['(?:a|bc)', '', null], // a one-character member is no filter
    ['(?:ab|cd)x(?:efg|hij)', '', ['efg', 'hij']], // the set with the longest shortest member
    ['(?:\\.env|\\$HOME)', '', ['.env', '$HOME']],
  ])('/%s/%s -> %p', (source, flags, expected) => {
    expect(requiredAlternatives(source, flags)).toEqual(expected);
  });
});

describe('requiredAlternatives never rules out a real match (property)', () => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const fc = require('fast-check') as typeof import('fast-check');
  const token = fc.constantFrom('a', 'b', 'ab', '(?:ab|ba)', '(ab|c)', '(?:aa|bb)?', '(?=ab|b)', '(?:a|b)+', '[ab]', '|', '\\s', ' ', '.', 'b*', '^', '$', '(?:x\\.|yy)');
  test('if the pattern matches, the text contains one of the alternatives', () => {
    fc.assert(
      fc.property(fc.array(token, { maxLength: 7 }), fc.string({ unit: fc.constantFrom('a', 'b', 'c', '.', ' ', 'x', 'y', 'A'), maxLength: 12 }), fc.boolean(), (tokens, text, ignoreCase) => {
        const source = tokens.join('');
        const flags = ignoreCase ? 'i' : '';
        const set = requiredAlternatives(source, flags);
        if (set === null || !new RegExp(source, flags).test(text)) return true;
        const hay = ignoreCase ? text.toLowerCase() : text;
        return set.some((l) => hay.includes(l));
      }),
      { seed: 20261122, numRuns: 3000 },
    );
  });
});
