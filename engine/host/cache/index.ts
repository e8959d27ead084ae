/**
 * The policy cache, one room: everything between the policy files on disk and the
 * compiled policy the runner evaluates. Its entry point, `loadPolicyForEvent` (and
 * `loadPolicy` for the whole policy), returns a policy that passed every check (fresh
 * sources, a seal that matches, a folder only this user can write), or rebuilds it; a
 * file that fails a check is reported, never used.
 *
 * - policy-cache.ts: the entry points, freshness, rebuilds;
 * - cache-store.ts: the folders and atomic, sealed files;
 * - cache-trust.ts: seals and folder checks;
 * - view-store.ts, policy-views.ts: the per-event views the runner reads;
 * - sources.ts: fingerprints of the policy files;
 * - failed-build.ts: builds that failed, remembered until a source changes;
 * - cache-tidy.ts: what a build removes, from one listing of its folder;
 * - abandoned-builds.ts: the sweep of builds whose projects are gone (hourly at most).
 */
export { lastArtefact, loadPolicy, loadPolicyForEvent, prepareRunnerCache, type CachedArtefact, type LoadPolicyOptions, type LoadPolicyResult, type PolicyCompiler } from './policy-cache';
export { cacheDirectories, cacheFileName } from './cache-store';
export { checkSources, sha256Hex, statFingerprint, type SourceHash } from './sources';
export { cacheFolderDistrust } from './cache-trust';
