/**
 * Checks the headers of `settings.log.webhook` and `settings.log.otlp`: each `$NAME` /
 * `${NAME}` in a value must be a variable the same setting's `allowed_env_vars` lists, or
 * it is sent as written (render/header-env.ts). A warning, never an error: a setting's
 * error would stop the whole policy.
 */
import { toPointer } from '../load/source-map';
import { headerEnvReferences } from '../render/header-env';
import { atOffset, isObject, report, type CompileContext } from './context';

/** The code each setting reports. */
const CODES = { webhook: 'webhook-env-not-allowed', otlp: 'otlp-env-not-allowed' } as const;

/**
 * Reports `webhook-env-not-allowed` or `otlp-env-not-allowed` at the `$` of each reference
 * to a variable `settings.log.<key>` does not allow.
 * @example checkHeaderEnv(ctx, 'webhook') // headers { Authorization: 'Bearer ${HP_TOKEN}' }, no allowed_env_vars: one warning at the $
 */
export function checkHeaderEnv(ctx: CompileContext, key: keyof typeof CODES): void {
  const doc = ctx.file.doc;
  const settings = isObject(doc) ? doc.settings : undefined;
  const log = isObject(settings) ? settings.log : undefined;
  const setting = isObject(log) ? log[key] : undefined;
  if (!isObject(setting) || !isObject(setting.headers)) return;
  const allowed = Array.isArray(setting.allowed_env_vars) ? setting.allowed_env_vars.filter((v): v is string => typeof v === 'string') : [];
  for (const [header, value] of Object.entries(setting.headers)) {
    if (typeof value !== 'string') continue;
    for (const { name, offset } of headerEnvReferences(value)) {
      if (allowed.includes(name)) continue;
      report(ctx, CODES[key],
        `settings.log.${key}.headers.${header}: $${name} is not in allowed_env_vars, so it is sent as written`,
        atOffset(ctx, toPointer(['settings', 'log', key, 'headers', header]), offset),
        `add ${name} to settings.log.${key}.allowed_env_vars to send its value`);
    }
  }
}
