/**
 * The host suites' frame, as suite.ts is Claude Code's: `describeHost` runs its cases only
 * where the pinned host binary runs (and says so loudly when it does not); `runHostCase`
 * makes a project exactly as a team would (the policy, hookpolicy in node_modules,
 * `policy init --host`), takes the steps a user takes on their own machine (trusting the
 * project or folder), and runs one session against the scripted model.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { isolation, runSessionEntry } from '../client';
import type { Scenario } from '../scenario';
import { linkHookpolicy } from '../../support/install';
import { hostBinary, type HostName } from './binaries';
import type { HostSessionOutcome, HostSessionSpec } from './run-host-session';

/** Per-session test timeout: a session takes 2-8 s; the host is killed at 120 s. */
export const HOST_SESSION_TIMEOUT_MS = 180_000;

/** `describe` when the host's binary runs here, else `describe.skip` with the reason printed. */
export function describeHost(host: HostName, name: string, body: () => void): void {
  const binary = hostBinary(host);
  if (binary.unavailable) {
    process.stderr.write(`\nreal-client suite SKIPPED (${host}: ${name}): ${binary.unavailable}\n\n`);
    describe.skip(`${name} (${host} unavailable: ${binary.unavailable})`, body);
    return;
  }
  const iso = isolation();
  const where = iso.kind === 'netns' ? 'network namespace, loopback only' : `no network namespace: ${iso.reason}`;
  const title = host === 'codex' ? 'Codex CLI' : 'Gemini CLI';
  describe(`${name} (${title} ${binary.version}, ${where})`, body);
}

export interface HostProject {
  root: string;
  projectDir: string;
  homeDir: string;
  /** What `policy init --host` printed. */
  initOutput: string;
  exists(rel: string): boolean;
  /** Runs the built CLI in the project, as this user (`policy init --check --host ...`). */
  policy(...args: string[]): { code: number; stdout: string; stderr: string };
}

export interface HostCaseOptions {
  host: HostName;
  /** `.claude/policies.yaml`. */
  policy: string;
  files?: Record<string, string>;
  /** The user trusts the project (Codex) or folder (Gemini), as the host asks them to. Default true. */
  trust?: boolean;
  /** Codex: agent roles in the user's config (`[agents.<name>] description`), for spawn_agent's agent_type. */
  codexAgents?: string[];
  scenario: Scenario | ((projectDir: string) => Scenario);
  prompt?: string;
  args?: string[];
  /** Called after init and the user's steps, before the session. */
  beforeSession?: (project: HostProject) => void;
}

export interface HostCaseRun {
  project: HostProject;
  session: HostSessionOutcome;
}

function hostEnv(host: HostName, homeDir: string): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: homeDir,
    LANG: 'C.UTF-8',
    TMPDIR: os.tmpdir(),
    NO_COLOR: '1',
    ...(host === 'codex' ? { CODEX_HOME: path.join(homeDir, '.codex') } : {}),
  };
}

/**
 * Makes the project, runs `policy init --host HOST` in it and the user's own steps.
 * @example const p = makeHostProject({ host: 'codex', policy, scenario }); p.exists('.codex/config.toml') // true
 */
export function makeHostProject(options: Omit<HostCaseOptions, 'scenario'>): HostProject {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'hp-host-')));
  const projectDir = path.join(root, 'project');
  const homeDir = path.join(root, 'home');
  for (const dir of [path.join(projectDir, '.claude'), homeDir]) fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(projectDir, '.claude', 'policies.yaml'), options.policy);
  for (const [rel, text] of Object.entries(options.files ?? {})) {
    fs.mkdirSync(path.dirname(path.join(projectDir, rel)), { recursive: true });
    fs.writeFileSync(path.join(projectDir, rel), text);
  }
  linkHookpolicy(projectDir);
  const cliEnv = { ...process.env, ...hostEnv(options.host, homeDir), CLAUDE_PROJECT_DIR: projectDir, HOOKPOLICY_CACHE_DIR: path.join(root, 'cache') };
  const policy = (...args: string[]) => {
    try {
      const stdout = execFileSync(process.execPath, [path.join(projectDir, 'node_modules', '.bin', 'policy'), ...args], { cwd: projectDir, encoding: 'utf8', env: cliEnv, stdio: ['ignore', 'pipe', 'pipe'] });
      return { code: 0, stdout, stderr: '' };
    } catch (e) {
      const err = e as { status: number; stdout: string; stderr: string };
      return { code: err.status, stdout: err.stdout, stderr: err.stderr };
    }
  };
  const init = policy('init', '--host', options.host);
  if (init.code !== 0) throw new Error(`policy init --host ${options.host} failed: ${init.stderr}`);
  if (options.host === 'codex') {
    const userConfig = path.join(homeDir, '.codex', 'config.toml');
    const agents = (options.codexAgents ?? []).map((a) => `\n[agents.${a}]\ndescription = "The ${a} role."\n`).join('');
    const trust = options.trust === false ? '' : `\n[projects.${JSON.stringify(projectDir)}]\ntrust_level = "trusted"\n`;
    fs.appendFileSync(userConfig, `${agents}${trust}`);
  } else {
    const dir = path.join(homeDir, '.gemini');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'settings.json'), JSON.stringify({ security: { auth: { selectedType: 'gemini-api-key' } }, general: { disableAutoUpdate: true }, privacy: { usageStatisticsEnabled: false } }));
    if (options.trust !== false) fs.writeFileSync(path.join(dir, 'trustedFolders.json'), JSON.stringify({ [projectDir]: 'TRUST_FOLDER' }));
  }
  return { root, projectDir, homeDir, initOutput: init.stdout, exists: (rel) => fs.existsSync(path.join(projectDir, rel)), policy };
}

/**
 * Makes the project and runs one headless session of the host in it.
 * @example const { session } = runHostCase({ host: 'codex', policy, scenario: { main: [say('ok')] } });
 */
export function runHostCase(options: HostCaseOptions): HostCaseRun {
  const project = makeHostProject(options);
  options.beforeSession?.(project);
  const binary = hostBinary(options.host);
  if (!binary.argv || binary.unavailable) throw new Error(binary.unavailable ?? 'no binary');
  const iso = isolation();
  const spec: HostSessionSpec = {
    host: options.host,
    argv: binary.argv,
    projectDir: project.projectDir,
    prompt: options.prompt ?? 'Do the scripted task.',
    scenario: typeof options.scenario === 'function' ? options.scenario(project.projectDir) : options.scenario,
    args: options.args ?? [],
    env: hostEnv(options.host, project.homeDir),
    timeoutMs: 120_000,
    loopbackUp: iso.kind === 'netns',
  };
  const session = runSessionEntry<HostSessionOutcome>(path.join(__dirname, 'run-host-session.ts'), spec, spec.timeoutMs);
  if (session.timedOut) throw new Error(`${options.host} did not finish within its deadline; stderr:\n${session.stderr}`);
  return { project, session };
}
