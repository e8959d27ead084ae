import { diagnosticExample } from '../../test/support/doc-sections';
import { lintedAt } from './fixture';
import { looksLikeSecret } from './webhook-header-secret';

const withHeaders = (headers: string, allowed = '') =>
  `version: 1\nsettings:\n  log:\n    webhook:\n      url: "https://hooks.example.com/x"\n      headers:\n${headers}${allowed}rules: []\n`;

describe('webhook-header-secret', () => {
  it.each([
    ['a bearer token', '        Authorization: "Bearer 3f9a0c1d2e4b5a6c7d8e"\n', ['7:24 webhook-header-secret']],
    ['a literal value under a credential header', '        X-Api-Key: k123\n', ['7:20 webhook-header-secret']],
    ['a GitHub token under any header', '        X-Forward: ghp_abcdefghijklmnop\n', ['7:20 webhook-header-secret']],
    ['a variable', '        Authorization: "Bearer ${HP_TOKEN}"\n', []],
    ['a plain header', '        X-Team: red\n', []],
  ])('%s', (_name, headers, expected) => {
    expect(lintedAt(withHeaders(headers), 'webhook-header-secret')).toEqual(expected);
  });

  it.each([
    ['Authorization', 'Bearer ${T}', false],
    ['Authorization', 'Basic dXNlcjpwYXNzd29yZA==', true],
    ['Cookie', 'session=${S}', false],
    ['Cookie', 'session=abc123', true],
    ['Cookie', 'session=${S}; csrf=9f3c1a7e5b2d4c6f8a0e', true],
    ['X-Request-Source', 'hookpolicy', false],
    ['X-Trace', 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.abc', true],
  ])('looksLikeSecret(%s, %s) is %s', (header, value, expected) => {
    expect(looksLikeSecret(header, value)).toBe(expected);
  });

  it('reports the example of docs/diagnostics.md', () => {
    expect(lintedAt(diagnosticExample('webhook-header-secret'), 'webhook-header-secret')).toHaveLength(1);
  });
});

describe('webhook-env-not-allowed', () => {
  it('is reported at the $ of each reference allowed_env_vars does not list', () => {
    const text = withHeaders('        Authorization: "Bearer ${HP_TOKEN}"\n        X-Who: "$USER-${HP_TOKEN}"\n', '      allowed_env_vars: [USER]\n');
    expect(lintedAt(text, 'webhook-env-not-allowed')).toEqual(['7:32 webhook-env-not-allowed', '8:23 webhook-env-not-allowed']);
  });

  it('says nothing when every reference is listed', () => {
    expect(lintedAt(withHeaders('        Authorization: "Bearer ${HP_TOKEN}"\n', '      allowed_env_vars: [HP_TOKEN]\n'), 'webhook-env-not-allowed')).toEqual([]);
  });

  it('reports the example of docs/diagnostics.md', () => {
    expect(lintedAt(diagnosticExample('webhook-env-not-allowed'), 'webhook-env-not-allowed')).toHaveLength(1);
  });
});
