import { COMMON_TOKENS, LOG_LEAKS } from '../../test/support/secret-tokens';
import { redactRecord, redactText } from './redact';

describe('secret formats beyond hookpolicy\'s own (derived from gitleaks\' rules at build time)', () => {
  test.each([...COMMON_TOKENS, ...LOG_LEAKS])('%s', (_name, text, secret) => {
    const out = redactText(text);
    expect(out).not.toContain(secret);
    expect(out).toContain('[REDACTED]');
  });

  test('in a record, every string', () => {
    const record = { reason: COMMON_TOKENS.map(([, t]) => t).join('\n'), paths: [LOG_LEAKS[2][1]] };
    const text = JSON.stringify(redactRecord(record));
    for (const [, , secret] of [...COMMON_TOKENS, ...LOG_LEAKS]) expect(text).not.toContain(secret);
  });

  test.each([
    ['words that only look like a keyword', 'The build uses s.length and dp.pt values; see docs for SKILLS.md'],
    ['a low-entropy placeholder', 'the sample SID is SK00000000000000000000000000000000 in the docs'],
    ['a command with no secret', 'npm test -- --coverage && git push origin feature/cart'],
  ])('%s is left alone', (_name, text) => {
    expect(redactText(text)).toBe(text);
  });
});
