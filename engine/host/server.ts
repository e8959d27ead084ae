/**
 * The `policy serve` daemon: answers Claude Code `type: "http"` hooks on loopback. The
 * POST body is the event (the same JSON a command hook reads on stdin); the answer is
 * what `policy hook` would print, as a 2xx body (empty for no output). Each request goes
 * through the same runHook as the command runner, with the compiled policy held in
 * memory (createLivePolicy) instead of read from the cache file.
 */
import * as http from 'http';
import type { AddressInfo } from 'net';
import type { CompiledPolicy, Decision, HookResponse } from '../types';
import { discoverPolicyFiles } from './discover';
import { createLivePolicy, type LivePolicy } from './live-policy';
import type { PolicyCompiler } from './cache';

/** What the daemon hands the runner (a subset of cli/hook.ts HookInput). */
export interface RunnerInput {
  argv: string[];
  stdin: string;
  env: Record<string, string | undefined>;
  cwd: string;
  compiler: () => PolicyCompiler;
  cacheDirs?: string[];
  policy?: CompiledPolicy;
}

export interface PolicyServerOptions {
  /** Absolute POSIX project root: the daemon serves one project. */
  projectRoot: string;
  /** --config files (relative to the project root); [] = discovery. */
  configs: string[];
  env: Readonly<Record<string, string | undefined>>;
  onError: 'open' | 'closed' | null;
  compiler: () => PolicyCompiler;
  /** The runner's entry (cli/hook.ts runHook), passed in so that engine/ does not import cli/. */
  runHook: (input: RunnerInput) => Promise<{ response: HookResponse; decision: Decision | null }>;
  cacheDirs?: string[];
  /** Where the daemon reports (rebuilds, runner warnings); default: nowhere. */
  log?: (line: string) => void;
  /** Largest accepted body (default 16 MiB). */
  maxBodyBytes?: number;
  watch?: boolean;
}

export interface PolicyServer {
  /** Starts listening; port 0 picks a free port. */
  listen(port: number, host: string): Promise<{ host: string; port: number; url: string }>;
  close(): Promise<void>;
}

/** What an HTTP hook gets back: always 2xx (an HTTP hook cannot block by status). */
export interface HttpAnswer {
  status: number;
  body: string;
}

/**
 * The HTTP answer for a runner response. Exit code 2 has no HTTP equivalent (TeammateIdle,
 * TaskCompleted, WorktreeCreate... block only that way), so it becomes a visible
 * systemMessage saying the block was not applied; `policy init --mode http` keeps those
 * events on command hooks.
 * @example httpAnswer({ stdout: '{"decision":"block","reason":"x"}\n', stderr: '', exitCode: 0 }, 'Stop')
 *   // { status: 200, body: '{"decision":"block","reason":"x"}' }
 */
export function httpAnswer(response: HookResponse, eventName: string | null): HttpAnswer {
  if (response.exitCode === 0) return { status: 200, body: response.stdout.trim() };
  const event = eventName ?? 'this event';
  const reason = response.stderr.trim();
  const message = `hookpolicy: ${event} can only be blocked with exit code 2, which an http hook cannot give, so this block was NOT applied`
    + ` (register ${event} as a command hook: policy init --mode http does): ${reason}`;
  return { status: 200, body: JSON.stringify({ systemMessage: message }) };
}

/**
 * @example const server = createPolicyServer({ projectRoot: '/p', configs: [], env: process.env, onError: null, compiler, runHook });
 *   await server.listen(0, '127.0.0.1') // { host: '127.0.0.1', port: 40123, url: 'http://127.0.0.1:40123/' }
 */
export function createPolicyServer(options: PolicyServerOptions): PolicyServer {
  const log = options.log ?? (() => undefined);
  const env = { ...options.env, CLAUDE_PROJECT_DIR: options.projectRoot };
  const roots = () => discoverPolicyFiles({ configs: options.configs, env, projectRoot: options.projectRoot });
  const live: LivePolicy = createLivePolicy({
    roots,
    env,
    compiler: options.compiler,
    dirs: options.cacheDirs,
    watch: options.watch,
    onBuild: (files, result) => log(result.policy
      ? `loaded ${files.join(', ')}: ${result.policy.rules.length} rules${result.fromCache ? ' (from cache)' : ''}`
      : `${files.join(', ')} does not build; answering per on_error until it is fixed`),
  });
  const argv = options.onError ? ['--on-error', options.onError] : [];

  const answer = async (body: string): Promise<HttpAnswer> => {
    const files = roots();
    const input: RunnerInput = { argv, stdin: body, env, cwd: options.projectRoot, compiler: options.compiler, cacheDirs: options.cacheDirs };
    const policy = files.length > 0 ? live.get().result.policy : null;
    // No policy (none found, or it does not build): the runner's own path renders the failure.
    const result = await options.runHook(policy ? { ...input, policy } : { ...input, argv: [...argv, ...files.flatMap((f) => ['--config', f])] });
    if (result.response.stderr !== '') log(result.response.stderr.trimEnd());
    return httpAnswer(result.response, result.decision?.event ?? eventNameOf(body));
  };

  const server = http.createServer((req, res) => {
    if (req.method === 'GET' && (req.url === '/health' || req.url === '/')) {
      send(res, 200, JSON.stringify({ ok: true, project: options.projectRoot }));
      return;
    }
    if (req.method !== 'POST') {
      send(res, 405, JSON.stringify({ error: 'POST the hook event as JSON' }));
      return;
    }
    readBody(req, options.maxBodyBytes ?? 16 * 1024 * 1024).then(
      (body) => answer(body).then((a) => send(res, a.status, a.body)),
      () => send(res, 413, JSON.stringify({ error: 'body too large' })),
    ).catch((e: unknown) => {
      log(`internal error: ${(e as Error)?.message ?? String(e)}`);
      send(res, 500, '');
    });
  });
  server.keepAliveTimeout = 60_000;

  return {
    listen(port, host) {
      return new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => {
          const address = server.address() as AddressInfo;
          const shown = address.family === 'IPv6' ? `[${address.address}]` : address.address;
          resolve({ host: address.address, port: address.port, url: `http://${shown}:${address.port}/` });
        });
      });
    },
    close() {
      live.close();
      return new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}

function send(res: http.ServerResponse, status: number, body: string): void {
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

function readBody(req: http.IncomingMessage, limit: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        reject(new Error('too large'));
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function eventNameOf(body: string): string | null {
  try {
    const name = (JSON.parse(body) as { hook_event_name?: unknown }).hook_event_name;
    return typeof name === 'string' ? name : null;
  } catch {
    return null;
  }
}
