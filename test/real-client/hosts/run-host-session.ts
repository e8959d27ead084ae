/**
 * One headless session of a host other than Claude Code against the scripted model, as a
 * process of its own so that it runs in the network namespace with only loopback (see
 * ../client.ts): `node run-host-session.cjs SPEC.json RESULT.json`. It brings loopback up,
 * starts the model server in the host's wire format, runs the host's non-interactive mode
 * in the project, and writes what happened to RESULT.json.
 *
 * - Codex CLI: `codex exec` with the scripted provider given on the command line
 *   (`-c model_providers.scripted={…, wire_api="responses"}`), so that the user's
 *   config.toml holds only what a user's would: init's hook trust, the project's trust.
 * - Gemini CLI: `gemini -p` with `GOOGLE_GEMINI_BASE_URL` at the scripted model and a
 *   dummy API key (the user's settings select `gemini-api-key`).
 */
import { execFileSync, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import type { Scenario } from '../scenario';
import { startHostModelServer, type HostRequest } from './wire';
import { responsesWire } from './wire-responses';
import { geminiWire } from './wire-gemini';

export interface HostSessionSpec {
  host: 'codex' | 'gemini';
  /** The host's program and leading arguments (binaries.ts). */
  argv: string[];
  projectDir: string;
  prompt: string;
  scenario: Scenario;
  /** Arguments after the fixed ones, before the prompt. */
  args: string[];
  /** The host's whole environment, apart from what points it at the scripted model. */
  env: Record<string, string>;
  timeoutMs: number;
  loopbackUp: boolean;
}

export interface HostSessionOutcome {
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  stdout: string;
  stderr: string;
  requests: HostRequest[];
}

/** The command line and environment for the host, with the model server at `url`. */
function commandFor(spec: HostSessionSpec, url: string): { argv: string[]; env: Record<string, string> } {
  if (spec.host === 'codex') {
    return {
      argv: [...spec.argv, 'exec', '--skip-git-repo-check', '--sandbox', 'danger-full-access',
        '-c', 'model_provider="scripted"',
        '-c', `model_providers.scripted={name="scripted",base_url="${url}/v1",wire_api="responses"}`,
        '-m', 'scripted-1', ...spec.args, spec.prompt],
      env: spec.env,
    };
  }
  return {
    argv: [...spec.argv, '-p', spec.prompt, '--yolo', '-m', 'scripted-model', ...spec.args],
    env: { ...spec.env, GOOGLE_GEMINI_BASE_URL: url, GEMINI_API_KEY: 'scripted-dummy-key' },
  };
}

/** Runs the host and resolves once it has exited (or was killed at the deadline). */
export async function runHostSession(spec: HostSessionSpec): Promise<HostSessionOutcome> {
  if (spec.loopbackUp) execFileSync('ip', ['link', 'set', 'lo', 'up']);
  const model = await startHostModelServer(spec.scenario, spec.host === 'codex' ? responsesWire : geminiWire);
  try {
    const { argv, env } = commandFor(spec, model.url);
    const child = spawn(argv[0], argv.slice(1), { cwd: spec.projectDir, env, stdio: ['ignore', 'pipe', 'pipe'] });
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
    return { exitCode, signal, timedOut, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8'), requests: model.requests };
  } finally {
    await model.close();
  }
}

if (require.main === module) {
  const [specFile, resultFile] = process.argv.slice(2);
  const spec = JSON.parse(fs.readFileSync(specFile, 'utf8')) as HostSessionSpec;
  runHostSession(spec).then(
    (outcome) => fs.writeFileSync(resultFile, JSON.stringify(outcome)),
    (error: unknown) => {
      process.stderr.write(`run-host-session: ${error instanceof Error ? error.stack : String(error)}\n`);
      process.exitCode = 1;
    },
  );
}
