/**
 * `policy init --host codex,gemini`: the runner's entries in each host's own configuration
 * in the project (Codex's `.codex/config.toml`, Gemini's `.gemini/settings.json`), written
 * as portably as Claude Code's shared entry (engine/hosts/command.ts), and what would make
 * the host skip them: with `--check`, every such reason is drift (exit 1), never a silent
 * pass. For Codex, init also records the user's trust of the entries it wrote, as Codex
 * itself records it, since Codex skips an untrusted hook without a word.
 */
import * as fs from 'fs';
import * as path from 'path';
import { CommanderError } from 'commander';
import type { CompiledPolicy } from '../../engine/types';
import { hostCommand, PROJECT_BIN } from '../../engine/hosts/command';
import { hostTitle, planHostHooks, type HostPlan } from '../../engine/hosts/plan';
import type { OtherHostName } from '../../engine/hosts/types';
import {
  codexHookState, codexHooksBlock, codexProjectTrusted, codexRunnerTrust, codexTrustBlock, readCodexToml, withCodexBlock, withTrustBlock, type CodexHookTrust,
} from '../../engine/hosts/codex/config';
import { geminiFolderTrust, geminiFolderTrustOn, geminiHooks, geminiSwitches } from '../../engine/hosts/gemini/config';
import { countRunnerHooks, installHooks, settingsProblem } from '../../engine/init/merge';
import { describePlan } from '../../engine/init/plan';
import { isRunnerHook, handlerWords } from '../../engine/init/runner';
import type { HooksConfig, SettingsObject } from '../../engine/init/types';
import { readSettingsFile, writeSettingsFile } from '../../engine/host/settings-file';

export interface HostInitContext {
  policy: CompiledPolicy;
  projectRoot: string;
  /** Policy files named with --config, absolute. */
  configs: string[];
  check: boolean;
  env: NodeJS.ProcessEnv;
  home: string;
  out(line: string): void;
  /** A path as the user should read it (relative to the project when inside it). */
  show(file: string): string;
}

/**
 * Writes (or with check, compares) each host's entries; returns true when check found drift.
 * Throws a usage error (exit 2) when a file cannot be changed safely.
 */
export function initHosts(hosts: readonly OtherHostName[], ctx: HostInitContext): boolean {
  let drift = false;
  for (const host of hosts) {
    const plan = planHostHooks(ctx.policy, host);
    const command = hostCommand({ host, hookArgs: hookArgs(ctx), keepCerts: usesTls(ctx.policy) });
    const problems = host === 'codex' ? codex(ctx, plan, command) : gemini(ctx, plan, command);
    for (const note of plan.notes) ctx.out(`note: ${note.message}`);
    if (ctx.check) {
      for (const p of problems) ctx.out(`drift: ${hostTitle(host)}: ${p}`);
      if (problems.length === 0) ctx.out(`in sync: ${hostTitle(host)} runs the runner for every event the policy needs that it has`);
      drift ||= problems.length > 0;
    } else {
      for (const p of problems) ctx.out(`note: ${hostTitle(host)}: ${p}`);
    }
  }
  return drift;
}

/** What the runner entry passes after `hook --host NAME`: project-relative --config files, --on-error closed. */
function hookArgs(ctx: HostInitContext): string[] {
  const args: string[] = [];
  for (const file of ctx.configs) {
    const rel = path.relative(ctx.projectRoot, file).split(path.sep).join('/');
    args.push('--config', rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel : file);
  }
  if (ctx.policy.settings.onError === 'closed') args.push('--on-error', 'closed');
  return args;
}

function usesTls(policy: CompiledPolicy): boolean {
  return /^https:/i.test(policy.settings.log.webhook?.url ?? '');
}

/** The hook's timeout in seconds: the policy's deadline plus 5, as for Claude Code's entries. */
function timeoutSeconds(policy: CompiledPolicy): number {
  return Math.ceil(policy.settings.deadlineMs / 1000) + 5;
}

/** The entries name the project's own hookpolicy: without it, every entry would fail to start. */
function requireInstalled(ctx: HostInitContext, host: OtherHostName): void {
  if (ctx.check || fs.existsSync(path.join(ctx.projectRoot, ...PROJECT_BIN.split('/')))) return;
  process.stderr.write(`policy: hookpolicy is not installed in this project, and ${hostTitle(host)}'s entry runs ${PROJECT_BIN} on every teammate's machine.\n`
    + '  Install it first: npm install --save-dev hookpolicy   (then: npx policy init --host ...)\n');
  throw new CommanderError(2, 'policy.exit', '');
}

// ---------------------------------------------------------------------------
// Codex CLI

/** $CODEX_HOME/config.toml, the user's own Codex configuration (~/.codex by default). */
function codexUserConfig(ctx: HostInitContext): string {
  return path.join(ctx.env.CODEX_HOME || path.join(ctx.home, '.codex'), 'config.toml');
}

function readText(file: string): string | null {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}

function writeText(file: string, text: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, text);
  fs.renameSync(tmp, file);
}

function stop(message: string): never {
  process.stderr.write(`policy: ${message}\n`);
  throw new CommanderError(2, 'policy.exit', '');
}

/** Writes or checks the Codex entries and their trust; returns what would make Codex skip them. */
function codex(ctx: HostInitContext, plan: HostPlan, command: string): string[] {
  const file = path.join(ctx.projectRoot, '.codex', 'config.toml');
  const shown = ctx.show(file);
  const before = readText(file) ?? '';
  const block = plan.groups.length > 0 ? codexHooksBlock(plan.groups, command, timeoutSeconds(ctx.policy)) : null;
  const wanted = withCodexBlock(before, block);
  const parsedWanted = readCodexToml(wanted);
  if (!parsedWanted.config) stop(`${shown}: ${readCodexToml(before).problem ?? parsedWanted.problem}; not changed (Codex's own [[hooks.*]] entries must be tables of arrays for init's to join them)`);
  const problems: string[] = [];
  const userFile = codexUserConfig(ctx);
  const userText = readText(userFile) ?? '';
  const user = readCodexToml(userText);
  if (!user.config) stop(`${userFile}: ${user.problem}; not changed`);
  const configFile = path.resolve(file).split(path.sep).join('/');

  if (ctx.check) {
    const actual = readCodexToml(before);
    if (!actual.config) return [`${shown}: ${actual.problem}: Codex reads none of its hooks`];
    problems.push(...codexDrift(actual.config, parsedWanted.config, shown));
    problems.push(...codexTrustProblems(actual.config, configFile, user.config, userFile));
  } else {
    requireInstalled(ctx, 'codex');
    if (wanted !== before) {
      writeText(file, wanted);
      ctx.out(`Wrote ${shown}${before === '' ? ' (new file)' : ''}`);
    } else {
      ctx.out(`${shown} is up to date; nothing changed`);
    }
    for (const line of describePlan(asHooks(plan))) ctx.out(`  ${line}`);
    problems.push(...recordCodexTrust(ctx, userFile, userText, codexRunnerTrust(parsedWanted.config, configFile)));
  }
  problems.push(...codexProjectProblems(user.config, ctx.projectRoot, shown, userFile));
  return problems;
}

/** The runner entries of a parsed config.toml that Codex would skip: not trusted, trusted in an older form, switched off. */
function codexTrustProblems(config: Record<string, unknown>, configFile: string, userConfig: Record<string, unknown>, userFile: string): string[] {
  const problems: string[] = [];
  for (const entry of codexRunnerTrust(config, configFile)) {
    const state = codexHookState(userConfig, entry);
    if (state.disabled) problems.push(`${entry.event} hook ${entry.key} is switched off (enabled = false) in ${userFile}`);
    else if (state.trusted !== 'trusted') problems.push(`${entry.event} hook is ${state.trusted === 'modified' ? 'trusted in an older form' : 'not trusted'}: Codex skips it without a word (run policy init --host codex, or trust it in Codex's /hooks)`);
  }
  return problems;
}

function codexProjectProblems(userConfig: Record<string, unknown>, projectRoot: string, shown: string, userFile: string): string[] {
  if (codexProjectTrusted(userConfig, projectRoot)) return [];
  return [`Codex reads ${shown} only in a project it trusts, and ${projectRoot} is not: answer yes when Codex asks to trust the folder, `
    + `or add to ${userFile}:\n  [projects.${JSON.stringify(projectRoot)}]\n  trust_level = "trusted"`];
}

/** What lint needs of a project's hosts: the ones set up in it (their file holds runner entries), each with why it would skip the runner. */
export interface HostFound {
  host: 'codex' | 'gemini';
  file: string;
  skipped: string[];
}

/**
 * The hosts a project is set up for (`names`: those asked for, set up or not), with the
 * reasons each would skip the runner that do not depend on the policy: trust, switches.
 * @example hostsInUse('/p', process.env, '/home/me', null) // [{ host: 'codex', file: '.codex/config.toml', skipped: [] }]
 */
export function hostsInUse(projectRoot: string, env: NodeJS.ProcessEnv, home: string, names: readonly OtherHostName[] | null, show: (file: string) => string): HostFound[] {
  const found: HostFound[] = [];
  const codexFile = path.join(projectRoot, '.codex', 'config.toml');
  const codexText = readText(codexFile);
  const codexConfig = codexText === null ? null : readCodexToml(codexText).config;
  const configFile = path.resolve(codexFile).split(path.sep).join('/');
  const codexSetUp = codexConfig !== null && codexRunnerTrust(codexConfig, configFile).length > 0;
  if (names ? names.includes('codex') : codexSetUp) {
    const userFile = path.join(env.CODEX_HOME || path.join(home, '.codex'), 'config.toml');
    const user = readCodexToml(readText(userFile) ?? '').config ?? {};
    const skipped = !codexSetUp
      ? [`${show(codexFile)} sends no event to the runner (run policy init --host codex)`]
      : [...codexTrustProblems(codexConfig, configFile, user, userFile), ...codexProjectProblems(user, projectRoot, show(codexFile), userFile)];
    found.push({ host: 'codex', file: show(codexFile), skipped });
  }
  const geminiFile = path.join(projectRoot, '.gemini', 'settings.json');
  const geminiSettings = readSettingsFile(geminiFile).settings;
  const geminiSetUp = geminiSettings !== null && countRunnerHooks(geminiSettings as SettingsObject) > 0;
  if (names ? names.includes('gemini') : geminiSetUp) {
    const skipped = geminiSetUp ? geminiTrustProblems(projectRoot, env, home, geminiSettings as SettingsObject, show(geminiFile)) : [`${show(geminiFile)} sends no event to the runner (run policy init --host gemini)`];
    found.push({ host: 'gemini', file: show(geminiFile), skipped });
  }
  return found;
}

/** The trust of init's entries in the user's config.toml, in a block of its own per project; the reasons it could not record some. */
function recordCodexTrust(ctx: HostInitContext, userFile: string, userText: string, entries: CodexHookTrust[]): string[] {
  const without = readCodexToml(withTrustBlock(userText, ctx.projectRoot, null)).config ?? {};
  const problems: string[] = [];
  const ours: CodexHookTrust[] = [];
  for (const entry of entries) {
    const state = codexHookState(without, entry);
    if (state.trusted === 'trusted') continue;
    // A table of the user's own for this hook: a second one would make the file invalid TOML.
    if (state.trusted === 'modified' || state.disabled) {
      problems.push(`${userFile} has its own [hooks.state.${JSON.stringify(entry.key)}] table${state.disabled ? ' that switches the hook off' : ' with an older hash'}: `
        + 'trust the hook in Codex\'s /hooks, or remove that table and run policy init again');
      continue;
    }
    ours.push(entry);
  }
  const next = withTrustBlock(userText, ctx.projectRoot, codexTrustBlock(ctx.projectRoot, ours));
  if (next !== userText) {
    if (!readCodexToml(next).config) stop(`${userFile}: recording the trust of the runner's hooks would make it invalid TOML; not changed`);
    writeText(userFile, next);
  }
  if (entries.length > 0) ctx.out(`Trusted the ${entries.length} runner ${entries.length === 1 ? 'hook' : 'hooks'} of ${ctx.show(path.join(ctx.projectRoot, '.codex', 'config.toml'))} for this user in ${userFile} (Codex skips a hook it has not trusted)`);
  return problems;
}

/** The events and matchers Codex's parsed config routes to the runner, against the ones it should. */
function codexDrift(actual: Record<string, unknown>, wanted: Record<string, unknown>, shown: string): string[] {
  const routes = (config: Record<string, unknown>) => {
    const hooks = (typeof config.hooks === 'object' && config.hooks !== null ? config.hooks : {}) as Record<string, unknown>;
    const set = new Map<string, string>();
    for (const [event, groups] of Object.entries(hooks)) {
      if (event === 'state' || !Array.isArray(groups)) continue;
      for (const g of groups as Array<Record<string, unknown>>) {
        const runner = Array.isArray(g?.hooks) ? (g.hooks as unknown[]).find(isRunnerHook) : undefined;
        if (runner) set.set(`${event} ${typeof g.matcher === 'string' ? `matcher ${g.matcher}` : 'every call'}`, (handlerWords(runner) ?? []).join(' '));
      }
    }
    return set;
  };
  const have = routes(actual);
  const want = routes(wanted);
  const problems: string[] = [];
  for (const [route, words] of want) {
    if (!have.has(route)) problems.push(`${shown} does not send ${route} to the runner`);
    else if (have.get(route) !== words) problems.push(`${shown}: the runner entry for ${route} is not the one init writes`);
  }
  for (const route of have.keys()) if (!want.has(route)) problems.push(`${shown} sends ${route} to the runner, which no rule needs`);
  return problems;
}

// ---------------------------------------------------------------------------
// Gemini CLI

/** Writes or checks the Gemini entries; returns what would make Gemini skip them. */
function gemini(ctx: HostInitContext, plan: HostPlan, command: string): string[] {
  const file = path.join(ctx.projectRoot, '.gemini', 'settings.json');
  const shown = ctx.show(file);
  const hooks = geminiHooks(plan, command, timeoutSeconds(ctx.policy) * 1000);
  const target = readSettingsFile(file);
  if (target.settings === null) return ctx.check ? [`${shown}: ${target.problem}: Gemini reads none of its hooks`] : stop(`${shown}: ${target.problem}; not changed`);
  const problem = settingsProblem(target.settings);
  if (problem) return ctx.check ? [`${shown}: ${problem}`] : stop(`${shown}: ${problem}; not changed`);
  const merged = installHooks(target.settings as SettingsObject, hooks);
  const problems: string[] = [];
  if (ctx.check) {
    if (merged.changed) problems.push(`${shown} does not route exactly the events the policy needs to the runner (run policy init --host gemini)`);
  } else {
    requireInstalled(ctx, 'gemini');
    if (merged.changed) {
      const { backup } = writeSettingsFile(target, merged.settings);
      ctx.out(`Wrote ${shown}${backup ? ` (backup: ${ctx.show(backup)})` : ' (new file)'}`);
    } else {
      ctx.out(`${shown} is up to date; nothing changed`);
    }
    for (const line of describePlan(hooks)) ctx.out(`  ${line}`);
  }
  problems.push(...geminiTrustProblems(ctx.projectRoot, ctx.env, ctx.home, merged.settings, shown));
  return problems;
}

/** Why Gemini would skip the project's hooks: switched off, or a folder it does not trust. */
function geminiTrustProblems(projectRoot: string, env: NodeJS.ProcessEnv, home: string, projectSettings: SettingsObject, shown: string): string[] {
  const userDir = path.join(home, '.gemini');
  const userSettings = readSettingsFile(path.join(userDir, 'settings.json')).settings;
  const problems = geminiSwitches([userSettings, projectSettings]);
  if (geminiFolderTrustOn(userSettings) && env.GEMINI_CLI_TRUST_WORKSPACE !== 'true') {
    const foldersFile = env.GEMINI_CLI_TRUSTED_FOLDERS_PATH || path.join(userDir, 'trustedFolders.json');
    const folders = readSettingsFile(foldersFile).settings ?? {};
    const trusted = geminiFolderTrust(folders, projectRoot);
    if (trusted !== true) {
      problems.push(`Gemini reads ${shown} only in a folder it trusts, and ${projectRoot} is ${trusted === false ? 'marked DO_NOT_TRUST' : 'not trusted yet'}: `
        + `trust it when Gemini asks (or with /permissions), or add to ${foldersFile}: ${JSON.stringify({ [projectRoot]: 'TRUST_FOLDER' })}`);
    }
  }
  return problems;
}

/** A host plan in the shape describePlan reads (event, matcher). */
function asHooks(plan: HostPlan): HooksConfig {
  const hooks: HooksConfig = {};
  for (const g of plan.groups) (hooks[g.event] ??= []).push(g.matcher === undefined ? { hooks: [] } : { matcher: g.matcher, hooks: [] });
  return hooks;
}
