/**
 * Entry of dist/compile.cjs: the slow path (yaml, ajv, compile) that the hook runner
 * loads only when its cached artefact is missing or stale.
 */
import { buildPolicy } from '../build-policy';
import { firstDefined, precedenceOrder } from '../compile/precedence';
import type { CompiledPolicy, Diagnostic, LoadedFile } from '../types';
import { withSelfProtection, type SelfProtectionFacts } from '../self-protection';
import { createFsReader, defaultPackDir } from './fs-reader';
import { readShippedParses } from './shipped-parses';

/** For the build, which writes the shipped packs' parses beside this bundle. */
export { shippedParsesOf, SHIPPED_PARSES_FILE } from './shipped-parses';
import { guardsKey, selfProtectionFacts } from './self-protection-facts';
import type { SourceHash } from './cache';
import { withCompileMemo } from './cache/compile-memo';

export interface CompileResult {
  policy: CompiledPolicy | null;
  diagnostics: Diagnostic[];
  /** Every file read while building, with the hash of what was read. */
  sources: SourceHash[];
  /** The on_error the files declare, read even when the policy does not build. */
  declaredOnError: 'open' | 'closed' | null;
  /** With the built-in self-protection rules: guardsKey of the facts they were made for. */
  guards?: string;
}

/**
 * Loads, validates and compiles the policy rooted at `roots`; with `facts` (what the
 * runner, explain, test, init and serve pass), the built-in self-protection rules follow
 * the team's (engine/self-protection.ts). `known`: the sources of the build before, whose
 * unchanged files keep their hashes.
 * @example compilePolicyFiles(['/p/.claude/policies.yaml'], undefined, selfProtectionFacts(process.env)).policy?.rules.at(-1)?.id // 'hookpolicy-self-protection'
 */
export function compilePolicyFiles(roots: string[], packDir: string = defaultPackDir(), facts?: SelfProtectionFacts, known?: readonly SourceHash[]): CompileResult {
  const reader = createFsReader(packDir, () => readShippedParses(), { known });
  const { policy, diagnostics, files } = buildPolicy(roots, reader);
  const guarded = policy && facts ? withSelfProtection(policy, facts) : policy;
  return { policy: guarded, diagnostics, sources: reader.sources(), declaredOnError: declaredOnError(files) };
}

/**
 * compilePolicyFiles with the built-in self-protection rules, the facts read from `env`
 * (the runner's cache miss and every command that answers as the runner does). With the
 * policy cache's folders, the regex-safety verdicts and globs' regexes of earlier compiles
 * are reused there (cache/compile-memo.ts).
 * @example compileGuarded(['/p/.claude/policies.yaml'], process.env, '/p')
 */
export function compileGuarded(
  roots: string[], env: Readonly<Record<string, string | undefined>>, projectRoot?: string, cacheDirs?: readonly string[], known?: readonly SourceHash[],
): CompileResult {
  const facts = selfProtectionFacts(env, projectRoot);
  const compile = () => ({ ...compilePolicyFiles(roots, defaultPackDir(), facts, known), guards: guardsKey(facts) });
  return cacheDirs ? withCompileMemo(cacheDirs, compile) : compile();
}

/** A broken policy that says `on_error: closed` still fails closed, even on a cold cache. */
function declaredOnError(files: readonly LoadedFile[]): 'open' | 'closed' | null {
  const value = firstDefined(precedenceOrder(files), (doc) => doc.settings?.on_error)?.value;
  return value === 'open' || value === 'closed' ? value : null;
}

/**
 * guardsKey of the facts compileGuarded guards for `env` and `projectRoot`: what a reader of
 * the policy cache compares with an artefact's before using it.
 * @example guardsFor(process.env, '/p') // '["/p","/home/me",...]'
 */
export function guardsFor(env: Readonly<Record<string, string | undefined>>, projectRoot?: string): string {
  return guardsKey(selfProtectionFacts(env, projectRoot));
}
