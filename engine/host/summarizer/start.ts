/**
 * The runner's side of prose summaries and embeddings: once it has appended a `summary`
 * record, and the policy has a summarizer or embeddings, it starts the memory process
 * (dist/summarizer.cjs) detached and goes on; nobody waits for it. A process started by
 * it carries HOOKPOLICY_SUMMARIZER, and a runner that sees the marker records nothing and
 * starts nothing: the loop guard, should the CLI it runs ever fire this project's hooks.
 * Bundled into the runner: nothing here is loaded or done for an event without a summary.
 */
import type { spawn as spawnChild } from 'child_process';
import * as path from 'path';
import { diagnostic } from '../../diagnostics';
import type { CompiledSettings, Decision, Diagnostic, HookEvent } from '../../types';
import { isoTime } from '../iso-time';
import type { SummarizerJob } from './job';

/** The environment marker of the memory process and of everything it starts. */
export const SUMMARIZER_MARKER = 'HOOKPOLICY_SUMMARIZER';

/**
 * True inside the memory process or a CLI it started: such a runner appends no record and starts no process.
 * @example insideSummarizer({ HOOKPOLICY_SUMMARIZER: '1' }) // true
 */
export function insideSummarizer(env: Readonly<Record<string, string | undefined>>): boolean {
  return (env[SUMMARIZER_MARKER] ?? '') !== '';
}

/**
 * The job for a decision whose records were just appended at `atMs` (as recordMemory
 * stamped them): null unless one is a `summary` and the policy has a summarizer or embeddings.
 * @example summaryJob(decision, event, store, policy.settings, Date.now())?.summary?.session // 's1'
 */
export function summaryJob(
  decision: Decision, event: HookEvent, store: SummarizerJob['store'], settings: CompiledSettings, atMs: number,
): SummarizerJob | null {
  const summary = decision.records?.find((r) => r.kind === 'summary');
  if (!summary) return null;
  const memory = settings.memory;
  if (!memory?.summarizer && !memory?.embeddings) return null;
  const session = typeof event.session_id === 'string' && event.session_id !== '' ? event.session_id : null;
  return {
    store: { dir: store.dir, projectRoot: store.projectRoot, retentionDays: store.retentionDays, maxRecords: store.maxRecords },
    summary: session === null ? null : { session, at: isoTime(atMs), rule: summary.rule, event: decision.event, agent: decision.agent, importance: summary.importance },
    summarizer: memory.summarizer ?? null,
    embeddings: memory.embeddings ?? null,
    privacy: memory.privacy,
  };
}

export interface StartSummarizerOptions {
  /** The process's script; defaults to summarizer.cjs beside the running bundle. */
  script?: string;
  spawn?: typeof spawnChild;
  env?: Readonly<Record<string, string | undefined>>;
}

/**
 * Starts the memory process for `job`, detached, its output ignored; returns a
 * `summarizer-error` warning when it cannot be started.
 * @example startSummarizer(job, { env: process.env }) // null
 */
export function startSummarizer(job: SummarizerJob, options: StartSummarizerOptions = {}): Diagnostic | null {
  const script = options.script ?? path.join(__dirname, 'summarizer.cjs');
  try {
    // child_process costs ~3 ms to load: only an event that starts the process pays it.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const spawn = options.spawn ?? (require('child_process') as { spawn: typeof spawnChild }).spawn;
    const env: Record<string, string | undefined> = { ...(options.env ?? process.env), [SUMMARIZER_MARKER]: '1' };
    const child = spawn(process.execPath, [script, JSON.stringify(job)], {
      stdio: 'ignore',
      detached: true,
      windowsHide: true,
      cwd: job.store.dir,
      env,
    });
    child.on('error', () => undefined);
    child.unref();
    return null;
  } catch (e) {
    return diagnostic('summarizer-error', `cannot start the memory process (prose summary, embeddings): ${(e as Error).message}`);
  }
}
