import fc from 'fast-check';
import { fcParams } from '../../test/support/fuzz-config';
import { isoTime } from './iso-time';

describe('isoTime', () => {
  test.each([
    [0, '1970-01-01T00:00:00.000Z'],
    [951_782_400_000, '2000-02-29T00:00:00.000Z'],
    [1_795_342_245_123, '2026-11-22T10:10:45.123Z'],
    [-1, '1969-12-31T23:59:59.999Z'],
    [253_402_300_799_999, '9999-12-31T23:59:59.999Z'],
  ])('%d -> %s', (ms, text) => {
    expect(isoTime(ms)).toBe(text);
    expect(new Date(ms).toISOString()).toBe(text);
  });

  it('agrees with Date#toISOString over years 0 to 9999', () => {
    fc.assert(
      fc.property(fc.integer({ min: -62_167_219_200_000, max: 253_402_300_799_999 }), (ms) => {
        expect(isoTime(ms)).toBe(new Date(ms).toISOString());
      }),
      fcParams(5),
    );
  });
});
