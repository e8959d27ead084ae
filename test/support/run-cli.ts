/**
 * Runs the built CLI as a user would: `node bin/policy.cjs ARGS` in a folder, with an
 * environment that holds PATH and only what the test gives (no FORCE_COLOR or NO_COLOR
 * leaking from the test runner), and optionally stdin.
 */
import { spawnSync } from 'node:child_process';
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
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH ?? '' };
  for (const [key, value] of Object.entries(options.env ?? {})) if (value !== undefined) env[key] = value;
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

/** The ANSI escape that starts a colour or style. */
export const ANSI = /\u001b\[\d+m/;
