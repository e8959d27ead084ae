/**
 * Built-in self-protection: hookpolicy's own files are the guard, so no agent may write
 * them, the main session included, through any writing tool (Bash's parsed writes too).
 * The protected files are the policy files, Claude Code's settings (project, local, user,
 * managed), the other coding agents' files that run the runner (Codex, Gemini), the decision log, the memory store, the cache folders, the installed package
 * and the packages it loads at run time, and the programs its command starts (`node`,
 * `env` on PATH). A team opens them path by path in the top file's `settings.self_protection`
 * (`except` for everyone, `main_session` for the main session only).
 *
 * A Bash command whose writes the parser cannot account for is not refused here (that
 * would ask at every unknown command), unless its words name a guarded file: then it is
 * asked about (`gzip .claude/policies.yaml`). Claude Code's own permission rules and the
 * sandbox, which `policy init` writes for the same files, hold where the parser cannot
 * (docs/reliability.md, the threat model).
 */
import { BUILT_IN_SOURCE } from './built-in-rule';
import { globRegex } from './compile/glob-regex';
import { escapeGlob, literalGlob } from './glob-text';
import { serverSecretRules } from './self-protection-secrets';
import { storeSettings } from './memory/store-settings';
import { buildRuleIndex } from './rule-index';
import { RUNTIME_PACKAGES } from './runtime-packages';
import type { CompiledPathFilter, CompiledPolicy, CompiledRule, GuardedPaths, RegexSource } from './types';

export { isBuiltInRule } from './built-in-rule';

export const SELF_PROTECTION_ID = 'hookpolicy-self-protection';
export const SELF_PROTECTION_MAIN_ID = 'hookpolicy-self-protection-main';

/** Tools that write files (a shell tool through the files its command writes). */
export const WRITING_TOOLS: readonly string[] = ['Write', 'Edit', 'MultiEdit', 'NotebookEdit', 'Bash', 'PowerShell'];

/** Where things are on this machine, gathered by the host (self-protection-facts.ts). */
export interface SelfProtectionFacts {
  /** Absolute POSIX path of the project root. */
  projectRoot: string;
  /** The user's home folder, or null when unknown. */
  home: string | null;
  /** Every folder the policy caches may live in (the V8 code caches live in the installed package). */
  cacheDirs: string[];
  /** The installed hookpolicy package, as found and as resolved through links. */
  packageRoots: string[];
  /** Claude Code's managed settings folder. */
  managedDir: string | null;
  /**
   * The programs the runner's command starts by name, as its PATH finds them (`node` and
   * `env` in each folder of PATH) and the node that runs it: a fake `node` planted in a
   * folder early on PATH (`~/.local/bin`, `~/.cargo/bin`) would answer every hook instead.
   */
  programs?: string[];
  /** `$CLAUDE_CONFIG_DIR`, where Claude Code then keeps the user's settings instead of ~/.claude. */
  configDir?: string | null;
  /** `$CODEX_HOME`, where Codex CLI then keeps the user's config (the trust of the runner's hooks) instead of ~/.codex. */
  codexHome?: string | null;
}

/**
 * The files in the project where other coding agents are told to run the runner (engine/hosts/):
 * Codex reads hooks from `.codex/config.toml` and `.codex/hooks.json`, Gemini from `.gemini/settings.json`.
 */
export const HOST_CONFIG_FILES: readonly string[] = ['.codex/config.toml', '.codex/hooks.json', '.gemini/settings.json'];

/**
 * The same agents' files in the user's home: their own hooks, Codex's record of which hooks
 * the user trusts (a hook whose trust is gone is skipped without a word), Gemini's trusted folders.
 */
export const HOST_USER_FILES: readonly string[] = ['.codex/config.toml', '.codex/hooks.json', '.gemini/settings.json', '.gemini/trustedFolders.json'];

const MESSAGE = '{{path}} is or holds one of hookpolicy\'s own files (a policy file, Claude Code\'s settings or another coding agent\'s hook configuration, the decision log, the memory store, a cache, the installed package or a program its hook command starts): no agent may write, move or remove it. '
  + 'Ask the user to change it, or the team to list it under settings.self_protection.';


/** A path as a glob: project-relative when inside the project, else absolute. */
function globOf(file: string, projectRoot: string): string {
  const root = projectRoot.endsWith('/') ? projectRoot : `${projectRoot}/`;
  return escapeGlob(file.startsWith(root) ? file.slice(root.length) : file);
}

/**
 * Every glob self-protection denies, before the team's openings.
 * @example protectedGlobs(policy, facts) // ['.claude/policies.yaml', '.claude/settings.json', ..., '/home/me/.cache/hookpolicy/**']
 */
export function protectedGlobs(policy: CompiledPolicy, facts: SelfProtectionFacts): string[] {
  const globs = guardedFiles(policy, facts);
  // Removing or moving a folder removes what it holds: `rm -rf .claude`, `mv node_modules x`,
  // `rm -rf .` and `cd .. && rm -rf project` write each guarded file at once.
  // The project folder itself: `.` as a path in the project, the folders above it as absolute paths.
  const root = escapeGlob(facts.projectRoot.replace(/\/+$/, ''));
  return [...new Set([...globs, '.', ...ancestorFolders([...globs, root, `${root}/x`])])];
}

/**
 * The guarded files and folders themselves, without the folders that hold them: what a
 * command the analysis cannot read is asked about when it names one (`gzip
 * .claude/policies.yaml`), where naming `.` or `src/..` is no sign of anything.
 * @example guardedFiles(policy, facts) // ['.claude/policies.yaml', '.claude/settings.json', ..., '/home/me/.cache/hookpolicy/**']
 */
export function guardedFiles(policy: CompiledPolicy, facts: SelfProtectionFacts): string[] {
  const inProject = (file: string) => globOf(file, facts.projectRoot);
  const folder = (dir: string) => `${inProject(dir).replace(/\/+$/, '')}/**`;
  const own = ownPaths(policy, facts);
  const globs = [
    ...own.files.map(inProject),
    'node_modules/hookpolicy/**', 'node_modules/.bin/policy', 'node_modules/.bin/hookpolicy',
    ...own.folders.map(folder),
    ...runtimePackageGlobs(facts),
  ];
  // What was set aside from the log's path (a log that had a second name: verify checks it still holds its lines).
  const log = logFile(policy, facts);
  if (log) globs.push(`${inProject(log)}.set-aside-*`, `${inProject(`${log}.last`)}.set-aside-*`);
  globs.push(...machineGlobs(facts));
  return [...new Set(globs)];
}

/** The decision log's absolute path (settings.log.file), or null when the policy logs to no file. */
function logFile(policy: CompiledPolicy, facts: SelfProtectionFacts): string | null {
  const file = policy.settings.log.file;
  if (!file) return null;
  return file.startsWith('/') ? file : `${facts.projectRoot}/${file}`;
}

/**
 * The guard's own files and folders, as absolute paths: the policy files, Claude Code's
 * settings (project, local, user, `$CLAUDE_CONFIG_DIR`), the decision log and the files its
 * hash chain keeps beside it; the installed package, the caches, the memory store, the
 * managed settings. Not the packages it loads nor the programs it starts: those are
 * guarded by name only (evaluate/guard-identity.ts looks at these by identity).
 * @example ownPaths(policy, facts).files // ['/p/.claude/policies.yaml', '/p/policies.yaml', '/p/.claude/settings.json', ...]
 */
export function ownPaths(policy: CompiledPolicy, facts: SelfProtectionFacts): { files: string[]; folders: string[] } {
  const root = facts.projectRoot.replace(/\/+$/, '');
  const files = [
    ...policy.sources.map((s) => s.file),
    `${root}/.claude/policies.yaml`, `${root}/policies.yaml`,
    `${root}/.claude/settings.json`, `${root}/.claude/settings.local.json`,
    // The other coding agents' entries for the runner (policy init --host): their hooks and, for Codex, their trust.
    ...HOST_CONFIG_FILES.map((f) => `${root}/${f}`),
  ];
  const folders = [...facts.packageRoots, ...facts.cacheDirs];
  // The memory store: records an agent could plant, rewrite or erase would steer the rules that read them.
  const store = storeSettings(policy.settings).dir;
  if (store) folders.push(store.startsWith('/') ? store : `${root}/${store.replace(/^(\.\/)+/, '')}`);
  const log = logFile(policy, facts);
  if (log) {
    // And the lock its hash chain is appended under and the one its takeovers go under (a
    // lock kept fresh would slow every append: log-chain/lock.ts), and the last line's hash
    // and the log's end beside it (log-chain/last-line.ts).
    files.push(log, `${log}.lock`, `${log}.lock.break`, `${log}.last`);
  }
  if (facts.home) {
    const home = facts.home.replace(/\/+$/, '');
    files.push(`${home}/.claude/settings.json`, `${home}/.claude/settings.local.json`, ...HOST_USER_FILES.map((f) => `${home}/${f}`));
  }
  const config = facts.configDir?.replace(/\/+$/, '');
  if (config) files.push(`${config}/settings.json`, `${config}/settings.local.json`);
  const codex = facts.codexHome?.replace(/\/+$/, '');
  if (codex) files.push(`${codex}/config.toml`, `${codex}/hooks.json`);
  if (facts.managedDir) folders.push(facts.managedDir);
  return { files: [...new Set(files)], folders: [...new Set(folders)] };
}

/**
 * The packages the engine loads at run time (RUNTIME_PACKAGES), one glob per node_modules
 * folder that holds hookpolicy, where npm hoists them beside it (those inside hookpolicy's
 * own folder are under its glob already), and their store folders under pnpm. `policy
 * init` leaves them out of Claude Code's permission rules, whose paths have no braces: the
 * hook guards them.
 * @example runtimePackageGlobs({ ...facts, packageRoots: ['/p/node_modules/hookpolicy'] }) // ['node_modules/{ajv,...,xtend}/**']
 */
export function runtimePackageGlobs(facts: SelfProtectionFacts): string[] {
  const names = `{${RUNTIME_PACKAGES.join(',')}}`;
  return [...new Set(facts.packageRoots.flatMap((root) => {
    const parent = root.replace(/\/+$/, '').replace(/\/[^/]+$/, '');
    const beside = parent.endsWith('/node_modules') ? [`${globOf(parent, facts.projectRoot)}/${names}/**`] : [];
    // pnpm: hookpolicy's real folder is in node_modules/.pnpm/hookpolicy@V/node_modules, and
    // each package it loads in a store folder of its own beside it, .pnpm/NAME@V/.
    const store = /^(.*\/node_modules\/\.pnpm)\//.exec(root)?.[1];
    return store === undefined ? beside : [...beside, `${globOf(store, facts.projectRoot)}/${names}@*/**`];
  }))];
}

/**
 * What a command the parser cannot read is asked about when its words name it: the guarded
 * files, and the folders that hold them (`.claude`, `~/.cache`), but not the project, the
 * home folder, the root or a folder above the project (`python3 tool.py .`, `cd ~` are no
 * sign of anything).
 * @example namedGuards(protectedGlobs(policy, facts), guardedFiles(policy, facts), facts) // ['.claude/policies.yaml', ..., '.claude', 'node_modules']
 */
export function namedGuards(deny: readonly string[], files: readonly string[], facts: SelfProtectionFacts): string[] {
  const root = escapeGlob(facts.projectRoot.replace(/\/+$/, ''));
  const home = facts.home === null ? null : escapeGlob(facts.home.replace(/\/+$/, ''));
  const broad = (folder: string) => folder === '.' || folder === '/' || folder === home || folder === root || root.startsWith(`${folder}/`);
  const folders = ancestorFolders(deny).filter((folder) => !broad(folder));
  return [...new Set([...files, ...folders])];
}

/**
 * The guarded paths only this machine has: the programs the hook command starts
 * (facts.programs, from its PATH) and the user settings in `$CLAUDE_CONFIG_DIR`, as globs;
 * `policy init` leaves them out of the settings a team commits.
 * @example machineGlobs({ ...facts, programs: ['/usr/bin/node'], configDir: '/cfg' }) // ['/usr/bin/node', '/cfg/settings.json', '/cfg/settings.local.json']
 */
export function machineGlobs(facts: SelfProtectionFacts): string[] {
  const dir = facts.configDir?.replace(/\/+$/, '');
  const config = dir === undefined ? [] : [`${dir}/settings.json`, `${dir}/settings.local.json`];
  const codex = facts.codexHome?.replace(/\/+$/, '');
  const codexFiles = codex === undefined ? [] : [`${codex}/config.toml`, `${codex}/hooks.json`];
  return [...(facts.programs ?? []), ...config, ...codexFiles].map((file) => globOf(file, facts.projectRoot));
}

/**
 * Every folder above a guarded path, each as an exact path: the folders of the literal part
 * of each glob (`.claude` for `.claude/settings.json`, `/home/me/.cache` and above for
 * `/home/me/.cache/hookpolicy/**`; a folder a glob already covers is left to it).
 * @example ancestorFolders(['.claude/settings.json', '/p/x']) // ['.claude', '/', '/p']
 */
export function ancestorFolders(globs: readonly string[]): string[] {
  const out = new Set<string>();
  for (const glob of globs) {
    const segments = glob.split('/');
    // The segments before the first one with a wildcard (an escaped character is literal).
    let literal = 0;
    while (literal < segments.length && !/(^|[^\\])[*?[{]/.test(segments[literal])) literal++;
    const folders = literal - 1;
    for (let k = 1; k <= folders; k++) {
      const folder = segments.slice(0, k).join('/');
      out.add(folder === '' ? '/' : folder);
    }
  }
  return [...out];
}

function regexes(globs: readonly string[]): RegexSource[] {
  return globs.flatMap((g) => {
    const r = globRegex(g);
    return r ? [r] : [];
  });
}

function pathFilter(deny: string[], except: string[]): CompiledPathFilter {
  return { allow: null, deny: regexes(deny), except: except.length > 0 ? regexes(except) : null, globs: { deny, ...(except.length > 0 ? { except } : {}) } };
}

/**
 * The guard's own files and folders (ownPaths) as the built-in rule's `identity`, each as
 * its glob names it (project-relative inside the project), with the folders that hold them
 * (not the project, the home folder nor anything above them).
 * @example guardedPaths(policy, facts) // { files: ['.claude/policies.yaml', ...], folders: ['/home/me/.cache/hookpolicy', ...], holders: ['.claude', ...] }
 */
export function guardedPaths(policy: CompiledPolicy, facts: SelfProtectionFacts): GuardedPaths {
  const own = ownPaths(policy, facts);
  const plain = (file: string) => literalGlob(globOf(file, facts.projectRoot)) ?? file;
  const files = own.files.map(plain);
  const folders = own.folders.map((dir) => plain(dir.replace(/\/+$/, '')));
  const root = escapeGlob(facts.projectRoot.replace(/\/+$/, ''));
  const home = facts.home === null ? null : escapeGlob(facts.home.replace(/\/+$/, ''));
  // Not the project, the home folder, nor a folder above either.
  const above = (glob: string) => glob === root || root.startsWith(`${glob}/`) || (home !== null && home.startsWith(`${glob}/`));
  const holders = namedGuards([...own.files, ...own.folders.map((dir) => `${dir.replace(/\/+$/, '')}/x`)].map((p) => globOf(p, facts.projectRoot)), [], facts)
    .filter((glob) => !above(glob))
    .flatMap((glob) => literalGlob(glob) ?? []);
  return { files, folders, holders: [...new Set(holders)].filter((h) => !folders.includes(h)) };
}

function builtInRule(id: string, guarded: { deny: string[]; named: string[]; paths: GuardedPaths }, except: string[], actors: CompiledRule['actors']): CompiledRule {
  return {
    id,
    description: 'hookpolicy\'s own files are written by people, not agents',
    source: { file: BUILT_IN_SOURCE, line: 0, column: 0 },
    events: ['PreToolUse'],
    tools: { names: [...WRITING_TOOLS], patterns: [] },
    prompts: null,
    agents: null,
    match: [],
    paths: pathFilter(guarded.deny, except),
    command: null,
    when: null,
    onlyIfExists: null,
    lets: [],
    requires: [],
    outcome: 'deny',
    message: MESSAGE,
    bypasses: [],
    log: true,
    unparsable: 'ignore',
    // A command it cannot read is asked about only when its words name a guarded file (or a folder that holds one).
    unparsableNaming: { deny: guarded.named.map((glob) => guarded.deny.indexOf(glob)).filter((i) => i >= 0), outcome: 'ask' },
    identity: guarded.paths,
    ...(actors ? { actors } : {}),
  };
}

/**
 * The policy with the built-in rules after the team's (deny wins whatever the order). With
 * `main_session` openings there are two: one for the main session, one for every other agent.
 * @example withSelfProtection(policy, facts).rules.at(-1)?.id // 'hookpolicy-self-protection'
 */
export function withSelfProtection(policy: CompiledPolicy, facts: SelfProtectionFacts): CompiledPolicy {
  const deny = protectedGlobs(policy, facts);
  const guarded = { deny, named: namedGuards(deny, guardedFiles(policy, facts), facts), paths: guardedPaths(policy, facts) };
  const openings = policy.settings.selfProtection ?? { except: [], mainSession: [] };
  const rules = openings.mainSession.length === 0
    ? [builtInRule(SELF_PROTECTION_ID, guarded, openings.except, undefined)]
    : [
      builtInRule(SELF_PROTECTION_ID, guarded, openings.except, 'agents'),
      builtInRule(SELF_PROTECTION_MAIN_ID, guarded, [...openings.except, ...openings.mainSession], 'main'),
    ];
  const all = [...policy.rules, ...rules, ...serverSecretRules(facts)];
  return { ...policy, rules: all, index: buildRuleIndex(all) };
}
