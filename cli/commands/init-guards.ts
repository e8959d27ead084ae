/**
 * What `policy init` writes beside the runner entries to guard hookpolicy's own files:
 * Claude Code's permission deny rules for them (engine/init/permissions.ts) and, with
 * `--sandbox`, the sandbox that holds the same paths against code the hook cannot read
 * (engine/init/sandbox.ts); and what `--check` says of them.
 */
import * as path from 'path';
import type { SettingsFile } from '../../engine/host/settings-file';
import { installedMode } from '../../engine/host/http-hooks';
import { sandboxUnavailable } from '../../engine/host/sandbox-runtime';
import { selfProtectionFacts } from '../../engine/host/self-protection-facts';
import { serveState } from '../../engine/host/serve/state';
import { expandBraces } from '../../engine/evaluate/shell/globs';
import { allDenyRules, permissionPath, type GuardedPaths } from '../../engine/init/permissions';
import { sandboxDrift, sandboxOn, serverDomain } from '../../engine/init/sandbox';
import type { SettingsObject } from '../../engine/init/types';
import { ancestorFolders, machineGlobs, runtimePackageGlobs, SELF_PROTECTION_ID } from '../../engine/self-protection';
import type { CompiledPolicy } from '../../engine/types';
import { homeDir, type InitScope } from './init';
import { DEFAULT_PORT } from './serve';

/**
 * The self-protected files as permission-rule paths for this scope: `write`, what no agent
 * may write (`Edit(...)` rules), and `read`, what no agent may read (`Read(...)`: the policy
 * server's state folder, where its token is). A shared (project) file names no path of this
 * machine: a state folder outside the home folder is listed in `unnamed` instead. The
 * team's openings are left out (Claude Code's rules would hold them for the main session
 * too). With the sandbox on, the packages
 * hookpolicy loads get one rule each (a rule's path has no braces): the sandbox is what
 * keeps code the hook cannot read from rewriting them.
 */
export function permissionPaths(policy: CompiledPolicy, scope: InitScope, projectRoot: string, sandbox = false): GuardedPaths & { unnamed: string[] } {
  const rule = policy.rules.find((r) => r.id === SELF_PROTECTION_ID);
  const opened = new Set([...(policy.settings.selfProtection?.except ?? []), ...(policy.settings.selfProtection?.mainSession ?? [])]);
  const home = homeDir().split(path.sep).join('/');
  const everyProject = scope === 'user' || scope === 'managed';
  const where = { home, shared: scope === 'project', ...(everyProject ? { projectRoot: projectRoot.split(path.sep).join('/') } : {}) };
  const deny = rule?.paths?.globs.deny ?? [];
  // The folders that hold the guarded files are the hook's to judge (a Bash rm or mv of
  // them); Claude Code's Edit rules are for files, and `Edit(/)` would refuse every edit.
  const folders = new Set(['.', projectRoot.split(path.sep).join('/').replace(/\/+$/, '') || '/', ...ancestorFolders(deny)]);
  // The programs on this machine's PATH and its $CLAUDE_CONFIG_DIR are the hook's to guard:
  // another machine has others (and the sandbox writes nothing outside the project anyway).
  const facts = selfProtectionFacts(process.env, projectRoot.split(path.sep).join('/'));
  const machine = new Set(machineGlobs(facts));
  const packages = runtimePackageGlobs(facts);
  const globs = deny.filter((g) => !opened.has(g) && !folders.has(g) && !machine.has(g))
    .flatMap((g) => (!packages.includes(g) ? [g] : sandbox ? expandBraces(g) ?? [] : []));
  const write = unique(globs.map((g) => permissionPath(g, where)));
  const state = serveState(process.env).dir;
  const stateGlob = state === null ? null : `${state.split(path.sep).join('/')}/**`;
  const read = unique([stateGlob === null ? null : permissionPath(stateGlob, where)]);
  const unnamed = state !== null && read.length === 0 ? [state.split(path.sep).join('/')] : [];
  return { write, read, unnamed };
}

function unique(paths: Array<string | null>): string[] {
  return [...new Set(paths.filter((p): p is string => p !== null))];
}

/** What init says when the settings turn the sandbox on: what it holds, what it does not, and whether it can start here. */
export function sandboxInstallNotes(paths: { unnamed: string[] }, port: number | null): string[] {
  const notes = ['Claude Code\'s sandbox is on for Bash (sandbox.enabled, failIfUnavailable, allowUnsandboxedCommands: false): sandboxed commands cannot write the files of the Edit deny rules, read those of the Read rules, or signal processes outside the sandbox (docs/commands/init.md#the-sandbox-an-os-backstop)'];
  if (port !== null) notes.push(`sandbox.network.allowedDomains lists ${serverDomain(port)}: the http entries reach the policy server through the sandbox's proxy, which runs in Claude Code's process, and so can sandboxed commands: the server cannot tell an event they forge (with the session id, which they can read) from Claude Code's, and records it (policy init --sandbox --mode command has no port)`);
  for (const folder of paths.unnamed) notes.push(`the policy server's state folder ${folder} is not under your home folder, so the committed settings cannot name it: add Read(/${folder}/**) to permissions.deny in .claude/settings.local.json, or sandboxed commands can read its token`);
  const why = sandboxUnavailable(process.env);
  if (why !== null) notes.push(`the sandbox cannot start on this machine: ${why}; with failIfUnavailable, Claude Code will not start here until it can`);
  return notes;
}

/** What keeps the sandbox a settings file turns on from holding, and whether it can start here. */
export function checkSandbox(policy: CompiledPolicy, usable: SettingsFile[], sources: Array<{ file: string; settings: SettingsObject }>, projectRoot: string, scopeOf: (file: string) => InitScope): string[] {
  // The rules are those init writes in the scope that turns the sandbox on (the one that wins).
  const on = [...usable].reverse().find((f) => sandboxOn(f.settings as SettingsObject));
  if (on === undefined) return [];
  const installed = usable.map((f) => installedMode(f.settings)).find((m) => m?.mode === 'http');
  const port = installed?.mode === 'http' ? installed.port ?? DEFAULT_PORT : null;
  const denyRules = allDenyRules(permissionPaths(policy, scopeOf(on.file), projectRoot, true));
  const lines = sandboxDrift(sources, { port, denyRules });
  const why = sandboxUnavailable(process.env);
  if (why !== null) lines.push(`sandbox: it cannot start on this machine: ${why}`);
  return lines;
}
