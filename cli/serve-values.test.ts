import { idleSeconds, onErrorMode, portNumber } from './serve-values';

describe('the values policy serve and policy init take, read one way', () => {
  it.each([
    ['0', 0], ['8707', 8707], ['08707', 8707], ['65535', 65535],
    ['65536', null], ['123456', null], ['', null], ['0x1f', null], [' 8707', null], ['8707 ', null], ['8.707e3', null], ['-1', null], ['1.5', null],
  ])('portNumber(%j) is %j', (text, expected) => {
    expect(portNumber(text)).toBe(expected);
  });

  it.each([
    ['0', 0], ['30', 30], ['0.5', 0.5],
    ['', null], ['1e3', null], ['-1', null], ['.5', null], ['5.', null], [' 5', null], ['Infinity', null],
  ])('idleSeconds(%j) is %j', (text, expected) => {
    expect(idleSeconds(text)).toBe(expected);
  });

  it.each([['open', 'open'], ['closed', 'closed'], ['Closed', null], ['', null]])('onErrorMode(%j) is %j', (text, expected) => {
    expect(onErrorMode(text)).toBe(expected);
  });
});
