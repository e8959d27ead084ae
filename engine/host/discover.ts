/**
 * Which policy files the runner loads: every --config, else the team's policy
 * (`.claude/policies.yaml`, else `policies.yaml` under the project root). $POLICY_CONFIG
 * names other files, and replaces the team's policy only where there is none, or where
 * the team's top file allows it (`settings.policy_config: allow`): a variable set in the
 * session's environment must not switch the team's policy off unseen.
 */
import * as fs from 'fs';
import * as path from 'path';
import { diagnostic } from '../diagnostics';
import type { Diagnostic } from '../types';
import { toAbsolutePosix } from './project-root';

export interface DiscoverOptions {
  /** Paths given with --config, in order. */
  configs: readonly string[];
  env: Readonly<Record<string, string | undefined>>;
  projectRoot: string;
  /** Whether a file exists; defaults to the file system. */
  exists?: (file: string) => boolean;
}

/** What choosePolicyFiles found: the files to load, and $POLICY_CONFIG's when they wait on the team's word. */
export interface PolicyChoice {
  /** --config's files, else the team's policy, else $POLICY_CONFIG's when there is no team policy. */
  roots: string[];
  /**
   * $POLICY_CONFIG's files when it is set and `roots` is the team's policy: they replace it
   * only when that policy allows it (settings.policy_config: allow). Empty otherwise.
   */
  requested: string[];
}

/** The conventional places, in order of preference, relative to the project root. */
export const DEFAULT_POLICY_FILES: readonly string[] = ['.claude/policies.yaml', 'policies.yaml'];

/**
 * The root policy files, before the team's word on $POLICY_CONFIG: --config's, else the
 * team's policy (with $POLICY_CONFIG's files as `requested`), else $POLICY_CONFIG's.
 * Named files (--config, $POLICY_CONFIG) are returned even when missing, so the loader
 * reports them as `policy-not-found` instead of silently using another policy.
 * @example choosePolicyFiles({ configs: [], env: { POLICY_CONFIG: 'x.yaml' }, projectRoot: '/p' })
 *   // { roots: ['/p/.claude/policies.yaml'], requested: ['/p/x.yaml'] } when the first exists
 */
export function choosePolicyFiles(options: DiscoverOptions): PolicyChoice {
  const { configs, env, projectRoot } = options;
  const exists = options.exists ?? isFile;
  const resolve = (p: string) => toAbsolutePosix(p, projectRoot);
  if (configs.length > 0) return { roots: unique(configs.map(resolve)), requested: [] };
  const named = unique((env.POLICY_CONFIG ?? '').split(path.delimiter).filter((p) => p.trim() !== '').map((p) => resolve(p.trim())));
  const found = DEFAULT_POLICY_FILES.map(resolve).find(exists);
  if (!found) return { roots: named, requested: [] };
  const team = [found];
  return { roots: team, requested: named.length > 0 && !(named.length === 1 && named[0] === found) ? named : [] };
}

/**
 * The absolute root policy files, or an empty list when none is named or found: those of
 * choosePolicyFiles, the team's policy where $POLICY_CONFIG waits on its word (a caller that
 * compiles the team's policy settles that with settlePolicyChoice).
 * @example discoverPolicyFiles({ configs: ['ci.yaml'], env: {}, projectRoot: '/p' }) // ['/p/ci.yaml']
 */
export function discoverPolicyFiles(options: DiscoverOptions): string[] {
  return choosePolicyFiles(options).roots;
}

/**
 * The policy to use once the team's is loaded: `load(choice.roots)`, or, when
 * $POLICY_CONFIG's files wait on it and `allows` says its top file lets them replace it,
 * `load(choice.requested)`; otherwise the team's, with the warning that says the variable
 * was ignored. `load` is the runner's cache or a command's compile.
 * @example settlePolicyChoice(choice, '/p', compile, (r) => r.policy?.settings.policyConfig === 'allow')
 *   // { roots: ['/p/.claude/policies.yaml'], loaded: ..., notice: <policy-config-ignored> }
 */
export function settlePolicyChoice<T>(choice: PolicyChoice, projectRoot: string, load: (roots: string[]) => T, allows: (team: T) => boolean): { roots: string[]; loaded: T; notice: Diagnostic | null } {
  const team = load(choice.roots);
  if (choice.requested.length === 0) return { roots: choice.roots, loaded: team, notice: null };
  if (allows(team)) return { roots: choice.requested, loaded: load(choice.requested), notice: null };
  return { roots: choice.roots, loaded: team, notice: policyConfigIgnored(choice, projectRoot) };
}

/** The warning for $POLICY_CONFIG's files left unused: the team's policy (`choice.roots`) does not allow them. */
function policyConfigIgnored(choice: PolicyChoice, projectRoot: string): Diagnostic {
  const show = (files: string[]) => files.map((f) => relativeTo(projectRoot, f)).join(', ');
  return diagnostic('policy-config-ignored', `$POLICY_CONFIG names ${show(choice.requested)}, but the team's policy ${show(choice.roots)} does not let it replace it: ignored`,
    undefined, `the team allows it in its top file: settings.policy_config: allow`);
}

function relativeTo(root: string, file: string): string {
  return file.startsWith(`${root}/`) ? file.slice(root.length + 1) : file;
}

/**
 * The first folder, from `start` up to the root, that holds one of the default policy
 * files; null when none does. This is how `policy lint` finds the project from a
 * subfolder, as ESLint finds its config.
 * @example findPolicyProject('/p/src/deep') // '/p' when /p/.claude/policies.yaml exists
 */
export function findPolicyProject(start: string, exists: (file: string) => boolean = isFile): string | null {
  let dir = path.resolve(start);
  for (;;) {
    if (DEFAULT_POLICY_FILES.some((f) => exists(path.join(dir, f)))) return dir.split(path.sep).join('/');
    const parent = path.dirname(dir);
    if (parent === dir) return null;
    dir = parent;
  }
}

function isFile(file: string): boolean {
  try {
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

function unique(files: string[]): string[] {
  return [...new Set(files)];
}
