/**
 * Checks `settings.log.webhook.headers`: each `$NAME` / `${NAME}` in a value must be a
 * variable `allowed_env_vars` lists, or it is sent as written (render/header-env.ts). A
 * warning, never an error: a setting's error would stop the whole policy.
 */
import { toPointer } from '../load/source-map';
import { headerEnvReferences } from '../render/header-env';
import { atOffset, isObject, report, type CompileContext } from './context';

/**
 * Reports `webhook-env-not-allowed` at the `$` of each reference to a variable the file's
 * webhook does not allow.
 * @example checkWebhookHeaders(ctx) // headers { Authorization: 'Bearer ${HP_TOKEN}' }, no allowed_env_vars: one warning at the $
 */
export function checkWebhookHeaders(ctx: CompileContext): void {
  const doc = ctx.file.doc;
  const settings = isObject(doc) ? doc.settings : undefined;
  const log = isObject(settings) ? settings.log : undefined;
  const webhook = isObject(log) ? log.webhook : undefined;
  if (!isObject(webhook) || !isObject(webhook.headers)) return;
  const allowed = Array.isArray(webhook.allowed_env_vars) ? webhook.allowed_env_vars.filter((v): v is string => typeof v === 'string') : [];
  for (const [header, value] of Object.entries(webhook.headers)) {
    if (typeof value !== 'string') continue;
    for (const { name, offset } of headerEnvReferences(value)) {
      if (allowed.includes(name)) continue;
      report(ctx, 'webhook-env-not-allowed',
        `settings.log.webhook.headers.${header}: $${name} is not in allowed_env_vars, so it is sent as written`,
        atOffset(ctx, toPointer(['settings', 'log', 'webhook', 'headers', header]), offset),
        `add ${name} to settings.log.webhook.allowed_env_vars to send its value`);
    }
  }
}
