/**
 * The runner's policy cache, made by a command that has just compiled the project's policy
 * (`policy lint`, `policy init`), so that the first hook event after an edit saved through
 * it reads a view instead of compiling. Whatever goes wrong costs only that: the runner
 * compiles, as it would have.
 */
import { prepareRunnerCache } from '../engine/host/cache';
import { compileGuarded, compilePolicyFiles, guardsFor } from '../engine/host/compile-entry';

/**
 * @example prepareRunnerCacheFor(['/p/.claude/policies.yaml'], '/p')
 */
export function prepareRunnerCacheFor(roots: string[], projectRoot: string, env: Readonly<Record<string, string | undefined>> = process.env): void {
  try {
    prepareRunnerCache({
      roots,
      env,
      // As the runner compiles on a miss, for the project the command worked on.
      compiler: () => ({ compilePolicyFiles, compileGuarded: (r, e, _root, dirs) => compileGuarded(r, e, projectRoot, dirs) }),
      // Made for this command's facts; a runner whose facts differ compiles its own.
      guards: guardsFor(env, projectRoot),
    });
  } catch {
    // The runner builds it at its first event instead.
  }
}
