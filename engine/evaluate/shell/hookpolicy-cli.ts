/**
 * hookpolicy's own command line, run by an agent: `policy init` and `policy uninstall`
 * rewrite Claude Code's settings (uninstall removes the runner's entries, so no hook runs
 * again), and `policy memory forget` erases records rules count; and a package manager
 * removing or replacing hookpolicy itself (`npm uninstall hookpolicy`). They write guarded files,
 * so self-protection denies them like `rm .claude/settings.json`; through `npx`, `bunx`,
 * `pnpx`, `npm exec`, `pnpm exec`/`dlx` and `yarn` too. Every other subcommand, and every
 * other use of those runners, stays not checkable, as before.
 */
import type { CommandContext, CommandEffect, CommandSpec, WriteTarget } from './effects';
import { parseOptions } from './options';
import type { Arg } from './words';

/** The package's bins (package.json `bin`), and runners that run a package's bin by name. */
const BINS = ['policy', 'hookpolicy'];
const PACKAGE = /^(?:policy|hookpolicy)(?:@[^/\s]*)?$/;

const UNKNOWN = 'not a command whose writes are known';

/** What a subcommand writes: its known paths, and why the rest cannot be known. */
function cliEffect(args: readonly Arg[], ctx: CommandContext): CommandEffect {
  const parsed = parseOptions(args, { valued: 'c', long: ['scope', 'managed-dir', 'mode', 'port', 'form', 'plugin', 'config', 'project-dir', 'kind', 'session', 'agent', 'since', 'before'] });
  const [sub, action] = parsed.operands;
  const value = (name: string): Arg | undefined => parsed.options.get(name)?.at(-1);
  // A folder that is not static may be this project's ($PWD, say): its files are named.
  const dir = value('--project-dir');
  const root = dir === undefined || dir === null ? ctx.projectRoot ?? null : dir;
  const inRoot = (file: string): WriteTarget => ({ path: root === null ? null : `${root.replace(/\/+$/, '')}/${file}` });
  if (sub === 'init' || sub === 'uninstall') {
    const given = value('--scope');
    const scope = given === undefined ? 'project' : given;
    const user: WriteTarget = { path: ctx.home ? `${ctx.home.replace(/\/+$/, '')}/.claude/settings.json` : null };
    // A scope that is not static may be any of them.
    const settings = scope === null ? [inRoot('.claude/settings.json'), inRoot('.claude/settings.local.json'), user]
      : scope === 'local' ? [inRoot('.claude/settings.local.json')] : scope === 'user' ? [user] : scope === 'project' ? [inRoot('.claude/settings.json')] : [];
    return { writes: [...settings, ...(sub === 'init' ? [inRoot('.claude/policies.yaml')] : [])], unsure: `policy ${sub} writes Claude Code's settings and the files beside them` };
  }
  if (sub === 'memory' && action === 'forget') return { writes: [inRoot('.claude/hookpolicy/memory/index.db')], unsure: 'policy memory forget erases records from the memory store' };
  return { unsure: UNKNOWN };
}

/** `npx [options] PACKAGE args`: hookpolicy's bin when PACKAGE names it; anything else is not known. */
function runnerEffect(args: readonly Arg[]): CommandEffect {
  const parsed = parseOptions(args, { long: ['package', 'call', 'cache', 'userconfig'], valued: 'pc', stopAtOperand: true });
  const [bin, ...rest] = parsed.rest;
  if (typeof bin !== 'string' || !PACKAGE.test(bin)) return { unsure: UNKNOWN };
  return { runs: [{ argv: ['policy', ...rest.filter((a, i) => !(i === 0 && a === '--'))] }], unsure: `it runs ${bin} from node_modules or the registry` };
}

/** Package-manager verbs that remove, replace or relink a package they name. */
const CHANGES_PACKAGE = new Set(['uninstall', 'remove', 'rm', 'r', 'un', 'unlink', 'install', 'i', 'add', 'update', 'up', 'upgrade', 'link', 'ln']);
/** hookpolicy named as a package to install or remove (`hookpolicy`, `hookpolicy@0.1.0`, `hookpolicy@latest`). */
const PACKAGE_SPEC = /^hookpolicy(?:@.*)?$/;

/**
 * `npm exec` (`npm x`), `pnpm exec` / `pnpm dlx`, `yarn exec` / `yarn dlx`, and `yarn BIN`:
 * as npx when they run hookpolicy's bin. `npm uninstall hookpolicy`, `npm install
 * hookpolicy@OTHER` and the like write the installed package: without it, every command
 * entry fails to start, and Claude Code takes that for a hook error and goes on. Every other
 * use of the package manager is not known.
 */
function managerEffect(args: readonly Arg[], ctx: CommandContext): CommandEffect {
  const [verb, ...rest] = args;
  if (verb === 'exec' || verb === 'x' || verb === 'dlx') return runnerEffect(rest);
  if (typeof verb === 'string' && CHANGES_PACKAGE.has(verb) && rest.some((a) => a !== null && PACKAGE_SPEC.test(a))) {
    const root = ctx.projectRoot ?? null;
    return { writes: [{ path: root === null ? null : `${root.replace(/\/+$/, '')}/node_modules/hookpolicy` }], unsure: `${verb} changes the installed packages` };
  }
  return typeof verb === 'string' && PACKAGE.test(verb) ? runnerEffect(args) : { unsure: UNKNOWN };
}

/** The table entries: hookpolicy's bins, and the package runners that can start them. */
export const HOOKPOLICY_CLI: CommandSpec[] = [
  { names: BINS, effect: cliEffect },
  { names: ['npx', 'bunx', 'pnpx'], effect: runnerEffect },
  { names: ['npm', 'pnpm', 'yarn', 'bun'], effect: managerEffect },
];
