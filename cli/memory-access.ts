/**
 * What `policy memory` and `policy stats` share: the project, its policy (for where the
 * store is and where the decision log is), the store's index opened for one command, and
 * the options and errors both print the same way.
 */
import * as fs from 'fs';
import { CommanderError, InvalidArgumentError } from 'commander';
import { diagnostic, formatDiagnostic } from '../engine/diagnostics';
import type { CompiledPolicy, Diagnostic } from '../engine/types';
import { discoverPolicyFiles } from '../engine/host/discover';
import { isMemoryUnavailable, MEMORY_UNAVAILABLE_FIX, projectStore, StoreRefusedError, type ProjectStore } from '../engine/host/memory';
import { openMemoryIndex, type MemoryIndex } from '../engine/host/memory/memory-index';
import { loadPolicyForCommand, reportDiagnostics } from './commands/explain';
import { projectRootOf } from './commands/init';

export interface StoreCommandOptions {
  config: string[];
  projectDir?: string;
  json?: boolean;
}

export interface CommandStore {
  projectRoot: string;
  /** null when the project has no policy file: the store is then where it is by default. */
  policy: CompiledPolicy | null;
  store: ProjectStore;
}

/**
 * The project's store as the runner finds it (the policy's settings.memory, else the
 * default folder). Stops with exit 2 when the policy does not build or turned the store off.
 * @example commandStore({ config: [] }, 'memory list').store.dir // '/p/.claude/hookpolicy/memory'
 */
export function commandStore(options: StoreCommandOptions, command: string): CommandStore {
  const projectRoot = projectRootOf(options);
  const found = discoverPolicyFiles({ configs: options.config, env: process.env, projectRoot });
  let policy: CompiledPolicy | null = null;
  if (found.length > 0 || options.config.length > 0) {
    const loaded = loadPolicyForCommand(options.config, projectRoot, process.env);
    reportDiagnostics(loaded.diagnostics);
    policy = loaded.policy;
  }
  const store = projectStore(projectRoot, policy?.settings ?? null);
  if (!store) return fail(command, 'the policy turns the memory store off (settings.memory.store: false)');
  return { projectRoot, policy, store };
}

/**
 * Runs `work` with the store's index brought up to date (null when the store was never
 * written: no folder yet, and none is made). Stops with exit 2 and the diagnostic when
 * the index cannot be opened (better-sqlite3 missing: memory-unavailable, with the fix).
 */
export function withIndex<T>(store: ProjectStore, command: string, work: (index: MemoryIndex | null) => T): T {
  if (!fs.existsSync(store.dir)) return work(null);
  let index: MemoryIndex;
  try {
    index = openMemoryIndex({ ...store, now: Date.now });
  } catch (e) {
    if (isMemoryUnavailable(e)) return stop(diagnostic('memory-unavailable', (e as Error).message, undefined, MEMORY_UNAVAILABLE_FIX));
    if (e instanceof StoreRefusedError) return stop(diagnostic('memory-error', `${command}: ${e.message}`, { file: store.dir }));
    return stop(diagnostic('memory-error', `${command}: cannot open the memory store: ${(e as Error).message}`, { file: store.dir }));
  }
  try {
    return work(index);
  } finally {
    index.close();
  }
}

function stop(d: Diagnostic): never {
  process.stderr.write(`${formatDiagnostic(d)}\n`);
  throw new CommanderError(2, 'policy.exit', '');
}

/** A usage error of a memory or stats command: `policy COMMAND: message`, exit 2. */
export function fail(command: string, message: string): never {
  process.stderr.write(`policy ${command}: ${message}\n`);
  throw new CommanderError(2, 'policy.exit', '');
}

/**
 * commander's parser for a whole number in [min, max].
 * @example wholeNumber(1, 1000)('20') // 20
 */
export function wholeNumber(min: number, max: number): (value: string) => number {
  return (value) => {
    const n = Number(value);
    if (!/^\d+$/.test(value) || n < min || n > max) throw new InvalidArgumentError(`a whole number from ${min} to ${max}`);
    return n;
  };
}

/**
 * commander's parser for a point in time: a duration back from now (`30m`, `12h`, `7d`)
 * or a date (`2026-01-15`, `2026-01-15T10:00:00Z`); epoch ms.
 * @example timeAgo(Date.parse('2026-01-15T10:00:00Z'))('2h') // Date.parse('2026-01-15T08:00:00Z')
 */
export function timeAgo(now: number): (value: string) => number {
  return (value) => {
    const d = /^(\d+)(m|h|d)$/.exec(value);
    if (d) return now - Number(d[1]) * { m: 60_000, h: 3_600_000, d: 86_400_000 }[d[2] as 'm' | 'h' | 'd'];
    const ms = /^\d{4}-\d{2}-\d{2}/.test(value) ? Date.parse(value) : NaN;
    if (Number.isFinite(ms)) return ms;
    throw new InvalidArgumentError('a duration back from now (30m, 12h, 7d) or a date (2026-01-15)');
  };
}

export function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}
