/**
 * `policy serve` for one project as the tests run it: the built CLI on an ephemeral
 * loopback port, events POSTed to /policy-hook as Claude Code's http hooks send them.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import * as http from 'node:http';
import { POLICY_BIN } from './run-hook';

export interface PolicyServer {
  child: ChildProcess;
  /** Where it listens: http://127.0.0.1:<port>/ */
  url: URL;
  /** POSTs an event (a string as it is, anything else as JSON); the status and body. */
  post(body: unknown): Promise<{ status: number; body: string }>;
  /** SIGTERM, then waits for it to exit (at once when it has). */
  stop(): Promise<void>;
}

/**
 * Starts the server for `projectDir` with its own cache folder, without the variables that
 * would point it elsewhere (unless `env` sets them); resolves once it listens.
 * @example const server = await startPolicyServer({ projectDir, cacheDir }); await server.post(event); await server.stop();
 */
export async function startPolicyServer(options: { projectDir: string; cacheDir: string; env?: Record<string, string> }): Promise<PolicyServer> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !['CLAUDE_PROJECT_DIR', 'POLICY_CONFIG'].includes(k)) env[k] = v;
  const child = spawn(process.execPath, [POLICY_BIN, 'serve', '--port', '0', '--project-dir', options.projectDir, '--quiet'], {
    env: { ...env, HOOKPOLICY_CACHE_DIR: options.cacheDir, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const url = await new Promise<URL>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d) => {
      out += d;
      const m = /listening on (http:\/\/127\.0\.0\.1:\d+\/)/.exec(out);
      if (m) resolve(new URL(m[1]));
    });
    child.on('exit', (code) => reject(new Error(`policy serve exited with ${code}`)));
  });
  const post = (body: unknown) => new Promise<{ status: number; body: string }>((resolve, reject) => {
    const text = typeof body === 'string' ? body : JSON.stringify(body);
    const req = http.request({ host: url.hostname, port: url.port, path: '/policy-hook', method: 'POST', headers: { 'content-type': 'application/json' } }, (res) => {
      let data = '';
      res.on('data', (d) => { data += d; });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: data }));
    });
    req.on('error', reject);
    req.end(text);
  });
  const stop = () => new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
  return { child, url, post, stop };
}
