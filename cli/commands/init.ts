/**
 * `policy init`: registers the runner in Claude Code settings (or a plugin's
 * hooks/hooks.json) with only the events and tools the policy's rules use, scaffolds a
 * policy when there is none, and with --check reports drift between the two.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { CommanderError, type Command } from 'commander';
import { runnerCommandFor } from '../../engine/init/command';
import { checkDrift, type DriftItem } from '../../engine/init/drift';
import { installHooks, settingsProblem } from '../../engine/init/merge';
import { describePlan, planHooks } from '../../engine/init/plan';
import { handlerWords, isRunnerHook, runnerHook, type CommandForm } from '../../engine/init/runner';
import type { HooksConfig, SettingsObject } from '../../engine/init/types';
import type { CompiledPolicy } from '../../engine/types';
import { managedDropInPath, managedSettingsDir, readSettingsFile, settingsPath, writeSettingsFile, SETTINGS_SCOPES, type SettingsFile, type SettingsScope } from '../../engine/host/settings-file';
import { discoverPolicyFiles } from '../../engine/host/discover';
import { toAbsolutePosix } from '../../engine/host/project-root';
import { ensureHook, httpHookUrl, installedMode, toHttpHooks, withEnsureHook } from '../../engine/host/http-hooks';
import { loadPolicyForCommand, reportDiagnostics, usageErrorsExit2 } from './explain';
import { pluginBin, writePluginFiles } from './init-plugin';
import { writeMemSearchCommand } from './init-memory';
import { prepareRunnerCacheFor } from '../runner-cache';
import { withSelfProtectionPermissions } from '../../engine/init/permissions';
import { sandboxOn, withSandbox } from '../../engine/init/sandbox';
import { checkSandbox, permissionPaths, sandboxInstallNotes } from './init-guards';
import { DEFAULT_PORT } from './serve';
import { initHosts } from './init-hosts';
import { isHostName, type HostName, type OtherHostName } from '../../engine/hosts/types';
import { portNumber } from '../serve-values';

export interface InitOptions {
  scope?: string;
  /** command or http; without it, the mode the settings already have, else http (command for --plugin and --sandbox). */
  mode?: string;
  /** --mode http: the port of the `policy serve` daemon. */
  port?: string;
  form: string;
  if?: boolean;
  check?: boolean;
  plugin?: string;
  config: string[];
  projectDir?: string;
  /** --scope managed: the managed settings folder (default: the platform's). */
  managedDir?: string;
  /** Turn on Claude Code's sandbox for Bash, with what keeps it from the guard (engine/init/sandbox.ts). */
  sandbox?: boolean;
  /** --host claude,codex,gemini: the coding agents to register the runner with (default: claude). */
  host?: string;
}

/** Where init writes: a settings scope, or the organisation's managed settings. */
export type InitScope = SettingsScope | 'managed';

/** Where the package is: bin/policy.cjs and the files beside it. */
export function packagePaths(): { binPath: string; root: string } {
  const candidates = [path.resolve(__dirname, '..'), path.resolve(__dirname, '..', '..')];
  const root = candidates.find((dir) => fs.existsSync(path.join(dir, 'bin', 'policy.cjs'))) ?? candidates[0];
  return { binPath: fs.realpathSync.native(path.join(root, 'bin', 'policy.cjs')), root };
}

/** Registers `policy init`. */
export function register(program: Command): void {
  program
    .command('init')
    .description('register the runner in Claude Code settings for the events and tools the policy uses')
    .option('--scope <scope>', 'project (.claude/settings.json), local (.claude/settings.local.json), user (~/.claude/settings.json) or managed (a drop-in in the managed settings folder); --check reads all unless given')
    .option('--managed-dir <dir>', `--scope managed: the managed settings folder (default: ${managedSettingsDir()})`)
    .option('--mode <mode>', 'how Claude Code reaches the runner: http (a policy server each session starts at SessionStart; no process per event) or command (a process per event). Default: the mode the settings already have, else http (command with --plugin or --sandbox)')
    .option('--port <port>', `--mode http: the policy server's port on 127.0.0.1 (default ${DEFAULT_PORT})`)
    .option('--form <form>', 'exec (command + args, no shell; Claude Code >= 2.1.139) or shell (one sh -c string)', 'exec')
    .option('--sandbox', 'also turn on Claude Code\'s sandbox for Bash (bubblewrap and socat on Linux, Seatbelt on macOS), so that the agent\'s commands cannot write hookpolicy\'s files, read the policy server\'s token or signal its processes')
    .option('--if', 'also narrow Bash entries with an `if` permission rule when every Bash rule has one command prefix')
    .option('--check', 'compare the policy with the settings: exit 1 on drift, 0 in sync')
    .option('--plugin <dir>', 'make <dir> a plugin (hooks/hooks.json, .claude-plugin/plugin.json, a marketplace entry) instead of writing settings')
    .option('-c, --config <file>', 'policy file (repeatable; default: as the runner finds it)', collect, [])
    .option('--project-dir <dir>', 'project root (default: $CLAUDE_PROJECT_DIR, else the current folder)')
    .option('--host <hosts>', 'the coding agents to register the runner with, comma-separated: claude (.claude/settings.json), codex (.codex/config.toml), gemini (.gemini/settings.json); default claude')
    .exitOverride(usageErrorsExit2)
    .action((options: InitOptions) => runInit(options));
}

function runInit(options: InitOptions): void {
  const hosts = parseHosts(options.host);
  const others = hosts.filter((h): h is OtherHostName => h !== 'claude');
  if (others.length === 0) return runClaudeInit(options);
  if (options.plugin) fail('--plugin makes a Claude Code plugin: it cannot be used with --host codex or gemini');
  if ((options.scope ?? 'project') !== 'project' && !hosts.includes('claude')) fail('--host codex and gemini write the project\'s own files: --scope does not apply to them');
  let drift = false;
  if (hosts.includes('claude')) {
    try {
      runClaudeInit(options);
    } catch (e) {
      // --check goes on to the other hosts before it says drift.
      if (!(options.check && e instanceof CommanderError && e.exitCode === 1)) throw e;
      drift = true;
    }
  }
  const projectRoot = projectRootOf(options);
  const configs = options.config.map((c) => path.resolve(projectRoot, c));
  if (!options.check && !hosts.includes('claude')) scaffold(configs, projectRoot, packagePaths().root);
  const loaded = loadPolicyForCommand(configs, projectRoot, process.env);
  reportDiagnostics(loaded.diagnostics);
  const out = (line: string) => process.stdout.write(`${line}\n`);
  drift = initHosts(others, {
    policy: loaded.policy as CompiledPolicy, projectRoot, configs, check: options.check === true, env: process.env, home: homeDir(), out,
    show: (file) => show(file, projectRoot),
  }) || drift;
  if (drift) throw new CommanderError(1, 'policy.exit', '');
}

/** The hosts --host names, Claude Code when none. */
function parseHosts(value: string | undefined): HostName[] {
  if (value === undefined) return ['claude'];
  const names = value.split(',').map((h) => h.trim()).filter((h) => h !== '');
  const bad = names.filter((h) => !isHostName(h) || h === 'copilot');
  if (names.length === 0 || bad.length > 0) fail(`--host takes claude, codex and gemini, comma-separated, not ${JSON.stringify(value)}`);
  return [...new Set(names as HostName[])];
}

function runClaudeInit(options: InitOptions): void {
  if (options.mode !== undefined && options.mode !== 'command' && options.mode !== 'http') fail(`--mode must be command or http, not ${options.mode}`);
  if (options.sandbox && options.plugin) fail('--sandbox cannot be used with --plugin: the sandbox is a setting of Claude Code\'s settings files, not of a plugin');
  if (options.mode === 'http' && options.plugin) fail('--mode http cannot be used with --plugin: a plugin\'s hooks run from a copy of it, so --mode http is for settings');
  if (options.port !== undefined) {
    const given = portNumber(options.port);
    if (given === null || given === 0) fail(`--port must be a number from 1 to 65535, not ${options.port}`);
  }
  if (options.form !== 'exec' && options.form !== 'shell') fail(`--form must be exec or shell, not ${options.form}`);
  const scope = parseInitScope(options.scope);
  const projectRoot = projectRootOf(options);
  const pluginRoot = options.plugin ? path.resolve(options.plugin) : undefined;
  const managedDir = path.resolve(options.managedDir ?? managedSettingsDir());
  const pkg = packagePaths();
  let configs = options.config.map((c) => path.resolve(projectRoot, c));
  if (pluginRoot && configs.length === 0) configs = [path.join(pluginRoot, 'policies.yaml')];
  // The organisation's policy lives beside its managed settings, where only an administrator writes.
  if (scope === 'managed' && configs.length === 0) configs = [path.join(managedDir, 'hookpolicy', 'policies.yaml')];
  if (!options.check) scaffold(configs, projectRoot, pkg.root);

  const loaded = loadPolicyForCommand(configs, projectRoot, process.env);
  reportDiagnostics(loaded.diagnostics);
  const policy = loaded.policy as CompiledPolicy;
  const projectBin = sharedEntryBin(projectRoot, scope, options);
  const runner = runnerCommandFor({
    policy,
    nodePath: process.execPath,
    binPath: pluginRoot ? pluginBin(pluginRoot, projectRoot) : pkg.binPath,
    configs,
    projectRoot,
    absoluteConfigs: scope === 'user' || scope === 'managed',
    pluginRoot,
    projectBin,
    envPath: process.platform !== 'win32' && fs.existsSync('/usr/bin/env') ? '/usr/bin/env' : null,
    form: options.form as CommandForm,
  });
  const plan = planHooks(policy, { handler: runnerHook(runner), useIf: options.if === true });
  const fileOf = (s: InitScope) => (s === 'managed' ? managedDropInPath(managedDir) : settingsPath(s, projectRoot, homeDir()));
  const target = readSettingsFile(pluginRoot ? pluginHooksPath(pluginRoot) : fileOf(scope ?? 'project'));
  const installed = installedMode(target.settings);
  // With the sandbox, a process per event unless http is asked for: the http entries reach the
  // server through the sandbox's proxy, in Claude Code's own process, and so can sandboxed
  // commands, whose forged events the server cannot tell from Claude Code's (measured).
  const mode = options.mode ?? (pluginRoot ? 'command' : options.port !== undefined ? 'http' : options.sandbox ? 'command' : installed?.mode ?? 'http');
  const port = Number(options.port ?? (installed?.mode === 'http' ? installed.port : null) ?? DEFAULT_PORT);
  if (mode === 'http') {
    const http = toHttpHooks(plan.hooks, httpHookUrl(port));
    plan.hooks = withEnsureHook(http.hooks, ensureHook(runner, port)) as unknown as HooksConfig;
    plan.notes.push(...http.notes, `each session starts the policy server on 127.0.0.1:${port} at SessionStart (policy serve --ensure) and registers with it; the server stops once its sessions have ended`
      + '; while it is down, every call the http entries guard is refused (onFailure: block), and each prompt starts it again');
    if (options.mode === undefined && options.port === undefined && installed === null) plan.notes.push('--mode http is the default; policy init --mode command writes a process per event instead (docs/commands/init.md)');
  } else if (options.mode === undefined && options.sandbox) {
    plan.notes.push('--sandbox writes a process per event (--mode command): sandboxed commands reach the policy server\'s port through the same proxy as the http entries, so the server could not tell their events from Claude Code\'s; --sandbox --mode http keeps the fast path with that gap (docs/commands/init.md#the-sandbox-an-os-backstop)');
  } else if (options.mode === undefined && !pluginRoot) {
    plan.notes.push('kept the command entries the settings already had; policy init --mode http for the fast path (no process per event)');
  }
  if (options.check) {
    const scopes: InitScope[] = scope ? [scope] : [...SETTINGS_SCOPES, ...(fs.existsSync(fileOf('managed')) ? ['managed' as const] : [])];
    const files = pluginRoot ? [pluginHooksPath(pluginRoot)] : scopes.map(fileOf);
    const read = [...new Set(files)].map(readSettingsFile);
    runCheck(policy, read, projectRoot, (file) => scopes.find((s) => fileOf(s) === file) ?? scope ?? 'project');
    return;
  }
  if (target.settings === null) fail(`${show(target.file, projectRoot)}: ${target.problem}; not changed`);
  const problem = settingsProblem(target.settings);
  if (problem) fail(`${show(target.file, projectRoot)}: ${problem}; not changed`);
  let { settings, changed } = installHooks(target.settings as SettingsObject, plan.hooks);
  if (pluginRoot && typeof settings.description !== 'string') {
    settings = { description: 'hookpolicy: Claude Code hooks answered by a declarative policy', ...settings };
    changed = true;
  }
  const sandboxNotes: string[] = [];
  if (!pluginRoot) {
    if (options.sandbox) settings = withSandbox(settings, mode === 'http' ? port : null);
    // Claude Code's own deny rules for the same files: they hold where the hook cannot see a
    // write, and with the sandbox on Claude Code denies their paths to sandboxed commands too.
    const paths = permissionPaths(policy, scope ?? 'project', projectRoot, sandboxOn(settings));
    const guarded = withSelfProtectionPermissions(settings, paths);
    changed = changed || JSON.stringify(guarded) !== JSON.stringify(target.settings);
    settings = guarded;
    if (sandboxOn(settings)) sandboxNotes.push(...sandboxInstallNotes(paths, mode === 'http' ? port : null));
  }
  const out = (line: string) => process.stdout.write(`${line}\n`);
  if (!changed) {
    out(`${show(target.file, projectRoot)} is up to date; nothing changed`);
  } else {
    const { backup } = writeOrExplain(target, settings, projectRoot);
    out(`Wrote ${show(target.file, projectRoot)}${backup ? ` (backup: ${show(backup, projectRoot)})` : ' (new file)'}`);
  }
  for (const line of describePlan(plan.hooks)) out(`  ${line}`);
  for (const note of [...plan.notes, ...sandboxNotes]) out(`note: ${note}`);
  if (pluginRoot) {
    writePluginFiles(pluginRoot, projectRoot, out);
  } else if (scope !== 'user' && scope !== 'managed') {
    // The project's own /mem-search command; settings that serve every project get none.
    writeMemSearchCommand(policy, projectRoot, out);
  }
  // The runner's cache, as this user's sessions of the project will read it (managed settings serve other users).
  if (!pluginRoot && scope !== 'managed') prepareRunnerCacheFor(loaded.roots, projectRoot);
}

/** Writes the settings; a folder this user may not write (managed settings) is a clear error, not a stack trace. */
function writeOrExplain(target: SettingsFile, settings: SettingsObject, projectRoot: string): { backup: string | null } {
  try {
    return writeSettingsFile(target, settings);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code !== 'EACCES' && code !== 'EPERM' && code !== 'EROFS') throw e;
    return fail(`cannot write ${show(target.file, projectRoot)} (${code}): managed settings are written by an administrator (sudo), or staged with --managed-dir DIR and distributed`);
  }
}

/** `files` run from the lowest precedence to the highest (user, project, local, managed); `scopeOf` names a file's scope. */
function runCheck(policy: CompiledPolicy, files: SettingsFile[], projectRoot: string, scopeOf: (file: string) => InitScope): void {
  const usable = files.filter((f) => f.settings !== null);
  for (const f of files) if (f.settings === null) process.stderr.write(`${show(f.file, projectRoot)}: ${f.problem}; skipped\n`);
  const sources = usable.map((f) => ({ file: show(f.file, projectRoot), settings: f.settings as SettingsObject }));
  const items: DriftItem[] = checkDrift(policy, sources);
  const missing = usable.flatMap((f) => missingPrograms(f.settings as SettingsObject, projectRoot).map((p) => `${show(f.file, projectRoot)}: the runner entry starts ${p}`));
  const lines = [...items.map((i) => i.message), ...missing, ...checkSandbox(policy, usable, sources, projectRoot, scopeOf)];
  if (lines.length === 0) {
    const read = usable.filter((f) => f.exists).map((f) => show(f.file, projectRoot)).join(', ') || 'no settings file';
    process.stdout.write(`in sync: the runner entries in ${read} route every event the policy needs\n`);
    return;
  }
  for (const line of lines) process.stdout.write(`drift: ${line}\n`);
  process.stdout.write('run `policy init` to update the settings\n');
  throw new CommanderError(1, 'policy.exit', '');
}

/**
 * Where the committed (project scope) entry runs the runner from: hookpolicy in the
 * project's own node_modules, as `${CLAUDE_PROJECT_DIR}/...`. Without it, a shared entry
 * would name this machine's paths (or npx's cache), so init refuses and says what to do.
 */
function sharedEntryBin(projectRoot: string, scope: InitScope | undefined, options: InitOptions): string | undefined {
  if (options.plugin || options.check || (scope ?? 'project') !== 'project') return undefined;
  const bin = path.join(projectRoot, 'node_modules', 'hookpolicy', 'bin', 'policy.cjs');
  if (fs.existsSync(bin)) return bin;
  return fail('hookpolicy is not installed in this project, so .claude/settings.json (shared with the team) would name this machine\'s paths.\n'
    + '  Install it first: npm install --save-dev hookpolicy   (then: npx policy init)\n'
    + '  Or register it for yourself only: policy init --scope local');
}

/** Programs and scripts of runner entries that are gone (a moved node, a removed package, node not on PATH). */
function missingPrograms(settings: SettingsObject, projectRoot: string): string[] {
  const hooks = (settings.hooks ?? {}) as Record<string, Array<{ hooks?: unknown[] }>>;
  const missing = new Set<string>();
  for (const groups of Object.values(hooks)) {
    for (const g of Array.isArray(groups) ? groups : []) {
      for (const h of Array.isArray(g?.hooks) ? g.hooks.filter(isRunnerHook) : []) {
        for (const word of (handlerWords(h) ?? []).slice(0, 5)) {
          const file = word.split('${CLAUDE_PROJECT_DIR}').join(projectRoot);
          if (word === 'node' && !onPath('node')) missing.add('node, which is not on PATH');
          else if (path.isAbsolute(file) && !file.includes('${') && !fs.existsSync(file)) missing.add(`${word}, which does not exist`);
        }
      }
    }
  }
  return [...missing];
}

function onPath(program: string): boolean {
  const names = process.platform === 'win32' ? [`${program}.exe`, `${program}.cmd`] : [program];
  return (process.env.PATH ?? '').split(path.delimiter).some((dir) => dir !== '' && names.some((n) => fs.existsSync(path.join(dir, n))));
}

/**
 * Writes .claude/policies.yaml (or the plugin's policy) from the template when no policy
 * exists, and its starter test suite beside it, so `policy test` passes right away. The
 * schema lines point at the project's own node_modules when hookpolicy is installed there
 * (a path every teammate has), else at this package.
 */
function scaffold(configs: string[], projectRoot: string, packageRoot: string): void {
  const named = configs.length > 0;
  const target = named ? configs[0] : path.join(projectRoot, '.claude', 'policies.yaml');
  if (named ? fs.existsSync(target) || configs.length > 1 : discoverPolicyFiles({ configs: [], env: process.env, projectRoot }).length > 0) return;
  const installed = path.join(projectRoot, 'node_modules', 'hookpolicy');
  const schemaRoot = fs.existsSync(path.join(installed, 'policy.schema.json')) ? installed : packageRoot;
  const schemaLine = (file: string, schema: string) => `# yaml-language-server: $schema=${path.relative(path.dirname(file), path.join(schemaRoot, schema)).split(path.sep).join('/')}\n`;
  const template = (name: string) => fs.readFileSync(path.join(packageRoot, 'templates', name), 'utf8');
  fs.mkdirSync(path.dirname(target), { recursive: true });
  fs.writeFileSync(target, schemaLine(target, 'policy.schema.json') + template('policies.yaml'));
  process.stdout.write(`Created ${show(target, projectRoot)} (security-guard pack and commented examples)\n`);
  const suite = target.replace(/\.ya?ml$/, '.test.yaml');
  if (fs.existsSync(suite)) return;
  fs.writeFileSync(suite, schemaLine(suite, 'policy-test.schema.json') + template('policies.test.yaml').replace('policy: policies.yaml', `policy: ${path.basename(target)}`));
  process.stdout.write(`Created ${show(suite, projectRoot)} (starter tests: run \`policy test\`)\n`);
}

function parseInitScope(scope: string | undefined): InitScope | undefined {
  return scope === 'managed' ? 'managed' : parseScope(scope);
}

export function parseScope(scope: string | undefined): SettingsScope | undefined {
  if (scope === undefined) return undefined;
  if (scope === 'project' || scope === 'local' || scope === 'user') return scope;
  return fail(`--scope must be project, local, user or managed, not ${scope}`);
}

export function projectRootOf(options: { projectDir?: string }): string {
  if (options.projectDir) return toAbsolutePosix(options.projectDir, process.cwd());
  return toAbsolutePosix(process.env.CLAUDE_PROJECT_DIR || '.', process.cwd());
}

export function pluginHooksPath(pluginRoot: string): string {
  return path.join(pluginRoot, 'hooks', 'hooks.json');
}

export function homeDir(): string {
  return process.env.HOME || process.env.USERPROFILE || os.homedir();
}

/** A path relative to the project root when inside it. */
export function show(file: string, projectRoot: string): string {
  const rel = path.relative(projectRoot, file);
  return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel.split(path.sep).join('/') : file;
}

export function fail(message: string): never {
  process.stderr.write(`policy: ${message}\n`);
  throw new CommanderError(2, 'policy.exit', '');
}

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}
