/**
 * The suite's frame: `describeRealClient` runs its cases only where the pinned binary
 * runs, and says so loudly when it does not; `runCase` makes a project, runs one
 * session and checks every hook payload of it against the engine's table of fields.
 */
import { claudeBinary, isolation, runClient, type RunClientOptions } from './client';
import { makeClientProject, type ClientProject, type ClientProjectOptions } from './project';
import { readPayloads, unknownFields, type Payload } from './payloads';
import type { SessionOutcome } from './run-session';

/** Per-session test timeout: a session takes 1-3 s; the client is killed at 120 s. */
export const SESSION_TIMEOUT_MS = 180_000;

/**
 * `describe` when the client binary runs here, else `describe.skip` with the reason
 * printed (never a silent skip).
 */
export function describeRealClient(name: string, body: () => void): void {
  const binary = claudeBinary();
  if (binary.unavailable) {
    process.stderr.write(`\nreal-client suite SKIPPED (${name}): ${binary.unavailable}\n\n`);
    describe.skip(`${name} (real client unavailable: ${binary.unavailable})`, body);
    return;
  }
  const iso = isolation();
  const where = iso.kind === 'netns' ? 'network namespace, loopback only' : `no network namespace: ${iso.reason}`;
  describe(`${name} (Claude Code ${binary.version}, ${where})`, body);
}

export interface CaseRun {
  project: ClientProject;
  session: SessionOutcome;
  payloads: Payload[];
}

export type CaseOptions = ClientProjectOptions & Omit<RunClientOptions, 'projectDir' | 'homeDir' | 'scenario' | 'prompt'> & {
  prompt?: string;
  scenario: RunClientOptions['scenario'] | ((projectDir: string) => RunClientOptions['scenario']);
  /** Called after init, before the session (to break the policy, say). */
  beforeSession?: (project: ClientProject) => void;
};

/**
 * Makes the project, runs the session, and fails when the client sent a payload field
 * that the engine's event table does not know (contract drift).
 * @example const { session } = runCase({ policy, scenario: { main: [say('ok')] } });
 */
export function runCase(options: CaseOptions): CaseRun {
  const project = makeClientProject(options);
  options.beforeSession?.(project);
  const scenario = typeof options.scenario === 'function' ? options.scenario(project.projectDir) : options.scenario;
  const session = runClient({ ...options, projectDir: project.projectDir, homeDir: project.homeDir, prompt: options.prompt ?? 'Do the scripted task.', scenario });
  if (session.timedOut) throw new Error(`the client did not finish within its deadline; stderr:\n${session.stderr}`);
  const payloads = readPayloads(project.payloadDir);
  expect(unknownFields(payloads)).toEqual([]);
  return { project, session, payloads };
}
