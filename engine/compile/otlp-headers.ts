/**
 * Checks `settings.log.otlp.headers` as webhook-headers.ts checks the webhook's: each
 * `$NAME` / `${NAME}` in a value must be a variable `allowed_env_vars` lists, or it is sent
 * as written (render/header-env.ts). A warning, never an error: a setting's error would
 * stop the whole policy.
 */
import { toPointer } from '../load/source-map';
import { headerEnvReferences } from '../render/header-env';
import { atOffset, isObject, report, type CompileContext } from './context';

/**
 * Reports `otlp-env-not-allowed` at the `$` of each reference to a variable the file's
 * `log.otlp` does not allow.
 * @example checkOtlpHeaders(ctx) // otlp { headers: { authorization: 'Bearer ${T}' } }, no allowed_env_vars: one warning at the $
 */
export function checkOtlpHeaders(ctx: CompileContext): void {
  const doc = ctx.file.doc;
  const settings = isObject(doc) ? doc.settings : undefined;
  const log = isObject(settings) ? settings.log : undefined;
  const otlp = isObject(log) ? log.otlp : undefined;
  if (!isObject(otlp) || !isObject(otlp.headers)) return;
  const allowed = Array.isArray(otlp.allowed_env_vars) ? otlp.allowed_env_vars.filter((v): v is string => typeof v === 'string') : [];
  for (const [header, value] of Object.entries(otlp.headers)) {
    if (typeof value !== 'string') continue;
    for (const { name, offset } of headerEnvReferences(value)) {
      if (allowed.includes(name)) continue;
      report(ctx, 'otlp-env-not-allowed',
        `settings.log.otlp.headers.${header}: $${name} is not in allowed_env_vars, so it is sent as written`,
        atOffset(ctx, toPointer(['settings', 'log', 'otlp', 'headers', header]), offset),
        `add ${name} to settings.log.otlp.allowed_env_vars to send its value`);
    }
  }
}
