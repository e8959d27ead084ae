/**
 * Entry of dist/otlp-exporter.cjs: the one drainer of an `otlp-outbox/<key>` folder (its
 * argument), started detached by a runner (enqueue.ts) with the target in its environment
 * (the policy's, for the folder named by it; an item never says where it goes). It exports
 * what the outbox holds through the OpenTelemetry SDK until the outbox stays empty, then
 * ends; records the collector did not accept stay on disk and are tried again with a backoff.
 */
import { drainOutbox, enqueue, outboxDestination } from '../outbox';
import { isOtlpTarget, type OtlpTarget } from './enqueue';
import { OtlpExporter } from './export';

const folder = process.argv[2];
const target = folder ? outboxDestination(process.env, folder, isOtlpTarget) : null;
if (folder && target) void run(folder, target);

async function run(dir: string, to: OtlpTarget): Promise<void> {
  const exporter = new OtlpExporter({ env: process.env, target: to, requeue: (text) => enqueue(dir, text) });
  try {
    await drainOutbox(dir, (texts) => exporter.deliver(texts), drainTimes(process.env));
  } finally {
    await exporter.shutdown();
  }
}

/** HOOKPOLICY_OTLP_BACKOFF_MS=first,max (tests): the drainer's backoff; the outbox's default otherwise. */
function drainTimes(env: NodeJS.ProcessEnv): { backoffMs?: { first: number; max: number } } {
  const m = /^(\d+),(\d+)$/.exec(env.HOOKPOLICY_OTLP_BACKOFF_MS ?? '');
  return m ? { backoffMs: { first: Number(m[1]), max: Number(m[2]) } } : {};
}
