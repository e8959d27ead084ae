/**
 * A policy that does not build is remembered too, beside the compiled artefacts, so that
 * a broken policy costs one failed build, not a YAML parse and a schema compile at every
 * event until it is fixed. Like an artefact, it holds only while every file it read is
 * unchanged. A build that failed because a file is missing is never remembered: creating
 * the file would not change any file the build read.
 */
import * as fs from 'fs';
import * as path from 'path';
import type { Diagnostic } from '../../types';
import { readCacheFiles, writeCacheFile } from './cache-store';
import type { SourceHash } from './sources';

export interface FailedBuild {
  engine: string;
  roots: string[];
  sources: SourceHash[];
  diagnostics: Diagnostic[];
  declaredOnError?: 'open' | 'closed' | null;
}

/** @example failedBuildName('5d1f.json') // '5d1f.failed.json' */
export function failedBuildName(artefactName: string): string {
  return artefactName.replace(/\.json$/, '.failed.json');
}

/**
 * True when a failure can be remembered: none of its errors is a missing file.
 * @example cacheableFailure([diagnostic('include-not-found', '...')]) // false
 */
export function cacheableFailure(diagnostics: readonly Diagnostic[]): boolean {
  return diagnostics.some((d) => d.severity === 'error') && !diagnostics.some((d) => d.code.endsWith('-not-found'));
}

/** The remembered failure for these roots, or null (unreadable or for another engine). */
export function readFailedBuild(dirs: readonly string[], artefactName: string, engine: string, roots: readonly string[]): FailedBuild | null {
  for (const { text } of readCacheFiles(dirs, failedBuildName(artefactName))) {
    try {
      const f = JSON.parse(text) as Partial<FailedBuild>;
      const ok = f.engine === engine && Array.isArray(f.roots) && f.roots.join('\0') === roots.join('\0')
        && Array.isArray(f.sources) && Array.isArray(f.diagnostics);
      if (ok) return f as FailedBuild;
    } catch {
      // A corrupt file is a plain miss: the build runs again.
    }
  }
  return null;
}

/** Remembers a failure (best effort: not being able to costs only time). */
export function writeFailedBuild(dirs: readonly string[], artefactName: string, failed: FailedBuild): void {
  writeCacheFile(dirs, failedBuildName(artefactName), JSON.stringify(failed));
}

/** Forgets a failure once the policy builds again. */
export function forgetFailedBuild(dirs: readonly string[], artefactName: string): void {
  for (const dir of dirs) {
    try {
      fs.rmSync(path.join(dir, failedBuildName(artefactName)), { force: true });
    } catch {
      // Not there, or not ours to remove: it no longer matches the sources anyway.
    }
  }
}
