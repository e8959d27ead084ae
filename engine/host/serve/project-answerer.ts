/**
 * One project's answers over HTTP: the project's compiled policy held in memory
 * (createLivePolicy: checked against its sources at every request, so never stale) and
 * each event run through the runner's own runHook with that policy, the answer being what
 * `policy hook` would print. Its memory index stays open between events (index-pool.ts), and
 * so does its decision log (log-chain/appender.ts: no open, lock wait or read of the log's
 * end per record while nobody else appends).
 */
import * as path from 'path';
import type { CompiledPolicy, Decision, Diagnostic, HookResponse } from '../../types';
import type { PolicyCompiler } from '../cache';
import { discoverPolicyFiles } from '../discover';
import { createLivePolicy, type LivePolicy } from '../live-policy';
import { createDecisionAppender, type DecisionAppender } from '../log-chain';
import { createMemoryIndexPool, type MemoryIndexPool } from '../memory';

/** What the daemon hands the runner (a subset of cli/hook.ts HookInput). */
export interface RunnerInput {
  argv: string[];
  stdin: string;
  env: Record<string, string | undefined>;
  cwd: string;
  compiler: () => PolicyCompiler;
  cacheDirs?: string[];
  policy?: CompiledPolicy;
  memoryPool?: MemoryIndexPool;
  /** The project's decision log, kept open (used only when it is the policy's log.file). */
  decisionAppender?: DecisionAppender;
  /** Warnings of records written after the answer (queued behind another process's lock). */
  onLateProblem?: (problem: Diagnostic) => void;
}

/** The runner's entry (cli/hook.ts runHook), passed in so that engine/ does not import cli/. */
export type RunHook = (input: RunnerInput) => Promise<{ response: HookResponse; decision: Decision | null }>;

export interface ProjectAnswererOptions {
  /** Absolute POSIX project root. */
  projectRoot: string;
  /** --config files (relative to the project root); [] = discovery. */
  configs: string[];
  env: Readonly<Record<string, string | undefined>>;
  onError: 'open' | 'closed' | null;
  compiler: () => PolicyCompiler;
  runHook: RunHook;
  cacheDirs?: string[];
  log?: (line: string) => void;
  watch?: boolean;
}

/** What an HTTP hook gets back: always 2xx (an HTTP hook cannot block by status). */
export interface HttpAnswer {
  status: number;
  body: string;
}

export interface ProjectAnswerer {
  /** The answer to one event; `env` replaces the answerer's environment for it (a session's own). */
  answer(body: string, env?: Readonly<Record<string, string | undefined>>): Promise<HttpAnswer>;
  /** The policy the last answer was given with, or as it builds now before any (null: none builds). */
  policy(): CompiledPolicy | null;
  close(): void;
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
 * @example const a = createProjectAnswerer({ projectRoot: '/p', configs: [], env: process.env, onError: null, compiler, runHook });
 *   await a.answer(JSON.stringify(event)) // { status: 200, body: '{"hookSpecificOutput":...}' }
 */
export function createProjectAnswerer(options: ProjectAnswererOptions): ProjectAnswerer {
  const log = options.log ?? (() => undefined);
  const withRoot = (env: Readonly<Record<string, string | undefined>>) => ({ ...env, CLAUDE_PROJECT_DIR: options.projectRoot });
  const env = withRoot(options.env);
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
  // The project's memory index stays open between events (a recall no longer opens and closes SQLite each time).
  const memoryPool = createMemoryIndexPool();
  let last: { policy: CompiledPolicy | null } | null = null;
  let appender: DecisionAppender | null = null;
  /** The appender of the policy's log.file, made again when that setting names another file. */
  const appenderFor = (policy: CompiledPolicy | null): DecisionAppender | undefined => {
    const file = policy?.settings.log.file;
    if (!file) return undefined;
    if (appender?.file !== path.resolve(options.projectRoot, file)) {
      void appender?.close();
      appender = createDecisionAppender(file, options.projectRoot, { onProblem: (p) => log(`decision log: ${p.message}`) });
    }
    return appender;
  };

  return {
    async answer(body, sessionEnv) {
      const files = roots();
      const policy = files.length > 0 ? live.get().result.policy : null;
      last = { policy };
      const input: RunnerInput = {
        argv, stdin: body, env: sessionEnv ? withRoot(sessionEnv) : env, cwd: options.projectRoot, compiler: options.compiler, cacheDirs: options.cacheDirs, memoryPool,
        decisionAppender: appenderFor(policy), onLateProblem: (p) => log(`decision log: ${p.message}`),
      };
      // No policy (none found, or it does not build): the runner's own path renders the failure.
      const result = await options.runHook(policy ? { ...input, policy } : { ...input, argv: [...argv, ...files.flatMap((f) => ['--config', f])] });
      if (result.response.stderr !== '') log(result.response.stderr.trimEnd());
      return httpAnswer(result.response, result.decision?.event ?? eventNameOf(body));
    },
    policy: () => (last ?? { policy: roots().length > 0 ? live.get().result.policy : null }).policy,
    close: () => {
      void appender?.close();
      live.close();
      memoryPool.close();
    },
  };
}

/**
 * The event name of a request body, or null when it names none.
 * @example eventNameOf('{"hook_event_name":"Stop"}') // 'Stop'
 */
export function eventNameOf(body: string): string | null {
  try {
    const name = (JSON.parse(body) as { hook_event_name?: unknown }).hook_event_name;
    return typeof name === 'string' ? name : null;
  } catch {
    return null;
  }
}
