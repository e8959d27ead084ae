/**
 * The runner's views of an artefact on disk (policy-views.ts says what they hold): one
 * `<hash>.view.<key>.json` per event and tool, and `<hash>.head.json`, written last, which
 * names the build whose views it goes with; views the new build does not have are then
 * removed. Written and read through cache-store.ts.
 */
import type { CompiledPolicy } from '../../types';
import * as path from 'path';
import { readCacheFiles, removeOtherViews, shortKey, writeCacheFile } from './cache-store';
import { isViewOf, policyFromView, policyViews, type PolicyView, type ViewCatalog } from './policy-views';
import type { SourceHash } from './sources';

/** The head of an artefact's views: the policy without its rules, and which views its build wrote. */
export interface CachedHead {
  engine: string;
  roots: string[];
  sources: SourceHash[];
  build: string;
  policy: CompiledPolicy;
  views: ViewCatalog;
}

/**
 * Writes the views of `artefact` for the cache file `name`, then their head, then removes
 * the views of earlier builds that this one no longer has. Returns the errors met (none:
 * every view and the head were written).
 */
export function storeViews(dirs: string[], name: string, artefact: Omit<CachedHead, 'build' | 'views'>): string[] {
  const build = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
  const { catalog, views } = policyViews(artefact.policy, build);
  const errors: string[] = [];
  const written = new Map<string, Set<string>>();
  for (const view of views) {
    const file = viewName(name, view.event, view.tool);
    const result = writeCacheFile(dirs, file, JSON.stringify(view));
    if ('errors' in result) errors.push(...result.errors);
    else addTo(written, path.dirname(result.file), file);
  }
  if (errors.length > 0) return errors;
  const headErrors = writeHead(dirs, name, { ...artefact, build, policy: policyFromView(artefact.policy, null), views: catalog });
  if (headErrors.length === 0) for (const [dir, files] of written) removeOtherViews(dir, name, files);
  return headErrors;
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
    const ok = !!h && typeof h === 'object' && typeof h.build === 'string' && !!h.views && typeof h.views === 'object' && isArtefact(h);
    yield { file, head: ok ? (h as CachedHead) : null };
  }
}

/** The view of `build` for `event` and `tool`; undefined when no folder has it. */
export function readView(dirs: string[], name: string, build: string, event: string, tool: string | null): PolicyView | undefined {
  for (const { text } of readCacheFiles(dirs, viewName(name, event, tool))) {
    const value = parseJson(text);
    if (isViewOf(value, build, event, tool)) return value;
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

function viewName(name: string, event: string, tool: string | null): string {
  return `${name.slice(0, -'.json'.length)}.view.${shortKey(`${event}\0${tool ?? ''}`)}.json`;
}
