/**
 * Which policy files the runner loads: every --config, else $POLICY_CONFIG, else
 * `.claude/policies.yaml`, else `policies.yaml` under the project root.
 */
import * as fs from 'fs';
import * as path from 'path';
import { toAbsolutePosix } from './project-root';

export interface DiscoverOptions {
  /** Paths given with --config, in order. */
  configs: readonly string[];
  env: Readonly<Record<string, string | undefined>>;
  projectRoot: string;
  /** Whether a file exists; defaults to the file system. */
  exists?: (file: string) => boolean;
}

/** The conventional places, in order of preference, relative to the project root. */
export const DEFAULT_POLICY_FILES: readonly string[] = ['.claude/policies.yaml', 'policies.yaml'];

/**
 * The absolute root policy files, or an empty list when none is named or found.
 * Named files (--config, $POLICY_CONFIG) are returned even when missing, so the loader
 * reports them as `policy-not-found` instead of silently using another policy.
 * @example discoverPolicyFiles({ configs: ['ci.yaml'], env: {}, projectRoot: '/p' }) // ['/p/ci.yaml']
 */
export function discoverPolicyFiles(options: DiscoverOptions): string[] {
  const { configs, env, projectRoot } = options;
  const exists = options.exists ?? isFile;
  const resolve = (p: string) => toAbsolutePosix(p, projectRoot);
  if (configs.length > 0) return unique(configs.map(resolve));
  const fromEnv = (env.POLICY_CONFIG ?? '').split(path.delimiter).filter((p) => p.trim() !== '');
  if (fromEnv.length > 0) return unique(fromEnv.map((p) => resolve(p.trim())));
  const found = DEFAULT_POLICY_FILES.map(resolve).find(exists);
  return found ? [found] : [];
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
