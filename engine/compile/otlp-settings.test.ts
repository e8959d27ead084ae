import { build, compiled, lines } from './test-support';

describe('settings.log.otlp', () => {
  test('absent: no key (the OTEL_EXPORTER_OTLP_* variables decide at run time)', () => {
    expect('otlp' in compiled(build({ 'p.yaml': lines('version: 1') })).settings.log).toBe(false);
  });

  test('a mapping, with its defaults; false; the top file first', () => {
    const on = compiled(build({ 'p.yaml': lines('version: 1', 'settings:', '  log:', '    otlp: {}') }));
    expect(on.settings.log.otlp).toEqual({ endpoint: null, headers: {}, allowedEnvVars: [], timeoutMs: 10_000 });
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
    expect(policy).toBeNull();
    const errors = diagnostics.filter((d) => d.severity === 'error');
    expect(errors.length).toBeGreaterThan(0);
    for (const e of errors) expect([e.code, e.line]).toEqual([expect.stringMatching(/^schema-/), 4]);
  });
});
