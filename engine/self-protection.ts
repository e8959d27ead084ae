/**
 * Built-in self-protection: hookpolicy's own files are the guard, so no agent may write
 * them, the main session included, through any writing tool (Bash's parsed writes too).
 * The protected files are the policy files, Claude Code's settings (project, local, user,
 * managed), the decision log, the memory store, the cache folders and the installed
 * package. A team opens them path by path in the top file's `settings.self_protection`
 * (`except` for everyone, `main_session` for the main session only).
 *
 * A Bash command whose writes the parser cannot account for is not refused here (that
 * would ask at every unknown command); Claude Code's own permission rules and the sandbox,
 * which `policy init` writes for the same files, hold where the parser cannot
 * (docs/reliability.md, the threat model).
 */
import { globRegex } from './compile/paths';
import { storeSettings } from './memory/store-settings';
import { buildRuleIndex } from './rule-index';
import type { CompiledPolicy, CompiledRule, RegexSource } from './types';

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
  /** Every folder the policy and code caches may live in. */
  cacheDirs: string[];
  /** The installed hookpolicy package, as found and as resolved through links. */
  packageRoots: string[];
  /** Claude Code's managed settings folder. */
  managedDir: string | null;
}

const MESSAGE = '{{path}} is one of hookpolicy\'s own files (a policy file, Claude Code\'s settings, the decision log, the memory store, a cache or the installed package): no agent may write it. '
  + 'Ask the user to change it, or the team to list it under settings.self_protection.';

/**
 * True for the built-in rules (not the team's): they have no source position and no test
 * suite owes them a case.
 * @example isBuiltInRule(withSelfProtection(policy, facts).rules.at(-1)!) // true
 */
export function isBuiltInRule(rule: Pick<CompiledRule, 'source'>): boolean {
  return rule.source.file === BUILT_IN;
}

const BUILT_IN = '(built-in)';

/** A path as a glob: project-relative when inside the project, else absolute. */
function globOf(file: string, projectRoot: string): string {
  const root = projectRoot.endsWith('/') ? projectRoot : `${projectRoot}/`;
  const rel = file.startsWith(root) ? file.slice(root.length) : file;
  return rel.replace(/([*?[\]{}()!+@])/g, '\\$1');
}

/**
 * Every glob self-protection denies, before the team's openings.
 * @example protectedGlobs(policy, facts) // ['.claude/policies.yaml', '.claude/settings.json', ..., '/home/me/.cache/hookpolicy/**']
 */
export function protectedGlobs(policy: CompiledPolicy, facts: SelfProtectionFacts): string[] {
  const inProject = (file: string) => globOf(file, facts.projectRoot);
  const folder = (dir: string) => `${inProject(dir).replace(/\/+$/, '')}/**`;
  const globs = [
    ...policy.sources.map((s) => inProject(s.file)),
    '.claude/policies.yaml', 'policies.yaml',
    '.claude/settings.json', '.claude/settings.local.json',
    'node_modules/hookpolicy/**', 'node_modules/.bin/policy', 'node_modules/.bin/hookpolicy',
    ...facts.packageRoots.map(folder),
    ...facts.cacheDirs.map(folder),
  ];
  // The memory store: records an agent could plant, rewrite or erase would steer the rules that read them.
  const store = storeSettings(policy.settings).dir;
  if (store) globs.push(folder(store.startsWith('/') ? store : `${facts.projectRoot.replace(/\/+$/, '')}/${store.replace(/^(\.\/)+/, '')}`));
  if (policy.settings.log.file) globs.push(inProject(policy.settings.log.file.startsWith('/') ? policy.settings.log.file : `${facts.projectRoot}/${policy.settings.log.file}`));
  if (facts.home) globs.push(`${facts.home.replace(/\/+$/, '')}/.claude/settings.json`, `${facts.home.replace(/\/+$/, '')}/.claude/settings.local.json`);
  if (facts.managedDir) globs.push(folder(facts.managedDir));
  return [...new Set(globs)];
}

function regexes(globs: readonly string[]): RegexSource[] {
  return globs.flatMap((g) => {
    const r = globRegex(g);
    return r ? [r] : [];
  });
}

function builtInRule(id: string, deny: string[], except: string[], actors: CompiledRule['actors']): CompiledRule {
  return {
    id,
    description: 'hookpolicy\'s own files are written by people, not agents',
    source: { file: BUILT_IN, line: 0, column: 0 },
    events: ['PreToolUse'],
    tools: { names: [...WRITING_TOOLS], patterns: [] },
    prompts: null,
    agents: null,
    match: [],
    paths: { allow: null, deny: regexes(deny), except: except.length > 0 ? regexes(except) : null, globs: { deny, ...(except.length > 0 ? { except } : {}) } },
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
  const openings = policy.settings.selfProtection ?? { except: [], mainSession: [] };
  const rules = openings.mainSession.length === 0
    ? [builtInRule(SELF_PROTECTION_ID, deny, openings.except, undefined)]
    : [
      builtInRule(SELF_PROTECTION_ID, deny, openings.except, 'agents'),
      builtInRule(SELF_PROTECTION_MAIN_ID, deny, [...openings.except, ...openings.mainSession], 'main'),
    ];
  const all = [...policy.rules, ...rules];
  return { ...policy, rules: all, index: buildRuleIndex(all) };
}
