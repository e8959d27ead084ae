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
  ])('%s', (source, reason) => {
    expect(superLinearReason(source)).toBe(reason);
    expect(isSuperLinear(source)).toBe(reason !== null);
  });

  test('the i flag widens overlap', () => {
    expect(isSuperLinear('a+A+$')).toBe(false);
    expect(isSuperLinear('a+A+$', 'i')).toBe(true);
  });
});
