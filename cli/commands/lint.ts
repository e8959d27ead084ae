/**
 * `policy lint [FILES...]`: load, validate, compile and lint policy files, checked against
 * the project's Claude Code settings; print the problems in a chosen format.
 * Exit 0 clean, 1 errors (or too many warnings), 2 usage or internal error.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { CommanderError, type Command } from 'commander';
import { lintSources, mergeClaudeSettings, parseClaudeSettings, sortDiagnostics } from '../../engine/lint';
import type { ClaudeSettings } from '../../engine/lint';
import type { SettingsSource } from '../../engine/lint/context';
import { settlePolicyChoice } from '../../engine/host/discover';
import { PACKAGE_VERSION } from '../../engine/host/engine-version';
import { createFsReader, defaultPackDir } from '../../engine/host/fs-reader';
import { readShippedParses } from '../../engine/host/shipped-parses';
import type { PolicyReader } from '../../engine/load';
import type { Diagnostic } from '../../engine/types';
import { useColor } from '../color';
import { FORMATTERS } from '../formatters';
import { readProcessStdin, resolveLintTargets, withStdin } from '../lint-targets';
import { writeReportFile } from '../report-file';
import { prepareRunnerCacheFor } from '../runner-cache';
import { countSeverities, displayPath } from '../formatters/format';
import { hostsInUse } from './init-hosts';
import type { OtherHostName } from '../../engine/hosts/types';

export interface LintCommandOptions {
  format: string;
  /** -1 = warnings never fail. */
  maxWarnings: string | number;
  /** A settings file, or false for --no-settings; undefined = the project's own. */
  settings?: string | false;
  projectDir?: string;
  /** Report errors only (warnings and infos still count for --max-warnings and the exit code). */
  quiet?: boolean;
  /** Write the report to this file (relative to cwd) instead of stdout. */
  outputFile?: string;
  /** --host codex,gemini: lint for these coding agents too (default: those the project is set up for). */
  host?: string;
}

export interface LintIO {
  cwd: string;
  env: Readonly<Record<string, string | undefined>>;
  stdout(text: string): void;
  stderr(text: string): void;
  /** Whether stdout is a terminal (stylish is then coloured; see cli/color.ts). */
  isTTY?: boolean;
  /** The text on stdin, for `policy lint -`. */
  readStdin?: () => string;
  reader?: PolicyReader;
  /**
   * Called after a clean lint of the project's own policy (no file named) with the files the
   * runner loads: the commander action makes the runner's policy cache there, so that the
   * first hook event after an edit saved through `policy lint` does not compile.
   */
  prepareRunnerCache?: (roots: string[], projectRoot: string) => void;
}

/** The settings files Claude Code reads for a project, in order, relative to its root. */
export const PROJECT_SETTINGS_FILES: readonly string[] = ['.claude/settings.json', '.claude/settings.local.json'];

/**
 * Runs `policy lint` and returns its exit code.
 * @example runLint([], { format: 'stylish', maxWarnings: -1 }, io) // 0 when the project's policy is clean
 */
export function runLint(files: string[], options: LintCommandOptions, io: LintIO): number {
  const formatter = FORMATTERS[options.format];
  if (!formatter) return usage(io, `unknown format "${options.format}" (one of: ${Object.keys(FORMATTERS).join(', ')})`);
  const maxWarnings = Number(options.maxWarnings);
  if (!Number.isInteger(maxWarnings) || maxWarnings < -1) return usage(io, `--max-warnings takes a whole number (-1 = no limit), not "${options.maxWarnings}"`);

  const targets = resolveLintTargets(files, { cwd: io.cwd, env: io.env, projectDir: options.projectDir });
  const { projectRoot, policies } = targets;
  if (targets.problems.length > 0) return usage(io, targets.problems.join('\n'));
  if (policies.length === 0) {
    const where = targets.searched ? `${io.cwd} or a folder above it` : projectRoot;
    return usage(io, `no policy file found in ${where} (.claude/policies.yaml or policies.yaml); name one: policy lint FILE`);
  }

  // The shipped packs as the build parsed them (engine/host/shipped-parses.ts).
  const reader = withStdin(io.reader ?? createFsReader(defaultPackDir(), () => readShippedParses()), policies, io.cwd, io.readStdin);
  const settings = readSettings(options.settings, projectRoot, reader, io);
  if (settings === 'missing') return usage(io, `cannot read the settings file ${options.settings}`);

  const hostNames = parseLintHosts(options.host);
  if (hostNames === 'bad') return usage(io, `--host takes codex and gemini, comma-separated, not ${JSON.stringify(options.host)}`);
  const home = io.env.HOME || io.env.USERPROFILE || os.homedir();
  const hosts = hostsInUse(projectRoot, io.env, home, hostNames, (file) => displayPath(file, io.cwd));
  const lintOptions = {
    hosts,
    settings: settings.settings,
    settingsFile: settings.label,
    settingsSources: settings.sources,
    settingsChecked: settings.checked,
    projectRoot: posix(projectRoot),
    exists: (file: string) => fs.existsSync(file),
  };
  // The project's policy, or $POLICY_CONFIG's files where its top file allows them (as the runner loads them).
  const lintOne = (roots: string[]) => lintSources(roots, reader, lintOptions);
  const settled = policies.map((roots) => settlePolicyChoice({ roots, requested: targets.requested }, posix(projectRoot), lintOne, (team) => team.policy?.settings.policyConfig === 'allow'));
  const results = settled.map((s) => (s.notice ? [s.notice, ...s.loaded.diagnostics] : s.loaded.diagnostics));
  const diagnostics: Diagnostic[] = [...settings.diagnostics, ...mergeDiagnostics(results)];
  const shown = options.quiet ? diagnostics.filter((d) => d.severity === 'error') : diagnostics;
  const toFile = options.outputFile !== undefined;
  const report = formatter(shown, { cwd: io.cwd, toolVersion: PACKAGE_VERSION, color: useColor(io.env, !toFile && io.isTTY === true) });
  if (toFile) {
    const problem = writeReportFile(path.resolve(io.cwd, options.outputFile as string), report);
    if (problem) return usage(io, problem);
  } else {
    io.stdout(report);
  }

  const { errors, warnings } = countSeverities(diagnostics);
  if (errors > 0) return 1;
  if (files.length === 0) io.prepareRunnerCache?.(settled[0].roots, posix(projectRoot));
  if (maxWarnings >= 0 && warnings > maxWarnings) {
    io.stderr(`policy lint: too many warnings (${warnings}; maximum: ${maxWarnings})\n`);
    return 1;
  }
  return 0;
}

interface SettingsRead {
  settings: ClaudeSettings | null;
  label: string;
  diagnostics: Diagnostic[];
  /** Each file read, for the checks that need them one by one (settings-twice, settings-runner-missing). */
  sources: SettingsSource[];
  /** Settings were looked for (not --no-settings). */
  checked: boolean;
}

/** The named settings file, else the project's settings files that exist (none: no settings check). */
function readSettings(option: string | false | undefined, projectRoot: string, reader: PolicyReader, io: LintIO): SettingsRead | 'missing' {
  if (option === false) return { settings: null, label: '', diagnostics: [], sources: [], checked: false };
  const candidates = option !== undefined
    ? [posix(path.resolve(io.cwd, option))]
    : PROJECT_SETTINGS_FILES.map((f) => posix(path.resolve(projectRoot, f)));
  const found: string[] = [];
  const sources: SettingsSource[] = [];
  const diagnostics: Diagnostic[] = [];
  for (const file of candidates) {
    const text = reader.read(file);
    if (text === null) continue;
    const r = parseClaudeSettings(file, text);
    found.push(file);
    diagnostics.push(...r.diagnostics);
    if (r.settings) sources.push({ file: displayPath(file, io.cwd), settings: r.settings });
  }
  if (option !== undefined && found.length === 0) return 'missing';
  const label = (found.length > 0 ? found : candidates).map((f) => displayPath(f, io.cwd)).join(', ');
  const settings = sources.length > 0 ? mergeClaudeSettings(sources.map((x) => x.settings)) : null;
  return { settings, label, diagnostics, sources, checked: true };
}

/** Each policy's diagnostics in one sorted list, a file two policies include reported once. */
function mergeDiagnostics(lists: Diagnostic[][]): Diagnostic[] {
  if (lists.length === 1) return lists[0];
  const seen = new Set<string>();
  return sortDiagnostics(lists.flat()).filter((d) => {
    const key = `${d.file}:${d.line}:${d.column}:${d.code}:${d.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function usage(io: LintIO, message: string): number {
  io.stderr(`policy lint: ${message}\n`);
  return 2;
}

/** The hosts --host names (null: the ones the project is set up for), or 'bad'. */
function parseLintHosts(value: string | undefined): OtherHostName[] | null | 'bad' {
  if (value === undefined) return null;
  const names = value.split(',').map((h) => h.trim()).filter((h) => h !== '' && h !== 'claude');
  return names.every((h) => h === 'codex' || h === 'gemini') ? (names as OtherHostName[]) : 'bad';
}

function posix(p: string): string {
  return p.split(path.sep).join('/');
}

/** Registers `policy lint [FILES...] [--format F] [--max-warnings N] [--settings FILE] [--project-dir DIR] [--quiet] [-o FILE]`. */
export function register(program: Command): void {
  program
    .command('lint')
    .description('check policy files: syntax, schema, semantics, and whether Claude Code settings route their events to the runner')
    .argument('[files...]', 'policy files, folders, globs, or - for stdin (default: .claude/policies.yaml, else policies.yaml, in the working directory or the nearest folder above with one)')
    .option('-f, --format <format>', `output format: ${Object.keys(FORMATTERS).join(', ')}`, 'stylish')
    .option('--max-warnings <n>', 'fail (exit 1) when there are more warnings than this; -1 = no limit', '-1')
    .option('--settings <file>', 'Claude Code settings file to check routing against (default: .claude/settings.json and .claude/settings.local.json when present)')
    .option('--no-settings', 'do not check Claude Code settings')
    .option('--project-dir <dir>', 'the project folder (default: $CLAUDE_PROJECT_DIR, else the nearest folder with a policy, from the working directory up)')
    .option('--host <hosts>', 'also lint for these coding agents, comma-separated: codex, gemini (default: those the project is set up for with policy init --host)')
    .option('--quiet', 'report errors only (warnings still count for --max-warnings)')
    .option('-o, --output-file <file>', 'write the report to this file instead of stdout')
    .exitOverride((err) => {
      // Usage errors exit 2, as documented; help and version keep their code.
      throw err.exitCode === 0 ? err : new CommanderError(2, err.code, err.message);
    })
    .action((files: string[], options: LintCommandOptions) => {
      let code: number;
      try {
        code = runLint(files, options, {
          cwd: process.cwd(),
          env: process.env,
          stdout: (t) => process.stdout.write(t),
          stderr: (t) => process.stderr.write(t),
          isTTY: process.stdout.isTTY === true,
          readStdin: readProcessStdin,
          prepareRunnerCache: (roots, projectRoot) => prepareRunnerCacheFor(roots, projectRoot),
        });
      } catch (e) {
        process.stderr.write(`policy lint: internal error: ${(e as Error)?.stack ?? String(e)}\n`);
        code = 2;
      }
      if (code !== 0) throw new CommanderError(code, 'policy.exit', '');
    });
}
