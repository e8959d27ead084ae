/**
 * OtlpExporter.deliver run in a child node process. The SDK's HTTP transport loads `http`
 * with a dynamic import(), which jest's module sandbox refuses; so the tests bundle
 * engine/host/otlp/export.ts with esbuild (as scripts/build.mjs does for the exporter) and
 * call it in a plain node process, one call per batch.
 */
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { buildSync } from 'esbuild';
import type { Delivery } from '../../engine/host/outbox';
import type { OtlpTarget } from '../../engine/host/otlp/enqueue';

const REPO = path.join(__dirname, '..', '..');
let bundle: string | null = null;

/** The exporter module bundled once per test file. */
function exporterBundle(): string {
  if (bundle && fs.existsSync(bundle)) return bundle;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hookpolicy-otlp-bundle-'));
  bundle = path.join(dir, 'export.cjs');
  buildSync({ entryPoints: [path.join(REPO, 'engine', 'host', 'otlp', 'export.ts')], bundle: true, platform: 'node', target: 'node20', format: 'cjs', outfile: bundle, logLevel: 'error' });
  return bundle;
}

const CHILD = `
const { OtlpExporter } = require(process.argv[1]);
let input = '';
process.stdin.on('data', (c) => { input += c; });
process.stdin.on('end', async () => {
  const { target, texts } = JSON.parse(input);
  const requeued = [];
  const exporter = new OtlpExporter({ env: process.env, target, requeue: (t) => requeued.push(t) });
  const deliveries = await exporter.deliver(texts);
  await exporter.shutdown();
  process.stdout.write(JSON.stringify({ deliveries, requeued }));
});
`;

export interface DeliverResult {
  deliveries: Delivery[];
  requeued: string[];
}

/**
 * Delivers `texts` (outbox items) to `target` (the exporter's, as its runner gives it) in a
 * child process whose environment is `env` (and PATH).
 * @example await deliverInChild(target, [JSON.stringify(item)], {}) // { deliveries: ['sent'], requeued: [] }
 */
export function deliverInChild(target: OtlpTarget, texts: string[], env: Record<string, string> = {}): Promise<DeliverResult> {
  const script = exporterBundle();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', CHILD, script], { stdio: ['pipe', 'pipe', 'pipe'], env: { PATH: process.env.PATH ?? '', ...env } });
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => { out += c.toString('utf8'); });
    child.stderr.on('data', (c: Buffer) => { err += c.toString('utf8'); });
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) reject(new Error(`exporter child exited ${code}: ${err}`));
      else resolve(JSON.parse(out) as DeliverResult);
    });
    child.stdin.end(JSON.stringify({ target, texts }));
  });
}
