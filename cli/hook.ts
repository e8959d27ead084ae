/**
 * `policy hook`: one Claude Code hook event in, one answer out. Reads the event, finds
 * the policy, takes the compiled artefact from the cache (compiling it only when stale),
 * evaluates, renders, and records the decision. Every failure becomes a visible answer
 * per on_error; nothing here throws past runHook.
 */
import { diagnostic, formatDiagnostic } from '../engine/diagnostics';
import { evaluateNow } from '../engine/evaluate';
import { protocolFor } from '../engine/protocol';
import { renderFailure, renderResponse } from '../engine/render';
import type { CompiledPolicy, Decision, Diagnostic, EvaluationContext, Facts, HookEvent, HookResponse } from '../engine/types';
import { recordDecision } from '../engine/host/decision-log';
import type { DecisionAppender } from '../engine/host/log-chain/appender';
import { choosePolicyFiles, settlePolicyChoice, type PolicyChoice } from '../engine/host/discover';
import { createFileFacts } from '../engine/host/file-facts';
import { lastArtefact, loadPolicyForEvent, type PolicyCompiler } from '../engine/host/cache';
import { guardsKey, selfProtectionFacts } from '../engine/host/self-protection-facts';
import { noteUnjudged, uncheckedProblems } from '../engine/host/fail-open/unjudged';
import { memoryReadProblem, projectMemoryFacts, projectStore, recordMemory, type MemoryIndexPool } from '../engine/host/memory';
import { resolveProjectRoot } from '../engine/host/project-root';
import { sandboxLauncher } from '../engine/host/sandbox/launcher';
import { insideSummarizer, startSummarizer, summaryJob } from '../engine/host/summarizer/start';
import { HOOK_USAGE, parseHookArgs, type HookArgs } from './hook-args';
import type { AdaptedHostName, HostAdapter, HostEventIn } from '../engine/hosts/types';
import type * as HostIdentity from '../engine/hosts/identity';
import type * as HostMerge from '../engine/hosts/merge';

export interface HookInput {
  argv: string[];
  stdin: string;
  env: Record<string, string | undefined>;
  cwd: string;
  /** Loads the compiler bundle; defaults to dist/compile.cjs beside this bundle. */
  compiler?: () => PolicyCompiler;
  /** The webhook sender script; defaults to dist/webhook-sender.cjs. */
  webhookSender?: string;
  now?: () => number;
  /** Cache folders; defaults to $HOOKPOLICY_CACHE_DIR and the others of cacheDirectories. */
  cacheDirs?: string[];
  /**
   * Trace every rule considered in the returned decision (`policy test` counts coverage from
   * it). Off by default: the runner and the policy server read nothing of it.
   */
  trace?: boolean;
  /** The evaluate stage; replaceable in tests (say, one that never answers). */
  evaluator?: (...args: Parameters<typeof evaluateNow>) => Decision | Promise<Decision>;
  /**
   * An already compiled policy: skips discovery and the cache (`policy test` compiles a
   * suite's policy once; `policy serve` keeps it in memory). --config is then ignored.
   */
  policy?: CompiledPolicy;
  /**
   * What the evaluator may ask of the world; defaults to the file system under the project
   * root, with the project's memory store as facts.memory (given facts are used as they are).
   */
  facts?: Facts;
  /** false: no memory store at all, neither read nor appended to (`policy test` runs). */
  memoryStore?: false;
  /** The memory process's script (prose summaries, embeddings); defaults to dist/summarizer.cjs. */
  summarizer?: string;
  /** monotonicMs() when the event arrived: the log's duration_ms counts from it (default: when runHook was called). */
  startedAt?: number;
  /** Memory indexes kept open between events (`policy serve`); without it an event opens and closes its own. */
  memoryPool?: MemoryIndexPool;
  /**
   * The decision log kept open between events (`policy serve`: createDecisionAppender);
   * used when it is the policy's `log.file`, else the log is opened for the one record.
   */
  decisionAppender?: DecisionAppender;
  /** Warnings that come after the answer (a record the appender queued behind another process's lock). */
  onLateProblem?: (problem: Diagnostic) => void;
  /**
   * How a Bash command a rule with `unparsable: sandbox` asks about runs in the sandbox
   * instead: by default the host's (engine/host/sandbox/launcher.ts, dist/sandbox.cjs where
   * this machine can sandbox); false: never (the rules ask); or a launcher of the caller's
   * (`policy test` shows a fixed command line).
   */
  sandbox?: false | NonNullable<EvaluationContext['sandbox']>;
  /** The sandbox's script; defaults to dist/sandbox.cjs beside this bundle. */
  sandboxScript?: string;
  /** The policy's root files when `policy` is given (the sandbox judges by the same files); default: discovered again. */
  roots?: string[];
}

export interface HookResult {
  response: HookResponse;
  decision: Decision | null;
  /** Problems that went to stderr only (cache-error, log-error). */
  warnings: Diagnostic[];
  timedOut: boolean;
  /** The event a decision was reached for (absent when there is none): what the run's kind reads (run-kind.ts). */
  event?: HookEvent;
  /**
   * Set when the answer was given without judging the event (a failure answered per
   * on_error): what failed and which on_error applied. Counted by the fail-open counter.
   */
  unjudged?: { eventName: string | null; onError: OnError; problems: Diagnostic[] };
}

/** What runParsed learnt before it failed: the fail-open counter's line and log record need it. */
interface Seen {
  event: HookEvent | null;
  /** The host adapter under --host (absent: Claude Code). */
  host?: HostAdapter;
  projectRoot: string;
  roots: string[];
  policy: CompiledPolicy | null;
}

type OnError = 'open' | 'closed';

/**
 * Runs one hook event end to end and returns what to write; never throws.
 * @example await runHook({ argv: [], stdin: '{"hook_event_name":"Stop"}', env: process.env, cwd: '/p' })
 *   // { response: { stdout: '', stderr: '', exitCode: 0 }, ... }
 */
export async function runHook(input: HookInput): Promise<HookResult> {
  const args = parseHookArgs(input.argv);
  const seen: Seen = { event: null, projectRoot: input.cwd, roots: [], policy: null };
  let result: HookResult;
  try {
    result = await runParsed(input.startedAt === undefined ? { ...input, startedAt: monotonicMs() } : input, args, seen);
  } catch (e) {
    const problem = diagnostic('internal-error', `unexpected error in policy hook: ${(e as Error)?.message ?? String(e)}`);
    result = failed(seen.event?.hook_event_name ?? null, [problem], args.onError ?? 'open', [], seen.host);
  }
  // Only the failure path pays; `policy test` (no memory store) counts nothing.
  return result.unjudged && input.memoryStore !== false ? counted(input, seen, result) : result;
}

/** The unjudged answer counted (fail-open counter, decision log); a problem doing so only warns. */
function counted(input: HookInput, seen: Seen, result: HookResult): HookResult {
  const { eventName, onError, problems } = result.unjudged!;
  const lastPolicy = (): CompiledPolicy | null => seen.policy ?? (seen.roots.length > 0 ? lastArtefact(seen.roots, input.env)?.policy ?? null : null);
  const warnings = noteUnjudged({
    env: input.env, dirs: input.cacheDirs, projectRoot: seen.projectRoot, event: seen.event, eventName,
    policy: lastPolicy, problems, onError, now: (input.now ?? Date.now)(), webhookSender: input.webhookSender,
  });
  if (warnings.length === 0) return result;
  return { ...result, response: withWarnings(result.response, warnings), warnings: [...result.warnings, ...warnings] };
}

async function runParsed(input: HookInput, args: HookArgs, seen: Seen): Promise<HookResult> {
  const host = args.host ? loadHostAdapter(args.host) : undefined;
  seen.host = host;
  const read = host ? readHostEvent(host, input.stdin) : null;
  // A host event no rule can name (Gemini's BeforeModel): nothing to judge, nothing to say.
  if (read && read.events.length === 0 && args.problems.length === 0) return { response: { stdout: '', stderr: '', exitCode: 0 }, decision: null, warnings: [], timedOut: false };
  const event = host ? read?.events[0] ?? null : parseEvent(input.stdin);
  const projectRoot = resolveProjectRoot(input.env, event, input.cwd);
  seen.event = event;
  seen.projectRoot = projectRoot;
  if (input.policy) {
    seen.policy = input.policy;
    seen.roots = input.roots ?? [];
    return runWithPolicy(input, args, event, projectRoot, input.policy, read, host);
  }
  const choice = choosePolicyFiles({ configs: args.configs, env: input.env, projectRoot });
  // The team's policy, until it says $POLICY_CONFIG may replace it (settlePolicyChoice below).
  const roots = choice.roots;
  seen.roots = roots;
  const fallbackOnError = (): OnError => args.onError ?? (roots.length > 0 ? lastArtefact(roots, input.env)?.policy.settings.onError : undefined) ?? 'open';

  if (args.problems.length > 0) return usageFailure(input, event, args, fallbackOnError, host);
  if (!event) {
    const problem = diagnostic('event-malformed', host ? `stdin is not a ${host.title} hook event` : 'stdin is not a JSON object with a string hook_event_name');
    return failed(null, [problem], fallbackOnError(), [], host);
  }
  if (roots.length === 0) {
    const problem = diagnostic('no-policy', `no policy file: looked for .claude/policies.yaml and policies.yaml in ${projectRoot}`,
      undefined, 'pass --config FILE or set POLICY_CONFIG');
    return failed(event.hook_event_name, [problem], args.onError ?? 'open', [], host);
  }

  // An artefact compiled for other self-protection facts (elsewhere, or by another installation) is not used.
  const guards = input.compiler ? input.compiler().guardsFor?.(input.env) : guardsKey(selfProtectionFacts(input.env));
  const loadFor = (files: string[], part: HookEvent) => loadPolicyForEvent({ roots: files, env: input.env, compiler: input.compiler ?? requireCompiler, dirs: input.cacheDirs, guards },
    // A host that names no agent: the view of every agent's rules (identity.ts sets those aside, visibly).
    part.hook_event_name, typeof part.tool_name === 'string' ? part.tool_name : null, host && !host.identity ? undefined : part);
  const load = (files: string[]) => loadFor(files, event);
  // $POLICY_CONFIG replaces the team's policy only where its top file allows it; else it is ignored, and said so.
  const settled = settlePolicyChoice(choice, projectRoot, load, (team) => team.policy?.settings.policyConfig === 'allow');
  seen.roots = settled.roots;
  const loaded = settled.loaded;
  const warnings = settled.notice ? [settled.notice, ...loaded.warnings] : loaded.warnings;
  if (!loaded.policy) {
    const errors = loaded.diagnostics.filter((d) => d.severity === 'error');
    const onError = args.onError ?? loaded.declaredOnError ?? loaded.lastOnError ?? 'open';
    return failed(event.hook_event_name, errors.length > 0 ? errors : loaded.diagnostics, onError, warnings, host);
  }
  seen.policy = loaded.policy;
  const onError = args.onError ?? loaded.policy.settings.onError;
  if (!host || !read) return decide({ ...input, roots: settled.roots }, event, projectRoot, loaded.policy, onError, warnings);
  const policies = read.events.map((part, i) => (i === 0 ? loaded.policy : loadFor(settled.roots, part).policy) ?? loaded.policy) as CompiledPolicy[];
  return decideForHost(input, read, projectRoot, policies, onError, warnings, host);
}

/**
 * The policy the runner judges `event` by, from the files choosePolicyFiles chose: the
 * compiled view for the event from the cache (or built), with $POLICY_CONFIG settled.
 * Also what the sandbox (cli/sandbox-main.ts) judges a sandboxed command's writes by.
 */
export function loadChosenPolicy(input: Pick<HookInput, 'env' | 'compiler' | 'cacheDirs'>, choice: PolicyChoice, projectRoot: string, event: HookEvent) {
  const tool = typeof event.tool_name === 'string' ? event.tool_name : null;
  // An artefact compiled for other self-protection facts (elsewhere, or by another installation) is not used.
  const guards = input.compiler ? input.compiler().guardsFor?.(input.env) : guardsKey(selfProtectionFacts(input.env));
  const load = (files: string[]) => loadPolicyForEvent({ roots: files, env: input.env, compiler: input.compiler ?? requireCompiler, dirs: input.cacheDirs, guards }, event.hook_event_name, tool, event);
  // $POLICY_CONFIG replaces the team's policy only where its top file allows it; else it is ignored, and said so.
  const settled = settlePolicyChoice(choice, projectRoot, load, (team) => team.policy?.settings.policyConfig === 'allow');
  const warnings = settled.notice ? [settled.notice, ...settled.loaded.warnings] : settled.loaded.warnings;
  return { settled, warnings };
}

/** runParsed for an injected policy: no discovery, no cache; its on_error applies. */
async function runWithPolicy(
  input: HookInput, args: HookArgs, event: HookEvent | null, projectRoot: string, policy: CompiledPolicy, read: HostEventIn | null, host?: HostAdapter,
): Promise<HookResult> {
  const onError = args.onError ?? policy.settings.onError;
  if (args.problems.length > 0) return usageFailure(input, event, args, () => onError, host);
  if (!event) return failed(null, [diagnostic('event-malformed', host ? `stdin is not a ${host.title} hook event` : 'stdin is not a JSON object with a string hook_event_name')], onError, [], host);
  if (!host || !read) return decide(input, event, projectRoot, policy, onError, []);
  return decideForHost(input, read, projectRoot, read.events.map(() => policy), onError, [], host);
}

/**
 * A host's event, judged as the events it is read as (one policy view each), answered
 * once in the host's shape. Where the host names no acting agent, the rules that name
 * agents are set aside visibly (engine/hosts/identity.ts).
 */
async function decideForHost(
  given: HookInput, read: HostEventIn, projectRoot: string, policies: CompiledPolicy[], onError: OnError, warnings: Diagnostic[], host: HostAdapter,
): Promise<HookResult> {
  // Another host runs no updatedInput (Codex takes only deny): a sandbox there would let the command through unsandboxed, so the rules ask.
  const input: HookInput = { ...given, sandbox: false };
  const identity = host.identity ? null : (require('../engine/hosts/identity') as typeof HostIdentity);
  const judged = policies.map((p) => (identity ? identity.withoutAgentRules(p, host.title) : p));
  if (read.events.length === 1) return decide(input, read.events[0], projectRoot, judged[0], onError, warnings, host);
  const decisions: Decision[] = [];
  for (let i = 0; i < read.events.length; i++) {
    const evaluated = await evaluateEvent(input, read.events[i], projectRoot, judged[i], null);
    if (evaluated === 'timeout') return timedOut(read.events[i], judged[i], onError, warnings, host);
    decisions.push(evaluated);
  }
  const merged = (require('../engine/hosts/merge') as typeof HostMerge).mergeDecisions(decisions);
  const store = input.memoryStore === false ? null : projectStore(projectRoot, judged[0].settings);
  return answer(input, read.events[0], projectRoot, judged[0], onError, warnings, merged, store, null, host);
}

/** The host adapter --host names, from its own chunk beside the bundle (dist/host-NAME.cjs): Claude Code's events never load one. */
function loadHostAdapter(name: AdaptedHostName): HostAdapter {
  /* eslint-disable @typescript-eslint/no-require-imports */
  switch (name) {
    case 'codex': return (require('../engine/hosts/codex/adapter') as { adapter: HostAdapter }).adapter;
    case 'gemini': return (require('../engine/hosts/gemini/adapter') as { adapter: HostAdapter }).adapter;
  }
  /* eslint-enable @typescript-eslint/no-require-imports */
}

/** stdin as the host's event, or null when it is not one (not a JSON object, or no event of this host). */
function readHostEvent(host: HostAdapter, stdin: string): HostEventIn | null {
  let value: unknown;
  try {
    value = JSON.parse(stdin.charCodeAt(0) === 0xfeff ? stdin.slice(1) : stdin);
  } catch {
    return null;
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return null;
  return host.read(value as Record<string, unknown>);
}

async function decide(
  input: HookInput, event: HookEvent, projectRoot: string, policy: CompiledPolicy, onError: OnError, warnings: Diagnostic[], host?: HostAdapter,
): Promise<HookResult> {
  const now = input.now ?? Date.now;
  const store = input.memoryStore === false ? null : projectStore(projectRoot, policy.settings);
  // Opened only when a rule's let asks it something: a recording event loads no SQLite.
  const memory = store && !input.facts ? projectMemoryFacts(store, now, input.env, input.memoryPool) : null;
  const evaluated = evaluateEvent(input, event, projectRoot, policy, memory);
  const decision = evaluated instanceof Promise ? await evaluated : evaluated;
  if (decision === 'timeout') {
    memory?.close();
    return timedOut(event, policy, onError, warnings, host);
  }
  return answer(input, event, projectRoot, policy, onError, warnings, decision, store, memory, host);
}

/** The answer when evaluating did not end within deadline_ms: on_error decides. */
function timedOut(event: HookEvent, policy: CompiledPolicy, onError: OnError, warnings: Diagnostic[], host?: HostAdapter): HookResult {
  const problem = diagnostic('deadline-exceeded', `evaluating the event took longer than deadline_ms (${policy.settings.deadlineMs} ms)`);
  return { ...failed(event.hook_event_name, [problem], onError, warnings, host), timedOut: true };
}

/** One event evaluated under the policy's deadline: its decision, or 'timeout'; at once when no rule had to wait. */
function evaluateEvent(
  input: HookInput, event: HookEvent, projectRoot: string, policy: CompiledPolicy, memory: ReturnType<typeof projectMemoryFacts> | null,
): Decision | Promise<Decision | 'timeout'> {
  const now = input.now ?? Date.now;
  const facts = input.facts ?? (memory ? { ...createFileFacts(projectRoot), memory } : createFileFacts(projectRoot));
  const started = now();
  // inputBytes: a large event is evaluated under a wall-clock watchdog (evaluate.ts).
  const sandbox = sandboxFor(input, projectRoot, input.roots ?? []);
  const evaluation = (input.evaluator ?? evaluateNow)(policy, event, { projectRoot, env: input.env, facts, now, inputBytes: input.stdin.length, trace: input.trace === true, sandbox });
  // An evaluation that answered at once needs no deadline race; one that waits gets what
  // is left of deadline_ms after its synchronous part, not deadline_ms again.
  const deadline = policy.settings.deadlineMs;
  const left = deadline > 0 ? Math.max(1, deadline - (now() - started)) : 0;
  return evaluation instanceof Promise ? withDeadline(evaluation, left) : evaluation;
}

/** The decision rendered (in the host's shape under --host), then recorded: memory, decision log, fail-open counter. */
function answer(
  input: HookInput, event: HookEvent, projectRoot: string, policy: CompiledPolicy, onError: OnError, warnings: Diagnostic[],
  decision: Decision, store: ReturnType<typeof projectStore> | null, memory: ReturnType<typeof projectMemoryFacts> | null, host?: HostAdapter,
): HookResult {
  const now = input.now ?? Date.now;
  const response = renderResponse(decision, host ? { onError, host } : { onError });
  // The answer is decided: the records are appended (one write), a failure only warns.
  const readProblem = memory && store ? memoryReadProblem(memory.failure(), store.dir) : null;
  // Inside the memory process (or a CLI it started) nothing is recorded: the loop guard.
  const recording = store && !insideSummarizer(input.env) ? store : null;
  const recordedAt = now();
  const appendProblems = recording ? recordMemory({ decision, event, store: recording, now: recordedAt, env: input.env }) : [];
  // A summary appended: the prose summary and the embeddings are the memory process's, detached.
  const job = recording && !appendProblems.some((p) => p.code === 'memory-error') ? summaryJob(decision, event, recording, policy.settings, recordedAt) : null;
  const startProblem = job ? startSummarizer(job, { script: input.summarizer, env: input.env }) : null;
  const memoryProblems = [...(readProblem ? [readProblem] : []), ...appendProblems, ...(startProblem ? [startProblem] : [])];
  memory?.close();
  const logged = memoryProblems.length > 0 ? { ...decision, errors: [...decision.errors, ...memoryProblems] } : decision;
  const durationMs = input.startedAt === undefined ? undefined : monotonicMs() - input.startedAt;
  // A runtime error or a broken rule that could have judged the event: on_error answered in part.
  const unchecked = input.memoryStore !== false && (decision.errors.length > 0 || decision.broken) ? uncheckedProblems(decision) : [];
  const failOpen = unchecked.length > 0 && onError === 'open';
  const logProblems = recordDecision({
    decision: logged, event, policy, projectRoot, now: new Date(now()), webhookSender: input.webhookSender, env: input.env, durationMs, failOpen,
    appender: input.decisionAppender, onLateProblem: input.onLateProblem,
  });
  const countWarnings = unchecked.length > 0 ? noteUnjudged({
    env: input.env, dirs: input.cacheDirs, projectRoot, event, eventName: event.hook_event_name, policy: () => null, problems: unchecked, onError, now: now(),
  }) : [];
  const all = [...warnings, ...memoryProblems, ...logProblems, ...countWarnings];
  return { response: withWarnings(response, all), decision, warnings: all, timedOut: false, event };
}

/**
 * The sandbox launcher for this event: the caller's, none, or the host's, looked for only
 * when a rule asks for the sandbox (the host's checks cost a few stats).
 */
function sandboxFor(input: HookInput, projectRoot: string, roots: string[]): EvaluationContext['sandbox'] {
  if (input.sandbox === false) return undefined;
  if (input.sandbox) return input.sandbox;
  let launcher: EvaluationContext['sandbox'] | null = null;
  return (command, event, rules) => {
    launcher ??= sandboxLauncher({ projectRoot, roots, env: input.env, script: input.sandboxScript, cacheDirs: input.cacheDirs }) ?? (() => null);
    return launcher(command, event, rules);
  };
}

/**
 * The event on stdin, or null when it is not a JSON object with a non-empty string
 * hook_event_name.
 * @example parseEvent('{"hook_event_name":"Stop"}') // { hook_event_name: 'Stop' }
 */
export function parseEvent(stdin: string): HookEvent | null {
  let value: unknown;
  try {
    value = JSON.parse(stdin.charCodeAt(0) === 0xfeff ? stdin.slice(1) : stdin);
  } catch {
    return null;
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return null;
  const name = (value as Record<string, unknown>).hook_event_name;
  return typeof name === 'string' && name !== '' ? (value as HookEvent) : null;
}

/**
 * A usage error in the runner's own command line (settings.json): exit 2 with the usage
 * on stderr where exit 2 cannot stop anything (an event that cannot be blocked, or no
 * event at all: a person at a terminal); elsewhere the policy's on_error, as any failure.
 */
function usageFailure(input: HookInput, event: HookEvent | null, args: HookArgs, onError: () => OnError, host?: HostAdapter): HookResult {
  const message = `policy hook: ${args.problems.join('; ')} (usage: ${HOOK_USAGE})`;
  // Exit 2 blocks a tool call, a prompt, a stop... on events that can be stopped: a typo in settings.json must not stop every call.
  const harmless = event ? (host ? host.protocol(event.hook_event_name) : protocolFor(event.hook_event_name))?.block === null : input.stdin.trim() === '';
  if (harmless) return { response: { stdout: '', stderr: `${message}\n`, exitCode: 2 }, decision: null, warnings: [], timedOut: false };
  return failed(event?.hook_event_name ?? null, [diagnostic('hook-usage', message)], onError(), [], host);
}

function failed(eventName: string | null, problems: Diagnostic[], onError: OnError, warnings: Diagnostic[], host?: HostAdapter): HookResult {
  const response = withWarnings(renderFailure(eventName, problems, onError, host), warnings);
  return { response, decision: null, warnings, timedOut: false, unjudged: { eventName, onError, problems } };
}

/** Appends stderr-only warnings after whatever the renderer wrote there. */
function withWarnings(response: HookResponse, warnings: Diagnostic[]): HookResponse {
  if (warnings.length === 0) return response;
  const lines = warnings.map((w) => `hookpolicy: ${formatDiagnostic(w)}\n`).join('');
  const stderr = response.stderr === '' || response.stderr.endsWith('\n') ? response.stderr : `${response.stderr}\n`;
  return { ...response, stderr: stderr + lines };
}

/**
 * Resolves with the value, or 'timeout' when `ms` pass first (ms <= 0: no deadline).
 * Most evaluations touch no expression and settle at once: those never arm a timer.
 */
async function withDeadline<T>(work: Promise<T>, ms: number): Promise<T | 'timeout'> {
  if (!(ms > 0)) return work;
  const pending = Symbol('pending');
  const early = await Promise.race([work, Promise.resolve(pending)]);
  if (early !== pending) return early as T;
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), ms);
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}

/**
 * The compiler, from dist/compile.cjs beside the bundle that runs: the slow path lives in
 * its own bundle, and only a cache miss pays for loading it.
 */
export function requireCompiler(): PolicyCompiler {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('./compile.cjs') as PolicyCompiler;
}

/**
 * A monotonic clock in milliseconds. Not `performance.now()`: the global `performance`
 * loads node:perf_hooks on first use, ~0.7 ms of a one-shot runner; process.hrtime is there.
 * @example monotonicMs() - started // 1.25
 */
export function monotonicMs(): number {
  const [seconds, nanoseconds] = process.hrtime();
  return seconds * 1e3 + nanoseconds / 1e6;
}
