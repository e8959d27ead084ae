/**
 * Where an outbox's records go comes from the policy, never from a record. The runner,
 * which read the policy, queues the records for one destination (a webhook's URL, headers
 * and allowed variables; an OpenTelemetry target) in a folder of their own, named by the
 * destination's hash, and gives the destination to the drainer it starts through the
 * drainer's environment (not its command line, which other users can read: a URL may hold
 * a secret). The drainer sends every record of that folder there and nowhere else: a record
 * planted in the folder may name any URL or variable, it is not read for it.
 */
import * as path from 'path';
import { sha256 } from '../../decision-log/sha256';
import { outboxFolder } from './folder';

/** The drainer's environment variable that holds its destination, as JSON. */
export const DESTINATION_VAR = 'HOOKPOLICY_OUTBOX_DESTINATION';

type Env = Readonly<Record<string, string | undefined>>;

/**
 * The folder name of a destination: 16 hex digits of the SHA-256 of its JSON.
 * @example destinationKey({ url: 'https://hooks.example.com/x', timeoutMs: 1000, headers: {} }) // '3f0c9a1b2c4d5e6f'
 */
export function destinationKey(destination: unknown): string {
  return sha256().update(Buffer.from(JSON.stringify(destination), 'utf8')).hex().slice(0, 16);
}

/**
 * The outbox `name/<key>` for `destination`, in the first cache folder only this user can
 * write (outboxFolder); null when there is none.
 * @example destinationOutbox(process.env, 'webhook-spool', webhook) // '/home/me/.cache/hookpolicy/webhook-spool/3f0c9a1b2c4d5e6f'
 */
export function destinationOutbox(env: Env, name: string, destination: unknown): string | null {
  return outboxFolder(env, `${name}/${destinationKey(destination)}`);
}

/**
 * The environment a drainer is started with: this process's, and the destination.
 * @example startDrainer(folder, script, { env: drainerEnv(webhook) })
 */
export function drainerEnv(destination: unknown): NodeJS.ProcessEnv {
  return { ...process.env, [DESTINATION_VAR]: JSON.stringify(destination) };
}

/**
 * The drainer's destination, from its environment; null when there is none, it is not a
 * destination (`isDestination`), or it is not the one `folder` is named for (a drainer
 * started for another outbox sends nothing).
 * @example outboxDestination(process.env, process.argv[2], isWebhookDestination)?.url // 'https://hooks.example.com/x'
 */
export function outboxDestination<T>(env: Env, folder: string, isDestination: (value: unknown) => value is T): T | null {
  const text = env[DESTINATION_VAR];
  if (!text) return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  return isDestination(value) && destinationKey(value) === path.basename(folder) ? value : null;
}
