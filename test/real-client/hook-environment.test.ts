/**
 * Which of the variables an organisation gives Claude Code reach a hook (operations.md):
 * the OpenTelemetry exporter's, the team database's URL, a webhook token; set in Claude
 * Code's own environment, or in the settings' `env`. The reference says Claude Code removes
 * the `OTEL_*` exporter variables from a hook's environment. Measured with 2.1.330: every
 * `OTEL_*` variable tried is removed (service name and resource attributes too), from
 * either source; other variables pass. So the OpenTelemetry exporter cannot be set up
 * through the standard variables in a real session: `log.otlp` (or HOOKPOLICY_OTLP_*) can.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { say } from './scenario';
import { describeRealClient, runCase, SESSION_TIMEOUT_MS } from './suite';

const DUMP = 'node -e "require(\'fs\').writeFileSync(process.env.CLAUDE_PROJECT_DIR + \'/hook-env.json\', JSON.stringify(process.env))"';

const GIVEN = {
  OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9/otlp',
  OTEL_EXPORTER_OTLP_LOGS_ENDPOINT: 'http://127.0.0.1:9/otlp/v1/logs',
  OTEL_EXPORTER_OTLP_HEADERS: 'authorization=Bearer otlp-token',
  OTEL_SERVICE_NAME: 'team-claude',
  OTEL_RESOURCE_ATTRIBUTES: 'team=payments',
  HOOKPOLICY_DATABASE_URL: 'postgres://writer:pw@127.0.0.1:9/hookpolicy',
  HP_WEBHOOK_TOKEN: 'webhook-token',
};

describeRealClient("the hook's environment", () => {
  it('what Claude Code passes on to a hook, from its own environment and from the settings env', () => {
    const { project } = runCase({
      policy: 'version: 1\nrules: []\n',
      noInit: true,
      env: GIVEN,
      beforeSession: (p) => {
        // Beside the suite's capture hooks: the settings' env, and a hook that writes what it was given.
        const file = path.join(p.projectDir, '.claude', 'settings.json');
        const settings = JSON.parse(fs.readFileSync(file, 'utf8')) as { hooks: Record<string, unknown[]>; env?: Record<string, string> };
        settings.env = { HOOKPOLICY_SETTINGS_VAR: 'from-settings', OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://127.0.0.1:9/otlp/v1/traces' };
        settings.hooks.SessionStart = [...(settings.hooks.SessionStart ?? []), { hooks: [{ type: 'command', command: DUMP }] }];
        fs.writeFileSync(file, JSON.stringify(settings));
      },
      scenario: { main: [say('done')] },
    });
    const seen = JSON.parse(project.read('hook-env.json') ?? '{}') as Record<string, string>;
    expect(Object.keys(seen).length).toBeGreaterThan(3);
    const passed = (name: string) => (name in seen ? seen[name] : '(removed)');
    expect(Object.fromEntries(Object.keys(GIVEN).map((k) => [k, passed(k)]))).toEqual({
      OTEL_EXPORTER_OTLP_ENDPOINT: '(removed)',
      OTEL_EXPORTER_OTLP_LOGS_ENDPOINT: '(removed)',
      OTEL_EXPORTER_OTLP_HEADERS: '(removed)',
      OTEL_SERVICE_NAME: '(removed)',
      OTEL_RESOURCE_ATTRIBUTES: '(removed)',
      HOOKPOLICY_DATABASE_URL: GIVEN.HOOKPOLICY_DATABASE_URL,
      HP_WEBHOOK_TOKEN: GIVEN.HP_WEBHOOK_TOKEN,
    });
    expect(passed('HOOKPOLICY_SETTINGS_VAR')).toBe('from-settings');
    expect(passed('OTEL_EXPORTER_OTLP_TRACES_ENDPOINT')).toBe('(removed)');
  }, SESSION_TIMEOUT_MS);
});
