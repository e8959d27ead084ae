import { build, compiled, lines, where } from './test-support';

const policy = (...body: string[]) => lines(
  'version: 1',
  'settings:',
  '  log:',
  '    webhook:',
  '      url: http://127.0.0.1:9/hooks',
  '      body:',
  ...body,
);

describe('settings.log.webhook.body', () => {
  it('compiles as written, nesting and non-string values included', () => {
    const result = build({ 'p.yaml': policy(
      '        status: denied',
      '        agentName: "{{agent}}"',
      '        detail: { files: ["{{paths}}"], attempt: 1, final: true }',
    ) });
    expect(result.diagnostics).toEqual([]);
    expect(compiled(result).settings.log.webhook).toEqual({
      url: 'http://127.0.0.1:9/hooks', timeoutMs: 1000, headers: {},
      body: { status: 'denied', agentName: '{{agent}}', detail: { files: ['{{paths}}'], attempt: 1, final: true } },
    });
  });

  it('without a body, the webhook has none', () => {
    const result = build({ 'p.yaml': lines('version: 1', 'settings:', '  log: { webhook: { url: "http://127.0.0.1:9/x" } }') });
    expect(compiled(result).settings.log.webhook).toEqual({ url: 'http://127.0.0.1:9/x', timeoutMs: 1000, headers: {} });
  });

  it('warns at each placeholder that names no value, and still builds', () => {
    const result = build({ 'p.yaml': policy(
      '        agentName: "{{agent}}"',
      '        toolName: "tool {{toolName}}"',
      '        nested: [ok, "{{ sesion }}"]',
    ) });
    expect(result.diagnostics.map((d) => [where(d), d.severity, d.message])).toEqual([
      ['template-unknown-value p.yaml:8:25', 'warning', 'settings.log.webhook.body: {{toolName}} has no value in a webhook body'],
      ['template-unknown-value p.yaml:9:23', 'warning', 'settings.log.webhook.body: {{sesion}} has no value in a webhook body'],
    ]);
    expect(compiled(result).settings.log.webhook?.body).toBeDefined();
  });

  it('is a mapping: a list or a string is a schema error', () => {
    const result = build({ 'p.yaml': policy('        - "{{agent}}"') });
    expect(result.diagnostics.map(where)).toEqual(['schema-type p.yaml:7:9']);
  });
});
