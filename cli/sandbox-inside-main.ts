/**
 * Entry of dist/sandbox-inside.cjs: the sandbox from inside the namespaces
 * (engine/host/sandbox/inside.ts), started by dist/sandbox.cjs under `unshare`. A bundle
 * of its own, small: it mounts, runs the command and lists the changes, and loads none of
 * the policy code that judges them outside.
 */
import * as fs from 'fs';
import { runInside, type InsideSpec } from '../engine/host/sandbox/inside';

if (require.main === module) {
  const spec = JSON.parse(Buffer.from(process.argv[2] ?? '', 'base64url').toString('utf8')) as InsideSpec;
  runInside(spec, (report) => fs.writeSync(3, JSON.stringify(report))).then((code) => process.exit(code), (e: unknown) => {
    fs.writeSync(3, JSON.stringify({ setup: `the sandbox failed inside: ${(e as Error)?.message ?? String(e)}` }));
    process.exit(125);
  });
}
