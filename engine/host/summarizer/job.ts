/**
 * What the runner hands the detached memory process (dist/summarizer.cjs): the store, the
 * summary record it just appended (when a summary started it), and the policy's
 * summarizer, embeddings and privacy filter. One JSON argument; it holds no secret (a key
 * is only named, by key_env).
 */
import type { CompiledEmbeddings, CompiledSummarizer } from '../../types';

export interface SummarizerJob {
  store: { dir: string; projectRoot: string; retentionDays: number; maxRecords: number };
  /** The summary record just appended, to be followed by a prose one; null: only embed. */
  summary: {
    session: string;
    /** Its `at`, as appended: with the rule, how the process finds it in the index. */
    at: string;
    rule: string;
    event: string;
    agent: string | null;
    importance: number;
  } | null;
  summarizer: CompiledSummarizer | null;
  embeddings: CompiledEmbeddings | null;
  privacy: string[];
}

/**
 * The job in the process's argument, or null when it is not one.
 * @example parseJob(JSON.stringify(job))?.store.dir // '/p/.claude/hookpolicy/memory'
 */
export function parseJob(text: string | undefined): SummarizerJob | null {
  if (!text) return null;
  try {
    const job = JSON.parse(text) as SummarizerJob;
    const store = job?.store;
    if (!store || typeof store.dir !== 'string' || typeof store.projectRoot !== 'string') return null;
    if (!Array.isArray(job.privacy)) return null;
    return { ...job, summary: job.summary ?? null, summarizer: job.summarizer ?? null, embeddings: job.embeddings ?? null };
  } catch {
    return null;
  }
}
