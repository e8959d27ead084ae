/**
 * A compiled policy kept in memory by a long-running process (`policy serve`), never
 * served stale: every get() checks the source files (stat fingerprint, else content
 * hash) and rebuilds when any changed. fs.watch on the folders of the sources only
 * makes the rebuild happen before the next request instead of during it.
 */
import * as fs from 'fs';
import * as path from 'path';
import { loadPolicy, type LoadPolicyResult, type PolicyCompiler } from './cache';
import { checkSources } from './cache';

export interface LivePolicyOptions {
  /** The root policy files, looked up again at every get() (a policy file may appear). */
  roots: () => string[];
  env: Readonly<Record<string, string | undefined>>;
  compiler: () => PolicyCompiler;
  /** Cache folders for the compiled artefact; defaults to cacheDirectories(env). */
  dirs?: string[];
  /** Called after each (re)build, e.g. to log it. */
  onBuild?: (roots: string[], result: LoadPolicyResult) => void;
  /** Watch the source folders (default true). */
  watch?: boolean;
}

export interface LivePolicy {
  /** The current policy for the current roots (null policy: it does not build). */
  get(): { roots: string[]; result: LoadPolicyResult };
  close(): void;
}

/** A failed build is retried at most this often unless a watched folder changes. */
const FAILED_RETRY_MS = 1000;

/**
 * @example const live = createLivePolicy({ roots: () => ['/p/policies.yaml'], env, compiler });
 *   live.get().result.policy?.rules.length // 3; edit the file, and the next get() has the edit
 */
export function createLivePolicy(options: LivePolicyOptions): LivePolicy {
  let held: { key: string; roots: string[]; result: LoadPolicyResult; at: number } | null = null;
  let watchers: fs.FSWatcher[] = [];
  let dirty = false;

  const build = (roots: string[]) => {
    const result = loadPolicy({ roots, env: options.env, compiler: options.compiler, dirs: options.dirs, guards: options.compiler().guardsFor?.(options.env) });
    held = { key: roots.join('\0'), roots, result, at: Date.now() };
    dirty = false;
    if (options.watch !== false) rewatch([...roots, ...result.sources.map((s) => s.file)]);
    options.onBuild?.(roots, result);
    return held;
  };

  const rewatch = (files: string[]) => {
    for (const w of watchers) w.close();
    watchers = [];
    const names = new Map<string, Set<string>>();
    for (const f of files) names.set(path.dirname(f), (names.get(path.dirname(f)) ?? new Set()).add(path.basename(f)));
    for (const [dir, watched] of names) {
      try {
        const watcher = fs.watch(dir, { persistent: false }, (_event, filename) => {
          // Only a change of a source: the folder may also hold the decision log, appended at every decision.
          if (filename !== null && !watched.has(String(filename))) return;
          dirty = true;
          // Rebuild soon, off the request path; a burst of events (an editor's save) is one rebuild.
          setTimeout(() => {
            if (dirty && held) build(held.roots);
          }, 25).unref();
        });
        watcher.on('error', () => undefined);
        watchers.push(watcher);
      } catch {
        // A folder that cannot be watched is still checked at every get().
      }
    }
  };

  const isCurrent = (h: NonNullable<typeof held>, key: string): boolean => {
    if (h.key !== key) return false;
    if (h.result.policy === null) return !dirty && Date.now() - h.at < FAILED_RETRY_MS;
    return checkSources(h.result.sources).fresh;
  };

  return {
    get() {
      const roots = options.roots();
      const key = roots.join('\0');
      const current = held && isCurrent(held, key) ? held : build(roots);
      return { roots: current.roots, result: current.result };
    },
    close() {
      for (const w of watchers) w.close();
      watchers = [];
    },
  };
}
