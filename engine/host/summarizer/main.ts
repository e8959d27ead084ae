/**
 * Entry of dist/summarizer.cjs, the memory process the runner starts detached once it has
 * appended a `summary` record (or a search starts, to embed what is missing): it opens
 * the store's index, writes the session's prose summary when the policy has a summarizer,
 * embeds the records that have no vector when it has embeddings, and ends. Nobody waits
 * for it; whatever fails is recorded in the store (a `summary-error` or `embedding-error`
 * record), never on a terminal. It ends by itself at its deadline, whatever it waits on.
 */
import { isoTime } from '../iso-time';
import { appendToJournal, boundedRecord, type JournalRecord } from '../memory/journal';
import { shipToPostgres } from '../postgres/ship';
import { openMemoryIndex, type MemoryIndex } from '../memory/memory-index';
import { embedRecords } from './embed-records';
import { parseJob, type SummarizerJob } from './job';
import { proseSummary, sourceOf } from './summarize';

/** Time for the embedding pass and the index, beside the summarizer's own timeout. */
const SLACK_MS = 120_000;
const HOUR_MS = 3_600_000;

const job = parseJob(process.argv[2]);
if (job) {
  const deadline = setTimeout(() => process.exit(0), (job.summarizer?.timeoutMs ?? 0) + SLACK_MS);
  deadline.unref();
  void run(job).finally(() => process.exit(0));
}

async function run(j: SummarizerJob): Promise<void> {
  let index: MemoryIndex;
  try {
    index = openMemoryIndex({ ...j.store, now: Date.now });
  } catch (e) {
    recordFailure(j, `the store's index cannot be opened: ${(e as Error).message}`);
    return;
  }
  try {
    if (j.summary && j.summarizer) {
      try {
        await proseSummary(index, { ...j, summary: j.summary, summarizer: j.summarizer }, { env: process.env, now: Date.now });
      } catch (e) {
        recordFailure(j, `unexpected error: ${(e as Error).message}`);
      }
    }
    if (j.embeddings) {
      let error: string | undefined;
      try {
        index.refresh();
        error = (await embedRecords(index, j.embeddings, process.env)).error;
      } catch (e) {
        error = `unexpected error: ${(e as Error).message}`;
      }
      if (error !== undefined && !recentEmbeddingError(index)) append(j, { kind: 'embedding-error', importance: 0, text: `records not embedded: ${error}`, fields: { model: j.embeddings.model } }, null);
    }
  } finally {
    index.close();
  }
}

/** A summary-error when there is a summary to follow, else an embedding-error. */
function recordFailure(j: SummarizerJob, why: string): void {
  if (j.summary && j.summarizer) {
    append(j, { kind: 'summary-error', importance: 0, text: `no prose summary of session ${j.summary.session}: ${why}`, fields: { source: sourceOf(j.summarizer), model: j.summarizer.model } }, j.summary.session);
  } else if (j.embeddings) {
    append(j, { kind: 'embedding-error', importance: 0, text: `records not embedded: ${why}`, fields: { model: j.embeddings.model } }, null);
  }
}

function recentEmbeddingError(index: MemoryIndex): boolean {
  const last = index.last('embedding-error', 'project', { session: null, agent: null });
  return last !== null && Date.now() - Date.parse(last.at) < HOUR_MS;
}

function append(j: SummarizerJob, draft: Pick<JournalRecord, 'kind' | 'importance' | 'text' | 'fields'>, session: string | null): void {
  const s = j.summary;
  const record: JournalRecord = { at: isoTime(Date.now()), session, agent: s?.agent ?? null, event: s?.event ?? 'memory', rule: s?.rule ?? 'hookpolicy-memory', ...draft };
  try {
    appendToJournal(j.store.dir, j.store.projectRoot, [record]);
    shipToPostgres(process.env, j.store.projectRoot, [{ type: 'memory', record: boundedRecord(record) }]);
  } catch {
    // The store cannot be written either: there is nowhere left to say it.
  }
}
