import { jsonObject } from './json-object';

it('parses a JSON object, and nothing else', () => {
  expect(jsonObject('{"a":1,"b":[2]}')).toEqual({ a: 1, b: [2] });
  for (const line of ['[1]', 'null', '"x"', '3', '', '{"a":', 'not json']) expect(jsonObject(line)).toBeNull();
});
