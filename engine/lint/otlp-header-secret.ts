/**
 * An OpenTelemetry header (`settings.log.otlp.headers`) whose value is a credential written
 * into the policy, judged as webhook-header-secret judges the webhook's (looksLikeSecret):
 * the policy is committed, shared and read by every agent it confines. Reported on the value.
 */
import { toPointer } from '../load/source-map';
import { defineCheck, report } from './check';
import { secretHeaders } from './webhook-header-secret';

export const otlpHeaderSecret = defineCheck({
  id: 'otlp-header-secret',
  messages: {
    secret: 'settings.log.otlp.headers.{header}: the value looks like a secret written into the policy',
  },
  check(ctx) {
    return secretHeaders(ctx.files, 'otlp').map(({ file, header }) => report(this, {
      messageId: 'secret', data: { header },
      at: file.map.locate(toPointer(['settings', 'log', 'otlp', 'headers', header]), 'value'),
      hint: 'write it as ${NAME} (say "Bearer ${OTLP_TOKEN}") and list NAME in settings.log.otlp.allowed_env_vars',
    }));
  },
});
