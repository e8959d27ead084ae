/**
 * One headless Claude Code session against the scripted model, as a process of its own so
 * that it can run inside a network namespace with nothing but loopback (see client.ts):
 * `node run-session.cjs SPEC.json RESULT.json`. It brings loopback up when asked, starts the
 * model server, runs `claude -p PROMPT --output-format stream-json --verbose` in the project,
 * and writes what happened to RESULT.json. With `screen: true` in the spec it drives the
 * interactive client in tmux instead (interactive.ts).
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import { driveScreen, type ScreenOutcome, type ScreenSpec } from './interactive';
import { startModelServer, type RecordedRequest } from './model-server';
import type { Scenario } from './scenario';

/** For the bench, which reaches the suite's code through this module's bundle. */
export { clientEnv } from './client-env';

export interface SessionSpec {
  binary: string;
  projectDir: string;
  homeDir: string;
  prompt: string;
  scenario: Scenario;
  /** Extra CLI arguments after the fixed ones (e.g. --permission-mode). */
  args: string[];
  /** The whole environment of the client, apart from ANTHROPIC_BASE_URL. */
  env: Record<string, string>;
  timeoutMs: number;
  /** Run `ip link set lo up` first (a new network namespace starts with loopback down). */
  loopbackUp: boolean;
  /** Shown to the client as Claude Code's managed-settings folder (see mountManaged). */
  managedDir?: string;
  /**
   * Keep the model server up after the client has exited, until `file` holds one of
   * `until` (or `timeoutMs` passed): for what a hook started detached and still talks to it.
   */
  linger?: { file: string; until: string[]; timeoutMs: number };
  /** Programs started before the client, in its namespace, each waited for until it listens on its port; stopped after. */
  background?: BackgroundProgram[];
}

/** A program the session needs beside the client (a listener on a port, say). */
export interface BackgroundProgram {
  argv: string[];
  port: number;
}

/** Starts the programs and resolves once each accepts connections on its port (at most 10 s each). */
async function startBackground(programs: BackgroundProgram[]): Promise<ChildProcess[]> {
  const children: ChildProcess[] = [];
  for (const p of programs) {
    children.push(spawn(p.argv[0], p.argv.slice(1), { stdio: 'ignore' }));
    for (let i = 0; i < 200; i++) {
      const up = await new Promise<boolean>((resolve) => {
        const socket = net.connect(p.port, '127.0.0.1', () => {
          socket.destroy();
          resolve(true);
        });
        socket.on('error', () => resolve(false));
      });
      if (up) break;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  return children;
}

/** Where Claude Code reads managed settings on Linux. */
const MANAGED_SETTINGS_DIR = '/etc/claude-code';

/**
 * Puts `dir` at /etc/claude-code for this process and its children only. It runs in a
 * private mount namespace (client.ts starts it under `unshare -m`): /etc gets an overlay
 * whose upper layer is a temp folder, so the mount point is made there and the machine's
 * own /etc is never written.
 */
function mountManaged(dir: string): void {
  const layer = fs.mkdtempSync(`${dir}-overlay-`);
  for (const sub of ['upper', 'work']) fs.mkdirSync(`${layer}/${sub}`);
  execFileSync('mount', ['--make-rprivate', '/']);
  execFileSync('mount', ['-t', 'overlay', 'overlay', '-o', `lowerdir=/etc,upperdir=${layer}/upper,workdir=${layer}/work`, '/etc']);
  fs.mkdirSync(MANAGED_SETTINGS_DIR, { recursive: true });
  execFileSync('mount', ['--bind', dir, MANAGED_SETTINGS_DIR]);
}

export interface SessionOutcome {
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  /** Each stdout line of the stream-json output, parsed (unparsable lines kept as text). */
  messages: unknown[];
  stderr: string;
  requests: RecordedRequest[];
}

/** Runs the client and resolves once it has exited (or was killed at the deadline). */
export async function runSession(spec: SessionSpec): Promise<SessionOutcome> {
  if (spec.loopbackUp) execFileSync('ip', ['link', 'set', 'lo', 'up']);
  if (spec.managedDir) mountManaged(spec.managedDir);
  const model = await startModelServer(spec.scenario);
  const background = await startBackground(spec.background ?? []);
  try {
    const child = spawn(spec.binary, ['-p', spec.prompt, '--output-format', 'stream-json', '--verbose', ...spec.args], {
      cwd: spec.projectDir,
      env: { ...spec.env, ANTHROPIC_BASE_URL: model.url },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => out.push(c));
    child.stderr.on('data', (c: Buffer) => err.push(c));
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, spec.timeoutMs);
    const [exitCode, signal] = await new Promise<[number | null, string | null]>((resolve) => {
      child.on('close', (code, sig) => resolve([code, sig]));
    });
    clearTimeout(timer);
    if (spec.linger) await lingerUntil(spec.linger);
    const messages = Buffer.concat(out).toString('utf8').split('\n').filter((l) => l.trim() !== '').map((line) => {
      try {
        return JSON.parse(line) as unknown;
      } catch {
        return line;
      }
    });
    return { exitCode, signal, timedOut, messages, stderr: Buffer.concat(err).toString('utf8'), requests: model.requests };
  } finally {
    for (const b of background) b.kill('SIGKILL');
    await model.close();
  }
}

/** Resolves once `file` holds one of `until`, or after `timeoutMs`. */
async function lingerUntil(linger: NonNullable<SessionSpec['linger']>): Promise<void> {
  const deadline = Date.now() + linger.timeoutMs;
  while (Date.now() < deadline) {
    let text = '';
    try {
      text = fs.readFileSync(linger.file, 'utf8');
    } catch {
      // Not there yet.
    }
    if (linger.until.some((u) => text.includes(u))) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export interface ScreenSessionSpec extends ScreenSpec {
  scenario: Scenario;
  loopbackUp: boolean;
}

/** The interactive client in tmux against the scripted model (interactive.ts). */
export async function runScreenSession(spec: ScreenSessionSpec): Promise<ScreenOutcome & { requests: RecordedRequest[] }> {
  if (spec.loopbackUp) execFileSync('ip', ['link', 'set', 'lo', 'up']);
  const model = await startModelServer(spec.scenario);
  try {
    return { ...(await driveScreen(spec, model.url)), requests: model.requests };
  } finally {
    await model.close();
  }
}

if (require.main === module) {
  const [specFile, resultFile] = process.argv.slice(2);
  const spec = JSON.parse(fs.readFileSync(specFile, 'utf8')) as (SessionSpec & { screen?: false }) | (ScreenSessionSpec & { screen: true });
  (spec.screen ? runScreenSession(spec) : runSession(spec)).then(
    (outcome) => fs.writeFileSync(resultFile, JSON.stringify(outcome)),
    (error: unknown) => {
      process.stderr.write(`run-session: ${error instanceof Error ? error.stack : String(error)}\n`);
      process.exitCode = 1;
    },
  );
}
