/**
 * The runner in this process (cli/hook.ts runHook with the source compiler), for property
 * tests by the hundred; kept apart from hook-process.ts so suites that only spawn the
 * binary do not load the engine.
 */
import { runHook as runHookInProcess, type HookResult } from '../../cli/hook';
import { compilePolicyFiles } from '../../engine/host/compile-entry';
import type { SpawnOptions } from './hook-process';

/**
 * Runs the hook in this process (cli/hook.ts runHook with the source compiler).
 * @example (await hookInProcess('{}', { projectDir, cacheDir })).response.exitCode // 0
 */
export function hookInProcess(stdin: string, options: Omit<SpawnOptions, 'timeoutMs'>): Promise<HookResult> {
  return runHookInProcess({
    argv: options.args ?? [],
    stdin,
    env: { CLAUDE_PROJECT_DIR: options.projectDir, HOOKPOLICY_CACHE_DIR: options.cacheDir, ...options.env },
    cwd: options.projectDir,
    compiler: () => ({ compilePolicyFiles }),
    cacheDirs: [options.cacheDir],
  });
}

