/**
 * The compiled-policy cache: the runner's fast path. An artefact is reused only while
 * every file it was built from still has the same sha256, so an edit to any included
 * file rebuilds it; a cache that cannot be read or written only costs time (a
 * `cache-error` warning), never a decision.
 */
import { diagnostic } from '../../diagnostics';
import type { CompiledPolicy, Diagnostic, HookEvent } from '../../types';
import * as path from 'path';
import { cacheDirectories, cacheFileName, readCacheFiles, removeOtherViews, takeCacheProblems, writeCacheFile } from './cache-store';
import { tidyAfterBuild } from './cache-tidy';
import type { CompileResult } from '../compile-entry';
import { ENGINE_VERSION } from '../engine-version';
import { cacheableFailure, forgetFailedBuild, readFailedBuild, writeFailedBuild } from './failed-build';
import { namedAgents, policyFromView, viewTool, whoOf, type PolicyView, type ViewWho } from './policy-views';
import { checkSources, fingerprintSources, hashFile, type SourceHash } from './sources';
import { parseJson, readHeads, readStampedView, readView, storeView, storeViews, writeHead, type CachedHead, type StoredViews, type WantedView } from './view-store';

/** What is stored: the policy and the hashes that keep it valid. */
export interface CachedArtefact {
  engine: string;
  roots: string[];
  sources: SourceHash[];
  policy: CompiledPolicy;
  /** What its self-protection rules were made for (guardsKey), when the compiler says. */
  guards?: string;
}

/** The slow path, loaded lazily (dist/compile.cjs). */
export interface PolicyCompiler {
  compilePolicyFiles(roots: string[]): CompileResult;
  /**
   * The same with the built-in self-protection rules (dist/compile.cjs has it; test compilers may not).
   * `known`: the sources of the build before, whose unchanged files are not hashed again.
   */
  compileGuarded?(roots: string[], env: Readonly<Record<string, string | undefined>>, projectRoot?: string, cacheDirs?: readonly string[], known?: readonly SourceHash[]): CompileResult;
  /** guardsKey of the facts compileGuarded would guard for `env` (dist/compile.cjs has it). */
  guardsFor?(env: Readonly<Record<string, string | undefined>>, projectRoot?: string): string;
}

export interface LoadPolicyOptions {
  roots: string[];
  env: Readonly<Record<string, string | undefined>>;
  /** Returns the compiler; called only on a cache miss. */
  compiler: () => PolicyCompiler;
  engineVersion?: string;
  /** Cache folders; defaults to cacheDirectories(env). */
  dirs?: string[];
  hash?: (file: string) => string | null;
  /** Milliseconds clock, for deciding when a stat fingerprint can be trusted. */
  now?: () => number;
  /**
   * guardsKey of the facts this caller's own compile would guard: an artefact made for
   * other facts (by a command run elsewhere, or another installation) is not used.
   */
  guards?: string;
}

export interface LoadPolicyResult {
  /** The policy, or null when it does not build. */
  policy: CompiledPolicy | null;
  /** The build's diagnostics on a cache miss (errors when policy is null). */
  diagnostics: Diagnostic[];
  /** cache-error warnings, for stderr only. */
  warnings: Diagnostic[];
  fromCache: boolean;
  /** on_error of the last artefact built for these roots, even a stale one. */
  lastOnError: 'open' | 'closed' | null;
  /** on_error the current files declare, when the policy does not build. */
  declaredOnError?: 'open' | 'closed' | null;
  /** The files the policy (or the failed build) was read from, for callers that keep it in memory. */
  sources: SourceHash[];
}

/**
 * The compiled policy for `roots`, from the cache when it is fresh, else rebuilt and
 * stored. A build that failed is remembered the same way (failed-build.ts): `policy` is
 * then null with the build's diagnostics, `fromCache` true. `staleHead`: the caller found
 * the head of the stored build stale, so the full artefact written with it is not read
 * (its on_error is the head's), and the files it lists that did not change are not hashed
 * again.
 * @example loadPolicy({ roots: ['/p/.claude/policies.yaml'], env, compiler: () => require('../compile.cjs') })
 */
export function loadPolicy(options: LoadPolicyOptions, wanted: WantedView = { event: '', tool: null }, staleHead?: Pick<CachedHead, 'policy' | 'sources'>): LoadPolicyResult {
  const engine = options.engineVersion ?? ENGINE_VERSION;
  const dirs = options.dirs ?? cacheDirectories(options.env);
  const name = cacheFileName(options.roots, engine);
  const { artefacts, warnings } = staleHead ? { artefacts: [], warnings: [] } : readArtefacts(dirs, name, engine);
  const lastOnError = (staleHead ?? artefacts[0])?.policy.settings.onError ?? null;
  const hash = options.hash ?? hashFile;
  const now = options.now ?? Date.now;
  for (const artefact of artefacts) {
    if (!sameList(artefact.roots, options.roots) || !sameGuards(artefact, options)) continue;
    const check = checkSources(artefact.sources, hash, now());
    if (!check.fresh) continue;
    // Fingerprints that can now be trusted are written back once, so later events skip hashing.
    if (check.refreshed) writeCacheFile(dirs, name, JSON.stringify({ ...artefact, sources: check.refreshed }));
    return reported({ policy: artefact.policy, diagnostics: [], warnings, fromCache: true, lastOnError, sources: check.refreshed ?? artefact.sources });
  }
  const failed = readFailedBuild(dirs, name, engine, options.roots);
  if (failed && checkSources(failed.sources, hash, now()).fresh) {
    return reported({ policy: null, diagnostics: failed.diagnostics, warnings, fromCache: true, lastOnError, sources: failed.sources, declaredOnError: failed.declaredOnError ?? null });
  }

  const compiler = options.compiler();
  const known = staleHead?.sources;
  const built = compiler.compileGuarded ? compiler.compileGuarded(options.roots, options.env, undefined, dirs, known) : compiler.compilePolicyFiles(options.roots);
  const sources = fingerprintSources(built.sources, hash, now(), known);
  if (built.policy) {
    const errors = storeArtefact(dirs, name, { engine, roots: options.roots, sources, policy: built.policy, ...(built.guards === undefined ? {} : { guards: built.guards }) }, wanted);
    if (errors.length > 0) warnings.push(diagnostic('cache-error', `cannot write the policy cache (${errors.join('; ')})`));
    if (failed) forgetFailedBuild(dirs, name);
  } else if (cacheableFailure(built.diagnostics)) {
    writeFailedBuild(dirs, name, { engine, roots: options.roots, sources, diagnostics: built.diagnostics, declaredOnError: built.declaredOnError ?? null });
  }
  return reported({ policy: built.policy, diagnostics: built.diagnostics, warnings, fromCache: false, lastOnError, sources, declaredOnError: built.declaredOnError ?? null });
}

/**
 * The compiled policy for one event, as the runner needs it: from the head and the one
 * view that serves `event` and `tool` when they are fresh (a few KB to read, whatever the
 * policy's size), else the whole policy through loadPolicy, which writes them again. The
 * policy from a view holds only the rules that can apply to that event and tool, and,
 * given the event itself (`subject`), to whoever acts in it.
 * @example loadPolicyForEvent({ roots, env, compiler }, 'PreToolUse', 'Bash').policy?.rules // the Bash rules
 */
export function loadPolicyForEvent(options: LoadPolicyOptions, event: string, tool: string | null, subject?: HookEvent): LoadPolicyResult {
  const engine = options.engineVersion ?? ENGINE_VERSION;
  const dirs = options.dirs ?? cacheDirectories(options.env);
  const name = cacheFileName(options.roots, engine);
  const warnings: Diagnostic[] = [];
  const now = options.now ?? Date.now;
  let staleHead: CachedHead | undefined;
  for (const { file, head } of readHeads(dirs, name, (value) => validArtefact(value, engine))) {
    if (!head) warnings.push(diagnostic('cache-error', `ignoring a corrupt policy cache file; rebuilding it`, { file }));
    if (!head || !sameList(head.roots, options.roots) || !sameGuards(head, options)) continue;
    const check = checkSources(head.sources, options.hash ?? hashFile, now());
    // An edit: the artefact written with this head is stale too, and is not read again.
    if (!check.fresh) {
      staleHead = head;
      break;
    }
    const which = viewTool(head.views, event, tool);
    const who = subject ? whoOf(head.policy.agents, head.namedAgents, subject) : undefined;
    const stamped = which === undefined ? undefined : readStampedView(dirs, name, head.build, event, which, who, head, now());
    // The first event of its kind (and agent) since the build cuts its view from the full artefact.
    const view = which === undefined ? null : stamped?.view ?? viewFromArtefact(dirs, name, engine, options, head, event, which, who);
    if (view === undefined) break;
    // Fingerprints that can now be trusted (the sources', the view's) are written back once.
    const stamp = stamped && stamped.fingerprint !== null && head.stamps?.[stamped.file] !== stamped.fingerprint ? { [stamped.file]: stamped.fingerprint } : null;
    if (check.refreshed || stamp) writeHead(dirs, name, { ...head, sources: check.refreshed ?? head.sources, ...(stamp ? { stamps: { ...head.stamps, ...stamp } } : {}) });
    const sources = check.refreshed ?? head.sources;
    return reported({ policy: policyFromView(head.policy, view), diagnostics: [], warnings, fromCache: true, lastOnError: head.policy.settings.onError, sources });
  }
  const loaded = loadPolicy(options, { event, tool, subject }, staleHead);
  // A fresh full artefact without a head (it was removed, or a concurrent build replaced it): write it again.
  if (loaded.policy && loaded.fromCache) tidyViews(name, storeViews(dirs, name, { engine, roots: options.roots, sources: loaded.sources, policy: loaded.policy }, { event, tool, subject }));
  return { ...loaded, warnings: [...warnings, ...loaded.warnings] };
}

/**
 * The cache the runner reads, made ahead of it by a command that compiles the same files
 * anyway (`policy lint`, `policy init`): the full artefact, its head, and every view of the
 * head's build for the main session that is not on disk yet. The first hook event after an edit saved through
 * one of those commands then reads its view instead of compiling (in command mode, ~4x
 * Node's start-up). Returns what loading the policy returned.
 * @example prepareRunnerCache({ roots: ['/p/.claude/policies.yaml'], env, compiler }).policy // the compiled policy
 */
export function prepareRunnerCache(options: LoadPolicyOptions): LoadPolicyResult {
  const loaded = loadPolicy(options);
  if (!loaded.policy) return loaded;
  const engine = options.engineVersion ?? ENGINE_VERSION;
  const dirs = options.dirs ?? cacheDirectories(options.env);
  const name = cacheFileName(options.roots, engine);
  for (const { head } of readHeads(dirs, name, (value) => validArtefact(value, engine))) {
    if (!head || !sameList(head.roots, options.roots) || !sameGuards(head, options)) continue;
    // Views are cut from this compile for the head's build: only when its rules name the same agents.
    if (!sameList(namedAgents(loaded.policy.rules), head.namedAgents)) break;
    for (const [event, tools] of Object.entries(head.views)) {
      // The main session's views (subagents cut their own at their first event of a kind).
      const who = whoOf(loaded.policy.agents, head.namedAgents, { hook_event_name: event });
      for (const tool of [null, ...tools]) {
        if (readView(dirs, name, head.build, event, tool, who) === undefined) storeView(dirs, name, loaded.policy, head.build, event, tool, who);
      }
    }
    break;
  }
  return loaded;
}

/**
 * Writes the full artefact, the view `wanted` needs and their head (last, so that a head
 * on disk always finds its artefact), then removes what the build makes old
 * (cache-tidy.ts): earlier builds' views, other builds' old files for the same roots, and
 * now and then the builds whose roots are gone. Returns the errors met.
 */
function storeArtefact(dirs: string[], name: string, artefact: CachedArtefact, wanted: WantedView): string[] {
  const written = writeCacheFile(dirs, name, JSON.stringify(artefact));
  const stored = storeViews(dirs, name, artefact, wanted);
  const now = Date.now();
  const artefactDir = 'file' in written ? path.dirname(written.file) : null;
  if (artefactDir !== null) tidyAfterBuild(artefactDir, name, stored.views?.get(artefactDir) ?? null, now);
  tidyViews(name, stored, artefactDir);
  return [...('errors' in written ? written.errors : []), ...stored.errors];
}

/** Removes earlier builds' views in the folders storeViews wrote to, but `done` (tidied already). */
function tidyViews(name: string, stored: StoredViews, done: string | null = null): void {
  for (const [dir, views] of stored.views ?? []) if (dir !== done) removeOtherViews(dir, name, views);
}

/**
 * The view of the head's build for `event` and `tool`, cut from the full artefact when it
 * is fresh and built from the same roots, and written for the next event; undefined when
 * there is none (the runner then loads the policy the long way).
 */
function viewFromArtefact(
  dirs: string[], name: string, engine: string, options: LoadPolicyOptions, head: Pick<CachedHead, 'build' | 'namedAgents'>, event: string, tool: string | null, who: ViewWho | undefined,
): PolicyView | null | undefined {
  const now = options.now ?? Date.now;
  for (const artefact of readArtefacts(dirs, name, engine).artefacts) {
    if (!sameList(artefact.roots, options.roots) || !sameGuards(artefact, options) || !checkSources(artefact.sources, options.hash ?? hashFile, now()).fresh) continue;
    // `who` was told apart by the head's names: a view is cut only from rules naming the same agents.
    if (!sameList(namedAgents(artefact.policy.rules), head.namedAgents)) continue;
    return storeView(dirs, name, artefact.policy, head.build, event, tool, who);
  }
  return undefined;
}

/**
 * Cached artefact for `roots` without checking freshness, or null; used for its on_error
 * when the event or the policy is too broken to say.
 */
export function lastArtefact(
  roots: string[],
  env: Readonly<Record<string, string | undefined>>,
  engineVersion: string = ENGINE_VERSION,
): CachedArtefact | null {
  const dirs = cacheDirectories(env);
  return readArtefacts(dirs, cacheFileName(roots, engineVersion), engineVersion).artefacts[0] ?? null;
}

/** The result with every cache file left unused on the way (an untrusted folder, a broken seal) as a cache-error warning. */
function reported(result: LoadPolicyResult): LoadPolicyResult {
  const problems = takeCacheProblems();
  if (problems.length === 0) return result;
  const found = problems.map((p) => diagnostic('cache-error', `a policy cache file was ${p.problem}; rebuilding it`, { file: p.file }));
  return { ...result, warnings: [...result.warnings, ...found] };
}

function readArtefacts(dirs: string[], name: string, engine: string): { artefacts: CachedArtefact[]; warnings: Diagnostic[] } {
  const artefacts: CachedArtefact[] = [];
  const warnings: Diagnostic[] = [];
  for (const { file, text } of readCacheFiles(dirs, name)) {
    const artefact = parseArtefact(text, engine);
    if (artefact) artefacts.push(artefact);
    else warnings.push(diagnostic('cache-error', `ignoring a corrupt policy cache file; rebuilding it`, { file }));
  }
  return { artefacts, warnings };
}

/** An artefact (or head) the caller may use: made for the same facts, when the caller knows its own. */
function sameGuards(artefact: { guards?: string }, options: LoadPolicyOptions): boolean {
  return options.guards === undefined || artefact.guards === options.guards;
}

function sameList(a: readonly string[] | undefined, b: readonly string[]): boolean {
  return Array.isArray(a) && a.length === b.length && a.every((x, i) => x === b[i]);
}

function parseArtefact(text: string, engine: string): CachedArtefact | null {
  const value = parseJson(text);
  return validArtefact(value, engine) ? (value as CachedArtefact) : null;
}

function validArtefact(value: unknown, engine: string): boolean {
  const a = value as Partial<CachedArtefact> | null;
  return !!a && typeof a === 'object' && a.engine === engine && Array.isArray(a.sources)
    && a.sources.every((s) => s && typeof s.file === 'string' && typeof s.sha256 === 'string' && (s.stat === undefined || typeof s.stat === 'string'))
    && !!a.policy && typeof a.policy === 'object' && a.policy.format === 1
    && Array.isArray(a.policy.rules) && !!a.policy.settings && !!a.policy.index;
}
