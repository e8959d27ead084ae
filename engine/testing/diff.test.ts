import { lineDiff, stableJson } from './diff';

describe('lineDiff', () => {
  it('marks removed and added lines', () => {
    expect(lineDiff('a\nb\nc', 'a\nx\nc')).toEqual(['  a', '- b', '+ x', '  c']);
  });
  it('folds long unchanged runs', () => {
    const a = ['1', '2', '3', '4', '5', '6', '7', '8'].join('\n');
    const b = ['1', '2', '3', '4', '5', '6', '7', 'X'].join('\n');
    expect(lineDiff(a, b, 1)).toEqual(['  ...', '  7', '- 8', '+ X']);
  });
});

describe('stableJson', () => {
  it('sorts keys at every level', () => {
    expect(stableJson({ b: 1, a: { d: 1, c: 2 } })).toBe('{\n  "a": {\n    "c": 2,\n    "d": 1\n  },\n  "b": 1\n}');
  });
});
