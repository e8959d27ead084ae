import { build, compiled, lines } from './test-support';
import { lintText } from '../lint/fixture';

describe('settings.log.otlp', () => {
  test('absent: no key (the OTEL_EXPORTER_OTLP_* variables decide at run time)', () => {
    expect('otlp' in compiled(build({ 'p.yaml': lines('version: 1') })).settings.log).toBe(false);
  });

  test('a mapping, with its defaults; false; the top file first', () => {
    const on = compiled(build({ 'p.yaml': lines('version: 1', 'settings:', '  log:', '    otlp: {}') }));
    expect(on.settings.log.otlp).toEqual({ endpoint: null, headers: {}, allowedEnvVars: [], timeoutMs: null });
    const full = compiled(build({
      'p.yaml': lines('version: 1', 'include: [inc.yaml]', 'settings:', '  log:',
        '    otlp: { endpoint: "http://c:4318", headers: { authorization: "Bearer ${T}" }, allowed_env_vars: [T], timeout_ms: 700 }'),
      'inc.yaml': lines('version: 1', 'settings:', '  log:', '    otlp: false'),
    }));
    expect(full.settings.log.otlp).toEqual({ endpoint: 'http://c:4318', headers: { authorization: 'Bearer ${T}' }, allowedEnvVars: ['T'], timeoutMs: 700 });
    const off = compiled(build({
      'p.yaml': lines('version: 1', 'include: [inc.yaml]'),
      'inc.yaml': lines('version: 1', 'settings:', '  log:', '    otlp: false'),
    }));
    expect(off.settings.log.otlp).toBe(false);
  });

  test.each([
    ['true is not a setting', '    otlp: true'],
    ['an unknown key', '    otlp: { url: "http://c" }'],
    ['an endpoint that is not http(s)', '    otlp: { endpoint: "c:4318" }'],
    ['a timeout above 60 s', '    otlp: { timeout_ms: 600000 }'],
    ['a variable name that is not one', '    otlp: { allowed_env_vars: ["A-B"] }'],
  ])('schema: %s', (_, line) => {
    const { policy, diagnostics } = build({ 'p.yaml': lines('version: 1', 'settings:', '  log:', line) });
    // settings.log is left out, and with it the export: the rest of the policy holds.
    expect(policy?.broken?.map((b) => b.name)).toEqual(['settings.log']);
    expect(policy?.settings.log.otlp).toBeUndefined();
    const errors = diagnostics.filter((d) => d.severity === 'error');
    expect(errors.length).toBeGreaterThan(0);
    for (const e of errors) expect([e.code, e.line]).toEqual([expect.stringMatching(/^schema-/), 4]);
  });
});

describe('otlp-env-not-allowed', () => {
  const policy = (headers: string, allowed = '') => lines('version: 1', 'settings:', '  log:', '    otlp:', `      headers: { ${headers} }`, ...(allowed ? [`      allowed_env_vars: [${allowed}]`] : []));

  test('at the $ of each reference allowed_env_vars does not list, never at a listed one', () => {
    const { diagnostics } = build({ 'p.yaml': policy('authorization: "Bearer ${OTLP_TOKEN}", x-home: "$HOME"', 'OTLP_TOKEN') });
    const warned = diagnostics.filter((d) => d.code === 'otlp-env-not-allowed');
    expect(warned.map((d) => [d.severity, d.line, d.column, d.message])).toEqual([
      ['warning', 5, 66, 'settings.log.otlp.headers.x-home: $HOME is not in allowed_env_vars, so it is sent as written'],
    ]);
    const none = build({ 'p.yaml': policy('authorization: "Bearer ${OTLP_TOKEN}"') }).diagnostics.filter((d) => d.code === 'otlp-env-not-allowed');
    expect(none.map((d) => [d.line, d.column])).toEqual([[5, 41]]);
  });
});

describe('otlp-header-secret (lint)', () => {
  const lintOf = (headers: string) => lintText(lines('version: 1', 'settings:', '  log:', '    otlp:', `      headers: { ${headers} }`, '      allowed_env_vars: [OTLP_TOKEN]'))
    .filter((d) => d.code === 'otlp-header-secret').map((d) => [d.line, d.column, d.message]);

  test('a literal credential, at its value; never a value made of variables', () => {
    expect(lintOf('authorization: "Bearer 3f9a0c1d2e4b5a6c7d8e9f"')).toEqual([[5, 33, 'settings.log.otlp.headers.authorization: the value looks like a secret written into the policy']]);
    expect(lintOf('x-custom: "ghp_0123456789abcdefghij"')).toHaveLength(1);
    expect(lintOf('authorization: "Bearer ${OTLP_TOKEN}"')).toEqual([]);
    expect(lintOf('x-team: payments')).toEqual([]);
  });
});
