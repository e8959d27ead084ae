/**
 * The runner's views of an artefact on disk (policy-views.ts says what they hold): one
 * `<hash>.view.<key>.json` per event and tool, and `<hash>.head.json`, written last, which
 * names the build whose views it goes with; views of earlier builds are then removed.
 * Views are written as events need them: a new build writes the view of the event that
 * built it, and the first event of each other kind cuts its own from the full artefact
 * (a policy edit then writes 2 or 3 files, not 30). Written and read through cache-store.ts.
 */
import type { CompiledPolicy, HookEvent } from '../../types';
import * as path from 'path';
import { readCacheFiles, shortKey, writeCacheFile } from './cache-store';
import { isViewOf, namedAgents, policyFromView, policyView, viewCatalog, viewTool, whoKey, whoOf, type PolicyView, type ViewCatalog, type ViewWho } from './policy-views';
import type { SourceHash } from './sources';

/** The head of an artefact's views: the policy without its rules, and which views its build wrote. */
export interface CachedHead {
  engine: string;
  roots: string[];
  sources: SourceHash[];
  build: string;
  policy: CompiledPolicy;
  views: ViewCatalog;
  /** The agents the rules name (namedAgents): whoOf tells only these apart, the head having no rules to read them from. */
  namedAgents: string[];
  /** What the policy's self-protection rules were made for (guardsKey), as in the artefact. */
  guards?: string;
  /** View file name -> the stat fingerprint it had when its seal was last found good. */
  stamps?: Record<string, string>;
}

/** The event (and tool) a view is wanted for. */
export interface WantedView {
  event: string;
  tool: string | null;
  /** The event itself: the view is then cut for whoever acts in it (policy-views.ts ViewWho). */
  subject?: HookEvent;
}

/** What storeViews wrote: the errors met, and per folder the view files of the new build (null: its head was not written). */
export interface StoredViews {
  errors: string[];
  views: Map<string, Set<string>> | null;
}

/**
 * Writes a new build's head for `artefact`, with the view `wanted` needs (when its event
 * has rules). The caller then removes the views of earlier builds (cache-tidy.ts), in each
 * folder but those `views` names.
 */
export function storeViews(dirs: string[], name: string, artefact: Omit<CachedHead, 'build' | 'views' | 'namedAgents'>, wanted: WantedView): StoredViews {
  const build = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
  const catalog = viewCatalog(artefact.policy);
  const which = viewTool(catalog, wanted.event, wanted.tool);
  const named = namedAgents(artefact.policy.rules);
  const who = wanted.subject ? whoOf(artefact.policy.agents, named, wanted.subject) : undefined;
  const view = which === undefined ? null : policyView(artefact.policy, build, wanted.event, which, who);
  const written = new Map<string, Set<string>>();
  if (view) {
    const file = viewName(name, view.event, view.tool, view.who);
    const result = writeCacheFile(dirs, file, JSON.stringify(view));
    if ('errors' in result) return { errors: result.errors, views: null };
    addTo(written, path.dirname(result.file), file);
  }
  const head = writeCacheFile(dirs, headName(name), JSON.stringify({ ...artefact, build, policy: policyFromView(artefact.policy, null), views: catalog, namedAgents: named }));
  if ('errors' in head) return { errors: head.errors, views: null };
  // The head's folder had no view written to it: every view there is an earlier build's.
  if (!written.has(path.dirname(head.file))) written.set(path.dirname(head.file), new Set());
  return { errors: [], views: written };
}

/**
 * Cuts the view of `build` for `event` and `tool` from the full policy of that build and
 * writes it beside the head, for the events after this one. Returns the view, also when it
 * could not be written.
 */
export function storeView(dirs: string[], name: string, policy: CompiledPolicy, build: string, event: string, tool: string | null, who?: ViewWho): PolicyView | null {
  const view = policyView(policy, build, event, tool, who);
  if (view) writeCacheFile(dirs, viewName(name, event, tool, who), JSON.stringify(view));
  return view;
}

function addTo(map: Map<string, Set<string>>, key: string, value: string): void {
  const set = map.get(key);
  if (set) set.add(value);
  else map.set(key, new Set([value]));
}

/** Writes a head (again, e.g. with refreshed fingerprints); returns the errors met. */
export function writeHead(dirs: string[], name: string, head: CachedHead): string[] {
  const written = writeCacheFile(dirs, headName(name), JSON.stringify(head));
  return 'errors' in written ? written.errors : [];
}

/**
 * The heads found for `name`, in folder order and read as the caller goes; `head` is null
 * for one that is corrupt or fails `isArtefact` (the artefact checks of policy-cache.ts).
 */
export function* readHeads(dirs: string[], name: string, isArtefact: (value: unknown) => boolean): Generator<{ file: string; head: CachedHead | null }> {
  for (const { file, text } of readCacheFiles(dirs, headName(name))) {
    const h = parseJson(text) as Partial<CachedHead> | undefined;
    const ok = !!h && typeof h === 'object' && typeof h.build === 'string' && !!h.views && typeof h.views === 'object'
      && Array.isArray(h.namedAgents) && h.namedAgents.every((a) => typeof a === 'string') && isArtefact(h);
    yield { file, head: ok ? (h as CachedHead) : null };
  }
}

/** The view of `build` for `event` and `tool`; undefined when no folder has it. */
export function readView(dirs: string[], name: string, build: string, event: string, tool: string | null, who?: ViewWho): PolicyView | undefined {
  return readStampedView(dirs, name, build, event, tool, who, undefined)?.view;
}

/**
 * readView for a head that may know the view file's stat fingerprint (`head.stamps`): when
 * the file still has it, its seal is not checked again (~0.5 ms of hashing in a cold
 * process, and V8 then compiling that loop on another thread: ~4 MB of memory). Also says
 * the file's fingerprint now, for the head to keep.
 */
export function readStampedView(dirs: string[], name: string, build: string, event: string, tool: string | null, who: ViewWho | undefined, head: Pick<CachedHead, 'stamps'> | undefined, now?: number): { view: PolicyView; file: string; fingerprint: string | null } | undefined {
  const file = viewName(name, event, tool, who);
  for (const { text, fingerprint } of readCacheFiles(dirs, file, { fingerprint: head?.stamps?.[file], now })) {
    const value = parseJson(text);
    if (isViewOf(value, build, event, tool, who)) return { view: value, file, fingerprint };
  }
  return undefined;
}

/** The parsed JSON, or undefined when the text is not JSON. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** `<hash>.head.json` beside `<hash>.json`. */
function headName(name: string): string {
  return `${name.slice(0, -'.json'.length)}.head.json`;
}

function viewName(name: string, event: string, tool: string | null, who?: ViewWho): string {
  return `${name.slice(0, -'.json'.length)}.view.${shortKey(`${event}\0${tool ?? ''}${whoKey(who)}`)}.json`;
}
