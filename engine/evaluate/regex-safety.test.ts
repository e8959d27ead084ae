import * as vm from 'vm';
import { NATIVE_TEXT_LIMIT } from './regex';
import { isSuperLinear, superLinearReason } from './regex-safety';

describe('isSuperLinear', () => {
  test.each<[string, string | null]>([
    // flagged
    ['(a+)+$', 'a quantifier applied to a group that contains a quantifier'],
    ['(a*)*b', 'a quantifier applied to a group that contains a quantifier'],
    ['(?:\\w+\\s?)+$', 'a quantifier applied to a group that contains a quantifier'],
    ['(a?){30}a{30}', 'a quantifier applied to a group that contains a quantifier'],
    ['((ab)+c)*', 'a quantifier applied to a group that contains a quantifier'],
    ['(a|a)*$', 'a quantified group with alternation'],
    ['(a|ab)+c', 'a quantified group with alternation'],
    ['(\\w)\\1', 'a backreference'],
    ['(?<q>[\'"]).*\\k<q>', 'a backreference'],
    ['\\s*\\s*\\s*x', 'two unbounded quantifiers in a row that can match the same text'],
    ['.*a.*b', 'two unbounded quantifiers in a row that can match the same text'],
    ['\\w+\\d+$', 'two unbounded quantifiers in a row that can match the same text'],
    ['x.*(.*)y', 'two unbounded quantifiers in a row that can match the same text'],
    ['^\\s*(\\s+)$', 'two unbounded quantifiers in a row that can match the same text'],
    // not flagged
    ['\\brm\\s+-rf\\b', null],
    ['^version:\\s*(\\S+)', null],
    ['\\bgit\\s+push\\b.*--force', null],
    ['^curl\\s', null],
    ['\\s*,\\s*', null],
    ['[a-z]+@[0-9]+', null],
    ['a{2}b{3}', null],
    ['(?:ab)?c', null],
    ['(?=.*x)y', null],
    ['\\bsudo\\b', null],
    ['[(]a+[)]', null],
    ['\\(a+\\)+', null],
    // loops whose body splits every string into rounds one way only
    ['(?:-\\S+\\s+)*', null],
    ['(?:sudo\\s+(?:-\\S+\\s+)*)?rm', null],
    ['(?:\\d+\\.)+', null],
    ['(?:/[^/]+)+', null],
    ['(?:\\.\\w+)?', null],
    ['(?:a|b)*c', null],
    ['(?:(?:ab)?c)+', null],
    ['(?:command\\s+|\\\\)?rm\\s+', null],
    // one character behind a bounded lookaround reads as that character (characterOf, language/regex-syntax.ts)
    ['\\bgit\\s+push\\b(?:(?!\\bgit[ \\t])[^;&|\\n])*\\s--force', null],
    ['(?:-(?:(?![(]rm )[^\\s;&|])*[ \\t]+)+x', null],
    // still flagged
    ['(a+)+', 'a quantifier applied to a group that contains a quantifier'],
    ['(\\w+\\s?)*', 'a quantifier applied to a group that contains a quantifier'],
    ['(a|a)*', 'a quantified group with alternation'],
    ['(?:\\w+-?)+', 'a quantifier applied to a group that contains a quantifier'],
    ['(x+x+)+y', 'two unbounded quantifiers in a row that can match the same text'],
    ['(.*a){3,}', 'a quantifier applied to a group that contains a quantifier'],
    ['(?:a?b?)+', 'a quantifier applied to a group that contains a quantifier'],
    ['(?:(?:a?)?b)+', 'a quantifier applied to a group that contains a quantifier'],
    ['(?:ab?)*a*$', 'two unbounded quantifiers in a row that can match the same text'],
    ['(?:-\\S+\\s+)*\\s*x', 'two unbounded quantifiers in a row that can match the same text'],
    // a guard whose lookaround can run on is not relaxed
    ['(?:(?!a+b)[^;])*[^;]*x', 'two unbounded quantifiers in a row that can match the same text'],
    ['(?:(?!x)[^;])*(?:(?!y)[^,])*z', 'two unbounded quantifiers in a row that can match the same text'],
    // an option may take a value that itself looks like an option: exponential
    ['\\bgit\\s+(?:-\\S+\\s+(?:\\S+\\s+)?)*?push\\b', 'a quantifier applied to a group that contains a quantifier'],
    // a round ends with \\d and the next one starts with \\d: the loop stop is not forced
    ['(?:\\d+\\.)+\\d+', 'two unbounded quantifiers in a row that can match the same text'],
    // a loop right after a run (or another loop) that can take its first character
    ['a*(?:ab?)*x', 'two unbounded quantifiers in a row that can match the same text'],
    ['(?:ab?)*(?:ab?)*(?:ab?)*x', 'two unbounded quantifiers in a row that can match the same text'],
    ['(?:-\\S*\\s+)+(?:[^\\s;&|]+\\s+)*?x', 'two unbounded quantifiers in a row that can match the same text'],
    // ... but not when the loop's first character cannot continue the run
    ['\\s*(?:-\\S+\\s+)*x', null],
    // a group that always starts with a character the run cannot take ends the run
    ['\\s*(?:cat|less|grep)\\s+x', null],
    ['\\s*(?:cat|\\s)\\s+x', 'two unbounded quantifiers in a row that can match the same text'],
    ['\\s*(?:cat|)\\s+x', 'two unbounded quantifiers in a row that can match the same text'],
    ['\\s*(?:a?b)\\s+x', 'two unbounded quantifiers in a row that can match the same text'],
  ])('%s', (source, reason) => {
    expect(superLinearReason(source)).toBe(reason);
    expect(isSuperLinear(source)).toBe(reason !== null);
  });

  test('the i flag widens overlap', () => {
    expect(isSuperLinear('(?:k+\u212a)+', 'iu')).toBe(true);
    expect(isSuperLinear('a+A+$')).toBe(false);
    expect(isSuperLinear('a+A+$', 'i')).toBe(true);
  });

  // Patterns the loop check now passes, with a sample round: each must fail fast natively on
  // many rounds followed by text that cannot match.
  test.each<[string, string]>([
    ['^(?:-\\S+\\s+)*$', '-a '],
    ['^(?:-\\S+\\s+)*$', '-a- '],
    ['^(?:sudo\\s+(?:-\\S+\\s+)*)?rm$', 'sudo -n '],
    ['^(?:\\d+\\.)+$', '1.'],
    ['^(?:/[^/]+)+$', '/a'],
    ['^(?:a|b)*c$', 'ab'],
    ['^(?:(?:ab)?c)+$', 'abc'],
    ['^\\s*(?:sudo\\s+(?:-\\S+\\s+)*)?(?:command\\s+|\\\\)?rm\\s+x$', 'sudo -u root '],
  ])('%s stays fast on repeats of %j', (source, round) => {
    expect(isSuperLinear(source)).toBe(false);
    const re = new RegExp(source);
    for (const tail of ['!', ' ', '\n', round[0], round.slice(0, -1) + '\n']) {
      const input = round.repeat(Math.ceil(40 / round.length)) + round.repeat(200) + tail;
      const run = () => vm.runInNewContext('re.test(input)', { re, input }, { timeout: 2000 });
      expect(run).not.toThrow();
    }
  });

  test('consecutive loops are really slow natively (control for the loop-after-run check)', () => {
    const re = /(?:ab?)*(?:ab?)*(?:ab?)*x/;
    const input = 'a'.repeat(300);
    expect(() => vm.runInNewContext('re.test(input)', { re, input }, { timeout: 300 })).toThrow(/timed out/);
  });

  test('the exponential git pattern is really slow natively (control for the check above)', () => {
    const re = /^git\s+(?:-\S+\s+(?:\S+\s+)?)*?push$/;
    const input = `git ${'-a '.repeat(45)}x`;
    expect(() => vm.runInNewContext('re.test(input)', { re, input }, { timeout: 300 })).toThrow(/timed out/);
  });
});

describe('a guard group reads as its one character', () => {
  // `X*;*x` is linear when X reads as a set without `;`, and not when X reads as any character.
  test.each<[string, boolean]>([
    ['(?:(?!git )[^;])', true],
    ['(?:(?=[a-z]{1,3}\\d)\\w)', true],
    ['(?:(?!\\b(?:curl|wget)\\b)[^;&|\\n])', true],
    ['(?:(?<!\\\\)[^;])', true],
    ['(?:(?!\\x3b)[^\\x3b])', true],
    // left alone: an unbounded lookaround, more than one atom, a quantified atom
    ['(?:(?!a+)b)', false],
    ['(?:(?!a)bc)', false],
    ['(?:(?!a)b*)', false],
  ])('%s: %p', (guard, relaxed) => {
    expect(superLinearReason(`${guard}*;*x`) === null).toBe(relaxed);
  });
});

describe('syntax read by the parser, on every Node', () => {
  test.each<[string, string, string | null]>([
    // modifier groups (valid from Node 23): a quantifier inside one is still a quantifier
    ['(?i:a+)+$', '', 'a quantifier applied to a group that contains a quantifier'],
    ['(?-i:a|a)*$', 'i', 'a quantified group with alternation'],
    ['(?i:a)+(?i:A)+$', '', 'two unbounded quantifiers in a row that can match the same text'],
    ['a+(?i:A)+$', '', 'two unbounded quantifiers in a row that can match the same text'],
    ['a+(?-i:A)+$', 'i', 'two unbounded quantifiers in a row that can match the same text'],
    ['a+A+$', '', null],
    ['(?s:.)*\\n*', '', 'two unbounded quantifiers in a row that can match the same text'],
    ['.*\\n*', '', null],
    // named groups, duplicate names (ES2025), backreferences by name and number
    ['(?<q>[\'"])\\w+\\k<q>', '', 'a backreference'],
    ['(?:(?<y>\\d{4})-x|(?<y>\\d{2})-y)', '', null],
    ['(a)\\1', '', 'a backreference'],
    ['a\\1', '', null], // no group 1: an octal escape
    // lookbehinds
    ['(?<=(a+)+)b', '', 'a quantifier applied to a group that contains a quantifier'],
    ['(?<=^|\\s)rm\\s+-rf', '', null],
    ['(?<!\\\\)"[^"]*"', '', null],
    // the v flag: class sets, nested classes, strings
    ['[\\p{L}--[a-z]]+[a-z]+$', 'v', null],
    ['[\\p{L}&&[a-z]]+[a-z]+$', 'v', 'two unbounded quantifiers in a row that can match the same text'],
    ['[[a-z]--[aeiou]]+[aeiou]+$', 'v', null],
    ['[\\q{ab|a}]+$', 'v', 'a quantified group with alternation'],
    ['[\\q{ab}]x', 'v', null],
    ['\\p{RGI_Emoji}+$', 'v', 'a quantified group with alternation'],
    // what the parser cannot read is never safe
    ['(?i-i:a)', '', 'syntax this check cannot read'],
    ['a{2,1}', '', 'syntax this check cannot read'],
  ])('/%s/%s -> %p', (source, flags, reason) => {
    expect(superLinearReason(source, flags)).toBe(reason);
  });
});

describe('a run that cannot take the character before it is not a second run', () => {
  test.each<[string, string | null]>([
    ['^.*\\/[^/]*\\.ts$', null],
    ['^.*\\/[^/]*x[^/]*$', 'two unbounded quantifiers in a row that can match the same text'],
    ['\\S+-\\d+', null],
    ['.*a[^a]*$', null],
    ['.*a?[^a]*$', 'two unbounded quantifiers in a row that can match the same text'],
    ['(?:.*x|.*y)[^xy]*$', null],
    ['(?:.*x|.*y)[^x]*$', 'two unbounded quantifiers in a row that can match the same text'],
  ])('%s -> %p', (source, reason) => {
    expect(superLinearReason(source)).toBe(reason);
  });

  // Each pattern the check passes stays fast natively on text built to make it backtrack, as
  // long as the runner matches without a watchdog (regex.ts, NATIVE_TEXT_LIMIT).
  test.each<[string, string]>([
    ['^.*\\/[^/]*\\.ts$', '/a'],
    ['\\S+-\\d+!', '-1'],
    ['^.*a[^a]*!$', 'ab'],
  ])('%s stays fast on repeats of %j', (source, round) => {
    const re = new RegExp(source);
    const input = round.repeat(NATIVE_TEXT_LIMIT / round.length) + '\n';
    expect(() => vm.runInNewContext('re.test(input)', { re, input }, { timeout: 2000 })).not.toThrow();
  });
});

describe('the quadratic tolerance (globs and wildcards)', () => {
  test.each<[string, string | null]>([
    ['^.*x.*$', null],
    ['^.*x.*y.*$', 'three unbounded quantifiers in a row that can match the same text'],
    ['^(?:.*\\/)?[^/]*\\.test\\.[^/]*$', null],
    ['^a[^/]*a[^/]*a[^/]*b$', 'three unbounded quantifiers in a row that can match the same text'],
    ['(a+)+$', 'a quantifier applied to a group that contains a quantifier'],
  ])('%s -> %p', (source, reason) => {
    expect(superLinearReason(source, 's', 'quadratic')).toBe(reason);
  });

  test('a cubic pattern the tolerance flags is really slow natively (control)', () => {
    const re = /^.*x.*y.*!$/s;
    const input = 'x'.repeat(1500) + 'y'.repeat(1500);
    expect(() => vm.runInNewContext('re.test(input)', { re, input }, { timeout: 300 })).toThrow(/timed out/);
  });
});
