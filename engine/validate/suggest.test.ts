import { EVENT_NAMES } from '../protocol';
import { closest, didYouMean, editDistance } from './suggest';

test.each([
  ['tool', 'tools', 1],
  ['kitten', 'sitting', 3],
  ['', 'abc', 3],
  ['same', 'same', 0],
  ['Sotp', 'Stop', 1],
])('editDistance(%s, %s) = %d', (a, b, d) => {
  expect(editDistance(a, b)).toBe(d);
});

test.each([
  ['PreTooluse', 'PreToolUse'],
  ['pretooluse', 'PreToolUse'],
  ['PreTool', 'PreToolUse'],
  ['TeamateIdle', 'TeammateIdle'],
  ['Sotp', 'Stop'],
  ['Completely', null],
  ['ab', null],
])('closest(%s, EVENT_NAMES) = %s', (word, expected) => {
  expect(closest(word, EVENT_NAMES)).toBe(expected);
});

test('didYouMean phrases the hint or gives undefined', () => {
  expect(didYouMean('agnets', ['agents', 'tools'])).toBe('did you mean "agents"?');
  expect(didYouMean('zzz', ['agents', 'tools'])).toBeUndefined();
});
