/**
 * The webhook's headers as they are sent: `$NAME` / `${NAME}` references to the variables
 * `allowed_env_vars` lists are read from the sending process's environment at send time,
 * so a secret is in neither the policy nor the spool (render/header-env.ts).
 */
import { diagnostic } from '../diagnostics';
import { expandHeaderEnv, unsetHeaderEnv } from '../render/header-env';
import type { CompiledLog, Diagnostic } from '../types';

type Webhook = Pick<NonNullable<CompiledLog['webhook']>, 'headers' | 'allowedEnvVars'>;

/**
 * The headers to send, or null when an allowed variable they name is unset or empty here
 * (the record is then not sent: a request without its credentials helps nobody).
 * @example sendHeaders({ headers: { Authorization: 'Bearer ${HP_TOKEN}' }, allowedEnvVars: ['HP_TOKEN'] }, process.env)
 *   // { Authorization: 'Bearer s3cr3t' }
 */
export function sendHeaders(webhook: Webhook, env: Readonly<Record<string, string | undefined>>): Record<string, string> | null {
  return expandHeaderEnv(webhook.headers ?? {}, webhook.allowedEnvVars, (name) => env[name]).headers;
}

/**
 * The runner's check before it queues a record: `webhook-env-unset` when an allowed
 * variable the headers name has no value in its environment (the sender it starts would
 * have none either); null when every one is set.
 * @example webhookEnvProblem({ headers: { Authorization: 'Bearer ${HP_TOKEN}' }, allowedEnvVars: ['HP_TOKEN'] }, {}) // webhook-env-unset
 */
export function webhookEnvProblem(webhook: Webhook, env: Readonly<Record<string, string | undefined>>): Diagnostic | null {
  const unset = unsetHeaderEnv(webhook.headers ?? {}, webhook.allowedEnvVars, (name) => env[name]);
  if (unset.length === 0) return null;
  const names = unset.map((n) => `$${n}`).join(', ');
  return diagnostic('webhook-env-unset', `the webhook's headers name ${names}, which ${unset.length === 1 ? 'is' : 'are'} not set in the hook's environment: the record was not sent`,
    undefined, 'export it where Claude Code is started, or remove the header');
}
