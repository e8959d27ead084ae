import * as vm from 'vm';
import { relaxAtomGuards } from './regex-atom-guards';
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
    // one character behind a bounded lookaround reads as that character (regex-atom-guards.ts)
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

describe('relaxAtomGuards', () => {
  test.each<[string, string]>([
    ['(?:(?!git )[^;])*', '[^;]*'],
    ['(?:(?=[a-z]{1,3}\\d)\\w)+', '\\w+'],
    ['(?:(?!\\b(?:curl|wget)\\b)[^;&|\\n])*\\|', '[^;&|\\n]*\\|'],
    // left alone: an unbounded lookaround, more than one atom, a quantified atom, a class holding `(?:(?!`
    ['(?:(?!a+)b)', '(?:(?!a+)b)'],
    ['(?:(?!a)bc)', '(?:(?!a)bc)'],
    ['(?:(?!a)b*)', '(?:(?!a)b*)'],
    ['[(?:(?!a)b)]', '[(?:(?!a)b)]'],
    ['\\(?:(?!a)b)', '\\(?:(?!a)b)'],
  ])('%s -> %s', (source, relaxed) => {
    expect(relaxAtomGuards(source)).toBe(relaxed);
  });
});
