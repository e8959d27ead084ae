/**
 * The real Claude Code binary, run headless against the scripted model.
 *
 * The binary is the native `claude` that the Agent SDK dev dependency installs for this
 * platform (pinned by package.json). Each session runs in a process of its own
 * (run-session.ts, bundled once per test process), inside a network namespace with only
 * loopback where `unshare -n` works, so no test can reach anything but the scripted model.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import { clientEnv } from './client-env';
import * as path from 'node:path';
import { buildSync } from 'esbuild';
import type { Scenario } from './scenario';
import type { ScreenOutcome, ScreenStep } from './interactive';
import type { RecordedRequest } from './model-server';
import type { ScreenSessionSpec, SessionOutcome, SessionSpec } from './run-session';

const SDK_PACKAGE = '@anthropic-ai/claude-agent-sdk';

/** Where the client binary is, and whether it runs here. */
export interface ClientBinary {
  path: string | null;
  version: string | null;
  /** Why the suite cannot run here, or null when it can. */
  unavailable: string | null;
}

function platformPackages(): string[] {
  const base = `${SDK_PACKAGE}-${process.platform}-${process.arch}`;
  return process.platform === 'linux' ? [base, `${base}-musl`] : [base];
}

let binaryCache: ClientBinary | undefined;

/**
 * Finds the native binary of the pinned Agent SDK and checks that it starts.
 * @example claudeBinary().version // '2.1.330'
 */
export function claudeBinary(): ClientBinary {
  if (binaryCache) return binaryCache;
  const exe = process.platform === 'win32' ? 'claude.exe' : 'claude';
  for (const pkg of platformPackages()) {
    let file: string;
    try {
      file = path.join(path.dirname(require.resolve(`${pkg}/package.json`)), exe);
    } catch {
      continue;
    }
    const run = spawnSync(file, ['--version'], { encoding: 'utf8', timeout: 30_000, env: { PATH: process.env.PATH ?? '', HOME: os.tmpdir() } });
    const version = /(\d+\.\d+\.\d+)/.exec(run.stdout ?? '')?.[1] ?? null;
    if (run.status === 0 && version) return (binaryCache = { path: file, version, unavailable: null });
    binaryCache = { path: file, version: null, unavailable: `${file} does not run here (${run.error?.message ?? `exit ${run.status}: ${run.stderr}`})` };
  }
  return (binaryCache ??= { path: null, version: null, unavailable: `no Claude Code binary for ${process.platform}-${process.arch} (${platformPackages().join(' or ')} is not installed)` });
}

/** How sessions are isolated from the network. */
export type Isolation = { kind: 'netns'; prefix: string[] } | { kind: 'none'; reason: string };

let isolationCache: Isolation | undefined;

/** A network namespace with only loopback, when `unshare -n` (or `-rn` without root) works here. */
export function isolation(): Isolation {
  if (isolationCache) return isolationCache;
  if (process.platform !== 'linux') return (isolationCache = { kind: 'none', reason: 'not Linux' });
  const prefix = process.getuid?.() === 0 ? ['unshare', '-n'] : ['unshare', '-r', '-n'];
  const probe = spawnSync(prefix[0], [...prefix.slice(1), 'ip', 'link', 'set', 'lo', 'up'], { encoding: 'utf8' });
  isolationCache = probe.status === 0 ? { kind: 'netns', prefix } : { kind: 'none', reason: `${prefix.join(' ')} failed: ${(probe.stderr || probe.error?.message || '').trim()}` };
  return isolationCache;
}

const bundleFiles = new Map<string, string>();

/** A session runner bundled once per test process (run-session.ts, or a host's, test/real-client/hosts). */
function sessionBundle(entry = path.join(__dirname, 'run-session.ts')): string {
  const done = bundleFiles.get(entry);
  if (done) return done;
  const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'hp-client-')), `${path.basename(entry, '.ts')}.cjs`);
  buildSync({ entryPoints: [entry], bundle: true, platform: 'node', format: 'cjs', target: 'node20', outfile: out, logLevel: 'error' });
  bundleFiles.set(entry, out);
  return out;
}

export { clientEnv } from './client-env';

export interface RunClientOptions {
  projectDir: string;
  homeDir: string;
  prompt: string;
  scenario: Scenario;
  /** Default: bypassPermissions, so tool calls run without a permission dialog. */
  permissionMode?: 'bypassPermissions' | 'default' | 'acceptEdits' | 'plan';
  args?: string[];
  env?: Record<string, string>;
  timeoutMs?: number;
  /** A folder the client sees as /etc/claude-code (managed settings), in a private mount namespace. */
  managedDir?: string;
  /** Keep the model server up after the client exits, for a process a hook started (run-session.ts). */
  linger?: SessionSpec['linger'];
  /** Programs started in the session's namespace before the client (run-session.ts). */
  background?: SessionSpec['background'];
}

/** Runs the session bundle with `spec` (in the namespace when there is one) and returns its result. */
function runBundle<T>(spec: object, timeoutMs: number, entry?: string): T {
  const iso = isolation();
  const { managedDir } = spec as { managedDir?: string };
  if (managedDir && iso.kind !== 'netns') throw new Error(`managed settings need a private mount namespace, and ${iso.reason}`);
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'hp-session-'));
  const specFile = path.join(work, 'spec.json');
  const resultFile = path.join(work, 'result.json');
  fs.writeFileSync(specFile, JSON.stringify({ ...spec, loopbackUp: iso.kind === 'netns' }));
  const prefix = iso.kind === 'netns' ? [...iso.prefix, ...(managedDir ? ['-m'] : [])] : [];
  const command = [...prefix, process.execPath, sessionBundle(entry), specFile, resultFile];
  try {
    execFileSync(command[0], command.slice(1), { stdio: ['ignore', 'ignore', 'pipe'], timeout: timeoutMs + 30_000 });
    return JSON.parse(fs.readFileSync(resultFile, 'utf8')) as T;
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

/**
 * Runs another session runner (`entry`: its .ts file, which reads SPEC.json and writes
 * RESULT.json as run-session.ts does) in the same namespace, for hosts other than Claude Code.
 * @example runSessionEntry<HostSessionOutcome>(path.join(__dirname, 'hosts', 'run-host-session.ts'), spec, 120_000)
 */
export function runSessionEntry<T>(entry: string, spec: object, timeoutMs: number): T {
  return runBundle<T>(spec, timeoutMs, entry);
}

function requireBinary(): string {
  const binary = claudeBinary();
  if (!binary.path || binary.unavailable) throw new Error(binary.unavailable ?? 'no binary');
  return binary.path;
}

/**
 * Runs one headless session and returns what the client printed and what the model was sent.
 * @example const s = runClient({ projectDir, homeDir, prompt: 'go', scenario: { main: [say('ok')] } });
 */
export function runClient(options: RunClientOptions): SessionOutcome {
  const spec: Omit<SessionSpec, 'loopbackUp'> = {
    binary: requireBinary(),
    projectDir: options.projectDir,
    homeDir: options.homeDir,
    prompt: options.prompt,
    scenario: options.scenario,
    args: ['--permission-mode', options.permissionMode ?? 'bypassPermissions', ...(options.args ?? [])],
    env: clientEnv(options.homeDir, options.env),
    timeoutMs: options.timeoutMs ?? 120_000,
    managedDir: options.managedDir,
    linger: options.linger,
    background: options.background,
  };
  return runBundle<SessionOutcome>(spec, spec.timeoutMs + (options.linger?.timeoutMs ?? 0));
}

export type RunScreenOptions = Omit<RunClientOptions, 'prompt' | 'timeoutMs'> & { steps: ScreenStep[] };

/**
 * Runs the interactive client in tmux through `steps` and returns the screens captured.
 * @example runScreenClient({ projectDir, homeDir, scenario, steps: [{ waitFor: 'manual mode' }, { capture: 'start' }] })
 */
export function runScreenClient(options: RunScreenOptions): ScreenOutcome & { requests: RecordedRequest[] } {
  const spec: Omit<ScreenSessionSpec, 'loopbackUp'> & { screen: true } = {
    screen: true,
    binary: requireBinary(),
    projectDir: options.projectDir,
    homeDir: options.homeDir,
    scenario: options.scenario,
    args: ['--permission-mode', options.permissionMode ?? 'default', ...(options.args ?? [])],
    env: clientEnv(options.homeDir, options.env),
    steps: options.steps,
  };
  return runBundle(spec, 120_000);
}
