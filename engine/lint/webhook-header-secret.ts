/**
 * A webhook header whose value is a credential written into the policy: the policy is
 * committed, shared and read by every agent it confines. Reported on the value, which
 * should name a variable instead (`Bearer ${HP_WEBHOOK_TOKEN}` with `allowed_env_vars`).
 * A heuristic: a credential header (Authorization, Cookie, *token*, *api-key*, *secret*,
 * *password*) with a literal value, or a value shaped like one (`Bearer <long token>`, a
 * well-known token prefix) under any header.
 */
import { toPointer } from '../load/source-map';
import { headerEnvReferences } from '../render/header-env';
import type { LoadedFile } from '../types';
import { defineCheck, report } from './check';

/** Header names that carry credentials. */
const CREDENTIAL_HEADER = /^(?:proxy-)?authorization$|^cookie$|token|api[-_]?key|secret|password|passwd|credential|signature/i;
/** Values shaped like a credential: an auth scheme and a long token, or a token with a well-known prefix. */
const CREDENTIAL_VALUE = /^(?:bearer|basic|token|apikey|api-key|digest)\s+\S{8,}$|^(?:gh[pousr]_|github_pat_|sk-|xox[abprs]-|AKIA|AIza|glpat-)\S{8,}|^eyJ[\w-]{10,}\.[\w-]{10,}\./i;

export const webhookHeaderSecret = defineCheck({
  id: 'webhook-header-secret',
  messages: {
    secret: 'settings.log.webhook.headers.{header}: the value looks like a secret written into the policy',
  },
  check(ctx) {
    return secretHeaders(ctx.files, 'webhook').map(({ file, header }) => report(this, {
      messageId: 'secret', data: { header },
      at: file.map.locate(toPointer(['settings', 'log', 'webhook', 'headers', header]), 'value'),
      hint: `write it as \${NAME} (say "Bearer \${HP_WEBHOOK_TOKEN}") and list NAME in settings.log.webhook.allowed_env_vars`,
    }));
  },
});

/**
 * The headers of `settings.log.<key>` whose values look like literal credentials, file by file.
 * @example secretHeaders(ctx.files, 'otlp') // [{ file, header: 'authorization' }]
 */
export function secretHeaders(files: readonly LoadedFile[], key: 'webhook' | 'otlp'): Array<{ file: LoadedFile; header: string }> {
  const out: Array<{ file: LoadedFile; header: string }> = [];
  for (const file of files) {
    const doc = file.doc as { settings?: { log?: Record<string, { headers?: unknown } | undefined> } } | null;
    const setting = doc?.settings?.log?.[key];
    const headers = setting && typeof setting === 'object' ? setting.headers : undefined;
    if (!headers || typeof headers !== 'object' || Array.isArray(headers)) continue;
    for (const [header, value] of Object.entries(headers as Record<string, unknown>)) {
      if (typeof value === 'string' && looksLikeSecret(header, value)) out.push({ file, header });
    }
  }
  return out;
}

/**
 * True when a header value looks like a literal credential.
 * @example looksLikeSecret('Authorization', 'Bearer 3f9a0c1d2e4b5a6c') // true
 * @example looksLikeSecret('Authorization', 'Bearer ${HP_TOKEN}') // false
 */
export function looksLikeSecret(header: string, value: string): boolean {
  // Whatever names a variable is not a literal (an unlisted one is webhook-env-not-allowed's).
  const references = headerEnvReferences(value);
  const literal = references.reduceRight((v, r) => v.slice(0, r.offset) + v.slice(r.offset + r.length), value).trim();
  if (literal === '') return false;
  if (CREDENTIAL_VALUE.test(literal)) return true;
  if (!CREDENTIAL_HEADER.test(header)) return false;
  // Around a variable ("Bearer ${T}", "session=${S}") only a long token-like run is a secret.
  if (references.length > 0) return /[A-Za-z0-9+/_=-]{16,}/.test(literal);
  // A bare scheme ("Bearer") is no secret.
  return !/^(?:bearer|basic|token|apikey|api-key|digest)$/i.test(literal);
}
