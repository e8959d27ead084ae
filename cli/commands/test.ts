/**
 * `policy test [PATHS...]`: runs test suites (docs/test-format.md) through the same code
 * path as `policy hook`, reports them, and exits 0 (all passed), 1 (a case failed or
 * coverage is below the threshold) or 2 (usage or load error).
 */
import * as fs from 'fs';
import * as path from 'path';
import { CommanderError, type Command } from 'commander';
import { diagnostic, hasErrors } from '../../engine/diagnostics';
import { compileGuarded, type CompileResult } from '../../engine/host/compile-entry';
import { choosePolicyFiles, settlePolicyChoice } from '../../engine/host/discover';
import { createCoverage, summarizeCoverage } from '../../engine/testing/coverage';
import { runSuite, type SuiteHost } from '../../engine/testing/run-suite';
import type { SuiteResult, TestRunResult, TestSuite } from '../../engine/testing/types';
import type { CompiledPolicy, Diagnostic } from '../../engine/types';
import { useColor } from '../color';
import { runHook } from '../hook';
import { writeReportFile } from '../report-file';
import { FORMAT_NAMES, REPORTERS } from '../test-reporters';
import { suiteSource, type SuiteRead } from './suite-source';
import { createWorkspace, type Workspace } from './test-workspace';

export interface TestCommandOptions {
  /** Suite files or folders; [] = every *.test.yaml under cwd. */
  paths: string[];
  cwd: string;
  /** Used only to discover the policy of a suite without `policy:`. */
  env: Readonly<Record<string, string | undefined>>;
  format: string;
  coverage: boolean;
  threshold?: number;
  /** ANSI colours in the pretty report. */
  color?: boolean;
  /** The pretty report shows failures and the summary only. */
  quiet?: boolean;
}

export interface TestCommandResult {
  exitCode: 0 | 1 | 2;
  stdout: string;
  stderr: string;
  result: TestRunResult | null;
}

const SKIPPED_DIRS = new Set(['node_modules', '.git', 'dist']);

/**
 * Runs the suites and renders the report; never writes to the process streams.
 * @example (await runTests({ paths: ['policies/tests'], cwd, env: {}, format: 'pretty', coverage: false })).exitCode // 0
 */
export async function runTests(options: TestCommandOptions): Promise<TestCommandResult> {
  const reporter = REPORTERS[options.format];
  if (!reporter) return usage(`unknown --format "${options.format}" (use ${FORMAT_NAMES.join(', ')})`);
  const threshold = options.threshold;
  if (threshold !== undefined && !(threshold >= 0 && threshold <= 100)) return usage('--coverage-threshold must be a number from 0 to 100');
  const found = findSuites(options.paths, options.cwd);
  if (found.missing.length > 0) return usage(found.missing.map((p) => `no such file or folder: ${p}`).join('\n'));
  if (found.files.length === 0) return usage(`no *.test.yaml files found${options.paths.length ? ` in ${options.paths.join(', ')}` : ''}`);

  const started = Date.now();
  const tally = createCoverage();
  const suites: SuiteResult[] = [];
  const workspace = createWorkspace();
  const policies = new Map<string, CompileResult>();
  const source = suiteSource(found.files);
  try {
    for (const [index, file] of found.files.entries()) suites.push(await runSuiteFile(file, await source.read(index), options, workspace, policies, tally));
  } finally {
    source.dispose();
    workspace.dispose();
  }
  const cases = suites.flatMap((s) => s.cases);
  const passed = cases.filter((c) => c.passed).length;
  const result: TestRunResult = { suites, passed, failed: cases.length - passed, coverage: summarizeCoverage(tally), durationMs: Date.now() - started };
  const stdout = reporter(result, { cwd: options.cwd, coverage: options.coverage, threshold, color: options.color, quiet: options.quiet });
  const loadError = suites.some((s) => hasErrors(s.diagnostics));
  const belowThreshold = threshold !== undefined && result.coverage.percent < threshold;
  const exitCode = loadError ? 2 : result.failed > 0 || belowThreshold ? 1 : 0;
  return { exitCode, stdout, stderr: '', result };
}

async function runSuiteFile(file: string, read: SuiteRead, options: TestCommandOptions, workspace: Workspace, policies: Map<string, CompileResult>, tally: ReturnType<typeof createCoverage>): Promise<SuiteResult> {
  const failed = (diagnostics: Diagnostic[]): SuiteResult => ({ file, cases: [], diagnostics });
  if ('readError' in read) return failed([diagnostic('test-file-not-found', `cannot read the suite: ${read.readError}`, { file })]);
  const parsed = read.parsed;
  if (!parsed.suite) return failed(parsed.diagnostics);
  // The suite's `policy:`, else the project's, or $POLICY_CONFIG's where its top file allows them (as the runner loads them).
  const choice = parsed.suite.policies.length > 0 ? { roots: parsed.suite.policies, requested: [] } : choosePolicyFiles({ configs: [], env: options.env, projectRoot: posixCwd(options) });
  if (choice.roots.length === 0) {
    return failed([diagnostic('no-policy', 'the suite names no `policy:` and the project has no .claude/policies.yaml or policies.yaml', { file })]);
  }
  const compiled = (roots: string[]): CompileResult => {
    const key = roots.join('\0');
    const built = policies.get(key) ?? compileGuarded(roots, process.env);
    policies.set(key, built);
    return built;
  };
  const settled = settlePolicyChoice(choice, posixCwd(options), compiled, (team) => team.policy?.settings.policyConfig === 'allow');
  const built = settled.loaded;
  const notices = settled.notice ? [settled.notice] : [];
  if (!built.policy || hasErrors(built.diagnostics)) return failed([...parsed.diagnostics, ...notices, ...built.diagnostics]);
  const result = await runSuite(parsed.suite, built.policy, suiteHost(workspace, withoutLog(built.policy)), tally);
  return { ...result, diagnostics: [...parsed.diagnostics, ...notices, ...built.diagnostics] };
}

function posixCwd(options: TestCommandOptions): string {
  return options.cwd.split(path.sep).join('/');
}

/** Test runs write no decision log and post no webhook. */
function withoutLog(policy: CompiledPolicy): CompiledPolicy {
  return { ...policy, settings: { ...policy.settings, log: { file: null, webhook: null, record: [] } } };
}

/**
 * The hook runner, fed the suite's already compiled policy in memory: no discovery, no
 * cache file, no hashing per case (10,000 cases take seconds, not minutes).
 */
function suiteHost(workspace: Workspace, policy: CompiledPolicy): SuiteHost {
  return {
    project: (files) => workspace.project(files),
    readJson: (file) => {
      try {
        return { value: JSON.parse(fs.readFileSync(file, 'utf8')) };
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code ? 'test-file-not-found' : 'event-malformed';
        return { error: diagnostic(code, `cannot use event_file: ${(e as Error).message}`, { file }) };
      }
    },
    execute: async (input) => {
      const env = { ...input.env, HOOKPOLICY_CACHE_DIR: workspace.cacheDir };
      const files = workspace.facts(input.projectRoot);
      // The suite's memory, in memory: a test never reads or writes the project's store.
      const facts = input.memory ? { ...files, memory: input.memory } : files;
      // trace: coverage counts the rules each case considered.
      const hook = await runHook({ argv: input.host ? ['--host', input.host] : [], stdin: input.stdin, env, cwd: input.projectRoot, policy, memoryStore: false, trace: true, facts, sandbox: testSandbox });
      return { decision: hook.decision, response: hook.response };
    },
    now: () => Date.now(),
  };
}

/**
 * The sandbox as suites see it: always there, whatever machine runs them, and written as
 * `[sandbox] COMMAND` (the real command line names this machine's paths).
 * @example testSandbox('npm test') // '[sandbox] npm test'
 */
export function testSandbox(command: string): string {
  return `[sandbox] ${command}`;
}

/**
 * Suite files for the given paths, sorted: files as given, folders searched for
 * *.test.yaml (skipping node_modules, .git, dist); no path = the whole project.
 */
export function findSuites(paths: readonly string[], cwd: string): { files: string[]; missing: string[] } {
  const files: string[] = [];
  const missing: string[] = [];
  for (const p of paths.length > 0 ? paths : ['.']) {
    const abs = path.resolve(cwd, p);
    const stat = fs.statSync(abs, { throwIfNoEntry: false });
    if (!stat) missing.push(p);
    else if (stat.isDirectory()) files.push(...walk(abs).sort());
    else files.push(abs);
  }
  return { files: [...new Set(files.map((f) => f.split(path.sep).join('/')))], missing };
}

function walk(dir: string): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory() && !SKIPPED_DIRS.has(entry.name)) out.push(...walk(path.join(dir, entry.name)));
    else if (entry.isFile() && entry.name.endsWith('.test.yaml')) out.push(path.join(dir, entry.name));
  }
  return out;
}

function usage(message: string): TestCommandResult {
  return { exitCode: 2, stdout: '', stderr: `policy test: ${message}\n`, result: null };
}

interface TestFlags {
  format: string;
  coverage: boolean;
  coverageThreshold?: number;
  quiet?: boolean;
  outputFile?: string;
}

/** Registers `policy test [paths...] [--format F] [--coverage] [--coverage-threshold N] [--quiet] [-o FILE]`. */
export function register(program: Command): void {
  program
    .command('test')
    .description('run policy test suites (*.test.yaml): hook events in, expected decisions and output out')
    .argument('[paths...]', 'suite files or folders (default: every *.test.yaml in the project)')
    .option('--format <format>', `report format: ${FORMAT_NAMES.join(', ')}`, 'pretty')
    .option('--coverage', 'list the rules no case exercised or made decide', false)
    .option('--coverage-threshold <percent>', 'fail when fewer than this % of the rules decided in some case', Number)
    .option('--quiet', 'pretty report: print failures and the summary only')
    .option('-o, --output-file <file>', 'write the report to this file instead of stdout')
    .action(async (paths: string[], opts: TestFlags) => {
      const toFile = opts.outputFile !== undefined;
      const out = await runTests({
        paths, cwd: process.cwd(), env: process.env, format: opts.format, coverage: opts.coverage, threshold: opts.coverageThreshold,
        quiet: opts.quiet, color: useColor(process.env, !toFile && process.stdout.isTTY === true),
      });
      const problem = toFile && out.result ? writeReportFile(path.resolve(opts.outputFile as string), out.stdout) : null;
      if (!toFile) process.stdout.write(out.stdout);
      process.stderr.write(problem ? `${out.stderr}policy test: ${problem}\n` : out.stderr);
      const code = problem ? 2 : out.exitCode;
      if (code !== 0) throw new CommanderError(code, 'policy.exit', '');
    });
}
