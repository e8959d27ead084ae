/**
 * Runs the built CLI as a user would: `node bin/policy.cjs ARGS` in a folder, with an
 * environment that holds PATH and only what the test gives (no FORCE_COLOR or NO_COLOR
 * leaking from the test runner), and optionally stdin.
 */
import { spawn, spawnSync } from 'node:child_process';
import { POLICY_BIN } from './run-hook';

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface RunCliOptions {
  cwd: string;
  /** Added to { PATH }; a key set to undefined is left out. */
  env?: Record<string, string | undefined>;
  /** Written to stdin; stdin is empty otherwise. */
  input?: string;
}

/**
 * @example runCli(['lint', '--format', 'json'], { cwd: dir }).code // 0
 */
export function runCli(args: string[], options: RunCliOptions): CliRun {
  const env = cliEnv(options);
  const run = spawnSync(process.execPath, [POLICY_BIN, ...args], {
    cwd: options.cwd,
    env,
    input: options.input ?? '',
    encoding: 'utf8',
    timeout: 60_000,
  });
  if (run.error) throw run.error;
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

/** Whether `script` (util-linux) can give the CLI a terminal. */
export const HAS_TERMINAL = process.platform === 'linux' && spawnSync('script', ['--version']).status === 0;

/**
 * Runs the CLI in a pseudo-terminal (util-linux `script`), its stdin left open as a
 * person's would be; stdout and stderr arrive together, with CRLF line ends. Resolves
 * with code null when the CLI is still running after `timeoutMs` (it is then killed).
 * @example (await runCliInTerminal(["lint"], { cwd: dir })).output // coloured stylish output
 */
export function runCliInTerminal(args: string[], options: RunCliOptions & { timeoutMs?: number }): Promise<{ code: number | null; output: string }> {
  const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
  const command = [process.execPath, POLICY_BIN, ...args].map(quote).join(' ');
  return new Promise((resolve) => {
    const child = spawn('script', ['-qec', command, '/dev/null'], { cwd: options.cwd, env: { ...cliEnv(options), SHELL: '/bin/sh', TERM: 'xterm' } });
    let output = '';
    child.stdout.on('data', (d: Buffer) => { output += d.toString('utf8'); });
    const timer = setTimeout(() => { child.kill('SIGKILL'); resolve({ code: null, output }); }, options.timeoutMs ?? 10_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      child.stdin.destroy();
      resolve({ code, output });
    });
  });
}

function cliEnv(options: RunCliOptions): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH ?? '' };
  for (const [key, value] of Object.entries(options.env ?? {})) if (value !== undefined) env[key] = value;
  return env;
}

/** The ANSI escape that starts a colour or style. */
export const ANSI = /\u001b\[\d+m/;
