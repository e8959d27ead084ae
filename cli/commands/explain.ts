/**
 * `policy explain EVENT.json`: evaluates one event the way `policy hook` does (same policy
 * discovery, same compiler, same renderer, the project's memory store or the records of
 * --memory) and shows why it got its answer and what it would record. Nothing is logged,
 * no record is stored and no cache is written.
 */
import * as fs from 'fs';
import * as path from 'path';
import { CommanderError, type Command } from 'commander';
import { diagnostic, formatDiagnostic, hasErrors } from '../../engine/diagnostics';
import { evaluate } from '../../engine/evaluate';
import { explainJson, explainText, type ExplainOtlp } from '../../engine/explain';
import { renderResponse } from '../../engine/render';
import { InMemoryMemory, memoryRecords, memorySeeds } from '../../engine/memory/in-memory';
import type { CompiledPolicy, Decision, Diagnostic, Facts, HookEvent } from '../../engine/types';
import { shouldRecord } from '../../engine/evaluate/log-categories';
import { otlpTarget } from '../../engine/host/otlp/enqueue';
import { compileGuarded } from '../../engine/host/compile-entry';
import { choosePolicyFiles, settlePolicyChoice } from '../../engine/host/discover';
import { createFileFacts } from '../../engine/host/file-facts';
import { projectMemoryFacts, projectStore } from '../../engine/host/memory';
import { parsePolicyText } from '../../engine/load';
import { resolveProjectRoot, toAbsolutePosix } from '../../engine/host/project-root';
import { parseEvent } from '../hook';
import { isBuiltInRule } from '../../engine/self-protection';
import { adapter as codexAdapter } from '../../engine/hosts/codex/adapter';
import { adapter as geminiAdapter } from '../../engine/hosts/gemini/adapter';
import { withoutAgentRules } from '../../engine/hosts/identity';
import { mergeDecisions } from '../../engine/hosts/merge';
import type { HostAdapter } from '../../engine/hosts/types';

interface ExplainOptions {
  config: string[];
  json?: boolean;
  projectDir?: string;
  memory?: string;
  /** --host codex|gemini: the event is that host's, read and answered as `policy hook --host` does. */
  host?: string;
}

export interface LoadedForCommand {
  policy: CompiledPolicy | null;
  roots: string[];
  diagnostics: Diagnostic[];
}

/**
 * The policy the runner would load for a project: --config files, else the team's policy
 * (.claude/policies.yaml or policies.yaml), $POLICY_CONFIG's files in its place where its top
 * file allows them (else a policy-config-ignored warning), else $POLICY_CONFIG's; compiled
 * fresh (no cache).
 */
export function loadPolicyForCommand(configs: string[], projectRoot: string, env: NodeJS.ProcessEnv): LoadedForCommand {
  const choice = choosePolicyFiles({ configs, env, projectRoot });
  if (choice.roots.length === 0) {
    const d = diagnostic('no-policy', `no policy file: looked for .claude/policies.yaml and policies.yaml in ${projectRoot}`, undefined, 'pass --config FILE');
    return { policy: null, roots: [], diagnostics: [d] };
  }
  const compile = (roots: string[]) => compileGuarded(roots, env, projectRoot);
  const { roots, loaded, notice } = settlePolicyChoice(choice, projectRoot, compile, (team) => team.policy?.settings.policyConfig === 'allow');
  return { policy: loaded.policy, roots, diagnostics: notice ? [notice, ...loaded.diagnostics] : loaded.diagnostics };
}

/** Writes diagnostics to stderr (file:line:col first) and stops with exit code 2 when any is an error. */
export function reportDiagnostics(diagnostics: Diagnostic[]): void {
  for (const d of diagnostics) process.stderr.write(`${formatDiagnostic(d)}\n`);
  if (hasErrors(diagnostics)) throw new CommanderError(2, 'policy.exit', '');
}

/** Commander usage errors (unknown option, missing argument) exit 2 like the other usage errors. */
export function usageErrorsExit2(err: CommanderError): never {
  throw err.exitCode === 0 ? err : new CommanderError(2, err.code, err.message);
}

/** Registers `policy explain EVENT.json [--config F]... [--json] [--project-dir D]`. */
export function register(program: Command): void {
  program
    .command('explain')
    .description('show how the policy answers one hook event: each rule considered, the decision and the exact runner output')
    .argument('<event>', 'a JSON file with one hook event, or - for stdin')
    .option('-c, --config <file>', 'policy file (repeatable; default: as the runner finds it)', collect, [])
    .option('--json', 'print one JSON object instead of the report')
    .option('--project-dir <dir>', 'project root (default: $CLAUDE_PROJECT_DIR, else the event\'s cwd, else the current folder)')
    .option('--memory <file>', 'a YAML or JSON list of records the memory store holds, instead of the project\'s store (as a test suite\'s memory:)')
    .option('--host <host>', 'the coding agent whose event it is: claude (default), codex or gemini; read and answered as policy hook --host does')
    .exitOverride(usageErrorsExit2)
    .action(async (eventFile: string, options: ExplainOptions) => {
      const host = hostOf(options.host);
      const hostEvents = host ? readHostEvents(eventFile, host) : null;
      if (hostEvents && hostEvents.events.length === 0) {
        process.stdout.write(`${host!.title}'s ${hostEvents.hostEvent} has no counterpart the rules name: the runner answers nothing.\n`);
        return;
      }
      const event = hostEvents ? hostEvents.events[0] : readEvent(eventFile);
      const projectRoot = options.projectDir
        ? toAbsolutePosix(options.projectDir, process.cwd())
        : resolveProjectRoot(process.env, event, process.cwd());
      const loaded = loadPolicyForCommand(options.config, projectRoot, process.env);
      reportDiagnostics(loaded.diagnostics);
      // A host that names no acting agent sets aside the rules that name agents, as the runner does.
      const policy = host && !host.identity ? withoutAgentRules(loaded.policy as CompiledPolicy, host.title) : loaded.policy as CompiledPolicy;
      const now = Date.now;
      const memory = options.memory !== undefined ? fileMemory(options.memory, event, now()) : storeMemory(projectRoot, policy, now);
      const facts: Facts = memory ? { ...createFileFacts(projectRoot), memory } : createFileFacts(projectRoot);
      const decisions: Decision[] = [];
      for (const part of hostEvents?.events ?? [event]) decisions.push(await evaluate(policy, part, { projectRoot, env: process.env, facts, now }));
      const decision = mergeDecisions(decisions);
      if (memory && 'close' in memory) memory.close();
      const response = renderResponse(decision, host ? { onError: policy.settings.onError, host } : { onError: policy.settings.onError });
      const input = { decision, response, ruleCount: policy.rules.filter((r) => !isBuiltInRule(r)).length, projectRoot, ...explainOtlp(policy, decision, process.env) };
      const readAs = hostEvents ? hostEvents.events.map((e) => [e.hook_event_name, e.tool_name, (e.tool_input as { file_path?: string } | undefined)?.file_path].filter((x) => typeof x === 'string').join(' ')) : null;
      if (options.json) {
        process.stdout.write(`${JSON.stringify({ ...(host ? { host: host.name, hostEvent: hostEvents!.hostEvent, readAs } : {}), ...explainJson(input) }, null, 2)}\n`);
      } else {
        if (host) process.stdout.write(`${host.title}'s ${hostEvents!.hostEvent}, read as: ${readAs!.join('; ')}\n\n`);
        process.stdout.write(explainText(input));
      }
    });
}

/** Where the runner, with this environment, would export the decision to OpenTelemetry (nothing when it would not). */
function explainOtlp(policy: CompiledPolicy, decision: Decision, env: NodeJS.ProcessEnv): { otlp?: ExplainOtlp } {
  const target = otlpTarget(policy.settings.log, env);
  if (!target || !shouldRecord(decision, policy, true)) return {};
  return { otlp: { logs: target.logs, traces: target.traces, from: policy.settings.log.otlp ? 'log.otlp' : 'environment' } };
}

/** The project's store, as the runner reads it (opened only when a let asks); null when the policy turns it off. */
function storeMemory(projectRoot: string, policy: CompiledPolicy, now: () => number): ReturnType<typeof projectMemoryFacts> | null {
  const store = projectStore(projectRoot, policy.settings);
  return store ? projectMemoryFacts(store, now) : null;
}

/** The records of a --memory file, in memory; records without a session belong to the event's. */
function fileMemory(file: string, event: HookEvent, nowMs: number): InMemoryMemory {
  let text = '';
  try {
    text = fs.readFileSync(path.resolve(file), 'utf8');
  } catch (e) {
    reportDiagnostics([diagnostic('test-file-not-found', `cannot read the memory file: ${(e as Error).message}`, { file })]);
  }
  const parsed = parsePolicyText(file, text);
  reportDiagnostics(parsed.diagnostics);
  const seeds = memorySeeds(parsed.doc);
  if (typeof seeds === 'string') {
    reportDiagnostics([diagnostic('schema-invalid', `--memory: ${seeds}`, { file })]);
    throw new CommanderError(2, 'policy.exit', '');
  }
  const session = typeof event.session_id === 'string' && event.session_id !== '' ? event.session_id : null;
  return new InMemoryMemory(memoryRecords(seeds, { session, nowMs }));
}

function hostOf(name: string | undefined): HostAdapter | null {
  if (name === undefined || name === 'claude') return null;
  if (name === 'codex') return codexAdapter;
  if (name === 'gemini') return geminiAdapter;
  process.stderr.write(`policy: --host must be claude, codex or gemini, not ${JSON.stringify(name)}\n`);
  throw new CommanderError(2, 'policy.exit', '');
}

/** A host's event from the file, as the events the rules read. */
function readHostEvents(file: string, host: HostAdapter): { hostEvent: string; events: HookEvent[] } {
  let value: unknown = null;
  try {
    value = JSON.parse(file === '-' ? fs.readFileSync(0, 'utf8') : fs.readFileSync(path.resolve(file), 'utf8'));
  } catch (e) {
    reportDiagnostics([diagnostic('event-malformed', `cannot read the event file: ${(e as Error).message}`, { file })]);
  }
  const read = value !== null && typeof value === 'object' && !Array.isArray(value) ? host.read(value as Record<string, unknown>) : null;
  if (!read) reportDiagnostics([diagnostic('event-malformed', `the event is not a ${host.title} hook event`, { file })]);
  return read as { hostEvent: string; events: HookEvent[] };
}

function readEvent(file: string): HookEvent {
  let text: string;
  try {
    text = file === '-' ? fs.readFileSync(0, 'utf8') : fs.readFileSync(path.resolve(file), 'utf8');
  } catch (e) {
    reportDiagnostics([diagnostic('event-malformed', `cannot read the event file: ${(e as Error).message}`, { file })]);
    throw e;
  }
  const event = parseEvent(text);
  if (!event) reportDiagnostics([diagnostic('event-malformed', 'the event is not a JSON object with a string hook_event_name', { file })]);
  return event as HookEvent;
}

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}
