/**
 * Helpers for the robustness suites: the runner spawned asynchronously (so hundreds can
 * run at once), sandboxes, and one check of what Claude Code may receive. The runner
 * in-process is in hook-in-process.ts.
 */
import { execFileSync, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { POLICY_BIN, REPO_ROOT } from './run-hook';

const DIST = path.join(REPO_ROOT, 'dist');

/** Builds dist/ (without the type-check) when a bundle the runner needs is missing. */
export function ensureBuilt(): void {
  const bundles = ['hook.cjs', 'compile.cjs', 'cli.cjs', 'webhook-sender.cjs'];
  if (bundles.every((b) => fs.existsSync(path.join(DIST, b)))) return;
  execFileSync(process.execPath, [path.join(REPO_ROOT, 'scripts', 'build.mjs')], {
    stdio: 'inherit',
    env: { ...process.env, HOOKPOLICY_SKIP_TYPECHECK: '1' },
  });
}

export interface SpawnOptions {
  projectDir: string;
  cacheDir: string;
  env?: Record<string, string | undefined>;
  args?: string[];
  /** Kill the runner after this long (a hung runner fails the test instead of jest). */
  timeoutMs?: number;
}

export interface SpawnResult {
  stdout: string;
  stderr: string;
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  /** Date.now() when the process closed its pipes and exited. */
  endedAt: number;
}

/**
 * Runs `node bin/policy.cjs hook` with `stdin`, without blocking the test process.
 * @example const r = await spawnHook('{"hook_event_name":"Stop"}', { projectDir, cacheDir }); r.exitCode // 0
 */
export function spawnHook(stdin: string | Buffer, options: SpawnOptions): Promise<SpawnResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [POLICY_BIN, 'hook', ...(options.args ?? [])], {
      cwd: options.projectDir,
      env: hookEnv(options),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 20_000);
    child.stdout.on('data', (c: Buffer) => out.push(c));
    child.stderr.on('data', (c: Buffer) => err.push(c));
    child.stdin.on('error', () => undefined); // the runner may exit before reading it all
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.on('close', (exitCode, signal) => {
      clearTimeout(timer);
      resolve({
        stdout: Buffer.concat(out).toString('utf8'),
        stderr: Buffer.concat(err).toString('utf8'),
        exitCode,
        signal,
        endedAt: Date.now(),
      });
    });
    child.stdin.end(stdin);
  });
}

/** The environment of a spawned runner: the test's own minus what could steer it. */
function hookEnv(options: SpawnOptions): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (/^(CLAUDE_|HOOKPOLICY_)/.test(key) || key === 'POLICY_CONFIG' || key === 'ATEAM_ENFORCEMENT') continue;
    env[key] = value;
  }
  env.CLAUDE_PROJECT_DIR = options.projectDir;
  env.HOOKPOLICY_CACHE_DIR = options.cacheDir;
  for (const [key, value] of Object.entries(options.env ?? {})) {
    if (value === undefined) delete env[key];
    else env[key] = value;
  }
  return env;
}

/** Keys Claude Code reads at the top of a hook's stdout JSON. */
const TOP_LEVEL_KEYS = new Set(['continue', 'stopReason', 'suppressOutput', 'systemMessage', 'decision', 'reason', 'hookSpecificOutput']);

/**
 * Everything wrong with a response Claude Code would receive, [] when it is well formed:
 * exit 0 or 2; stdout empty or exactly one JSON object on one line; exit 2 with empty
 * stdout and a message on stderr; no internal error (a crash the runner only caught).
 * @example responseProblems({ stdout: '', stderr: '', exitCode: 0 }) // []
 */
export function responseProblems(r: { stdout: string; stderr: string; exitCode: number | null }): string[] {
  const problems: string[] = [];
  if (r.exitCode !== 0 && r.exitCode !== 2) problems.push(`exit code ${r.exitCode}`);
  if (r.exitCode === 2) {
    if (r.stdout !== '') problems.push('exit 2 with stdout');
    if (r.stderr.trim() === '') problems.push('exit 2 without a message on stderr');
  }
  if (r.stdout !== '') {
    if (!r.stdout.endsWith('\n') || r.stdout.slice(0, -1).includes('\n')) problems.push('stdout is not exactly one line');
    let value: unknown;
    try {
      value = JSON.parse(r.stdout);
    } catch {
      problems.push(`stdout is not JSON: ${r.stdout.slice(0, 200)}`);
    }
    if (value !== undefined && (value === null || typeof value !== 'object' || Array.isArray(value))) problems.push('stdout JSON is not an object');
    else if (value !== undefined) {
      const unknown = Object.keys(value as object).filter((k) => !TOP_LEVEL_KEYS.has(k));
      if (unknown.length > 0) problems.push(`unknown top-level keys ${unknown.join(', ')}`);
    }
  }
  if (/internal-error/.test(r.stdout + r.stderr)) problems.push(`internal error: ${(r.stdout + r.stderr).slice(0, 300)}`);
  return problems;
}

/**
 * Runs `fn` over `items` with at most `limit` at once, keeping the order of results.
 * @example await inPool([1, 2, 3], 2, async (n) => n * 2) // [2, 4, 6]
 */
export async function inPool<T, R>(items: readonly T[], limit: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i], i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

export interface Sandbox {
  dir: string;
  cacheDir: string;
  /** Writes a sandbox-relative file, creating folders; returns its absolute path. */
  write(relative: string, content: string | Buffer): string;
  file(relative: string): string;
  remove(): void;
}

/**
 * Kills the detached drainers (webhook sender, OTLP exporter, PostgreSQL shipper) of a
 * sandbox's cache: each names its pid in its outbox's lock (`OUTBOX/sender.lock`, or
 * `OUTBOX/KEY/sender.lock` for an outbox per destination). One still retrying a sink the
 * test has closed would otherwise write into the folder while it is removed, and live on.
 */
function stopDrainers(cacheDir: string): void {
  for (const folder of outboxFolders(cacheDir)) {
    try {
      const pid = Number(fs.readFileSync(path.join(folder, 'sender.lock'), 'utf8'));
      if (Number.isInteger(pid) && pid > 0 && pid !== process.pid) process.kill(pid, 'SIGKILL');
    } catch {
      // No lock, or its process is gone.
    }
  }
}

/**
 * The outbox folders of a cache folder: each folder in it, and each folder in those (an
 * outbox per destination: `webhook-spool/<key>`, `otlp-outbox/<key>`).
 * @example outboxFolders(box.cacheDir) // ['/…-cache/webhook-spool', '/…-cache/webhook-spool/3f0c9a1b2c4d5e6f']
 */
export function outboxFolders(cacheDir: string): string[] {
  const folders = (dir: string) => {
    try {
      return fs.readdirSync(dir, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => path.join(dir, e.name));
    } catch {
      return [];
    }
  };
  return folders(cacheDir).flatMap((outbox) => [outbox, ...folders(outbox)]);
}

/**
 * A fresh project folder (real path) with its own cache folder beside it.
 * @example const box = makeSandbox({ '.claude/policies.yaml': 'version: 1\n' });
 */
export function makeSandbox(files: Record<string, string> = {}): Sandbox {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'hookpolicy-robust-')));
  const cacheDir = `${dir}-cache`;
  const box: Sandbox = {
    dir,
    cacheDir,
    file: (relative) => path.join(dir, ...relative.split('/')),
    write(relative, content) {
      const target = box.file(relative);
      fs.mkdirSync(path.dirname(target), { recursive: true });
      fs.writeFileSync(target, content);
      return target;
    },
    remove() {
      stopDrainers(cacheDir);
      fs.rmSync(dir, { recursive: true, force: true });
      fs.rmSync(cacheDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
    },
  };
  for (const [relative, content] of Object.entries(files)) box.write(relative, content);
  return box;
}

/** The text of a file under fixtures/robustness/. */
export function robustnessFixture(name: string): string {
  return fs.readFileSync(path.join(REPO_ROOT, 'fixtures', 'robustness', name), 'utf8');
}
