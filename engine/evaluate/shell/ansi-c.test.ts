import { execFileSync } from 'node:child_process';
import { decodeAnsiC } from './ansi-c';

describe('decodeAnsiC', () => {
  it.each([
    ['.e\\x6ev', '.env'],
    ['a\\nb', 'a\nb'],
    ['\\056env', '.env'],
    ['\\u002eenv', '.env'],
    ['\\U0000002eenv', '.env'],
    ['tab\\there', 'tab\there'],
    ["it\\'s", "it's"],
    ['\\q', '\\q'],
    ['\\x', '\\x'],
    ['\\x2e\\x2E', '..'],
    ['caf\\u00e9', 'café'],
    ['\\777', '\xff'],
    ['end\\', 'end\\'],
  ])('%j decodes to %j', (body, text) => {
    expect(decodeAnsiC(body)).toBe(text);
  });

  it('declines a control escape and a NUL, where bash would not read the word through', () => {
    expect(decodeAnsiC('\\ca')).toBeNull();
    expect(decodeAnsiC('a\\x00b')).toBeNull();
    expect(decodeAnsiC('a\\0b')).toBeNull();
  });

  const bash = (() => { try { execFileSync('bash', ['-c', 'true']); return true; } catch { return false; } })();
  (bash ? it : it.skip)('agrees with bash on every escape it decodes', () => {
    const bodies = ['.e\\x6ev', 'a\\nb', '\\056env', '\\u002eenv', '\\U0001F600', 'x\\ty', '\\q\\x', '\\x2e\\x2E', 'caf\\u00e9', '\\a\\b\\e\\E\\f\\r\\v\\?\\"'];
    for (const body of bodies) {
      const out = execFileSync('bash', ['-c', `printf %s $'${body}'`], { env: { LC_ALL: 'C.UTF-8' } }).toString('utf8');
      expect([body, decodeAnsiC(body)]).toEqual([body, out]);
    }
  });
});
