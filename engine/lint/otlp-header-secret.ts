/**
 * An OpenTelemetry header (`settings.log.otlp.headers`) whose value is a credential written
 * into the policy, judged as webhook-header-secret judges the webhook's (looksLikeSecret):
 * the policy is committed, shared and read by every agent it confines. Reported on the value.
 */
import { toPointer } from '../load/source-map';
import type { Diagnostic } from '../types';
import { defineCheck, report } from './check';
import { looksLikeSecret } from './webhook-header-secret';

export const otlpHeaderSecret = defineCheck({
  id: 'otlp-header-secret',
  messages: {
    secret: 'settings.log.otlp.headers.{header}: the value looks like a secret written into the policy',
  },
  check(ctx) {
    const out: Diagnostic[] = [];
    for (const file of ctx.files) {
      const doc = file.doc as { settings?: { log?: { otlp?: { headers?: unknown } } } } | null;
      const otlp = doc?.settings?.log?.otlp;
      const headers = otlp && typeof otlp === 'object' ? otlp.headers : undefined;
      if (!headers || typeof headers !== 'object' || Array.isArray(headers)) continue;
      for (const [header, value] of Object.entries(headers as Record<string, unknown>)) {
        if (typeof value !== 'string' || !looksLikeSecret(header, value)) continue;
        out.push(report(this, {
          messageId: 'secret', data: { header },
          at: file.map.locate(toPointer(['settings', 'log', 'otlp', 'headers', header]), 'value'),
          hint: 'write it as ${NAME} (say "Bearer ${OTLP_TOKEN}") and list NAME in settings.log.otlp.allowed_env_vars, or set OTEL_EXPORTER_OTLP_HEADERS where Claude Code is started',
        }));
      }
    }
    return out;
  },
});
