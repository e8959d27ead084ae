/**
 * Entry of dist/otlp-exporter.cjs: the one drainer of an `otlp-outbox` folder (its
 * argument), started detached by a runner (enqueue.ts). It exports what the outbox holds
 * through the OpenTelemetry SDK until the outbox stays empty, then ends; records the
 * collector did not accept stay on disk and are tried again with a backoff.
 */
import { drainOutbox, enqueue } from '../outbox';
import { OtlpExporter } from './export';

const folder = process.argv[2];
if (folder) void run(folder);

async function run(dir: string): Promise<void> {
  const exporter = new OtlpExporter({ env: process.env, requeue: (text) => enqueue(dir, text) });
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
