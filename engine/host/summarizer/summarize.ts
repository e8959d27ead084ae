/**
 * A prose summary of one session: the session's records from the index, the prompt
 * (engine/memory/summary-prompt.ts), the model's answer (the CLI or an endpoint), and a
 * newer `summary` record of the session that readers then prefer. Its fields say where it
 * came from (`source`, `model`) and which summary it follows (`replaces`, an id). The
 * answer is data: stored as text, cut, checked by the privacy filter, never rendered as a
 * template. Whatever fails is recorded as a `summary-error` record of the session.
 */
import { privacyGlobMatches } from '../../memory/privacy';
import { summaryPrompt } from '../../memory/summary-prompt';
import { redactText } from '../redact';
import type { CompiledSummarizer, MemoryRecord } from '../../types';
import { isoTime } from '../iso-time';
import { appendToJournal, boundedRecord, type JournalRecord } from '../memory/journal';
import { shipToPostgres } from '../postgres/ship';
import type { MemoryIndex } from '../memory/memory-index';
import { askClaude, findCommand } from './claude-cli';
import type { SummarizerJob } from './job';
import { askEndpoint, type ModelAnswer } from './model-api';

/** The longest prose summary kept (characters), as a rule's own record text. */
export const MAX_SUMMARY_CHARS = 4000;

export type SummarizeOutcome =
  | { stored: JournalRecord }
  | { skipped: string }
  | { failed: JournalRecord };

export interface SummarizeOptions {
  env: Readonly<Record<string, string | undefined>>;
  now: () => number;
  /** The model call; replaceable in tests. */
  ask?: (s: CompiledSummarizer, prompt: string) => Promise<ModelAnswer>;
}

/**
 * Asks for the prose summary of the job's session and appends it, or a summary-error.
 * Returns what it appended, or why it appended nothing (no observation, a newer summary
 * came meanwhile).
 * @example await proseSummary(index, job, { env: process.env, now: Date.now }) // { stored: { kind: 'summary', text: 'Built the JWT middleware...', ... } }
 */
export async function proseSummary(index: MemoryIndex, job: SummarizerJob & { summary: NonNullable<SummarizerJob['summary']>; summarizer: CompiledSummarizer }, options: SummarizeOptions): Promise<SummarizeOutcome> {
  const { summary, summarizer } = job;
  const records = index.sessionRecords(summary.session);
  const origin = records.filter((r) => r.kind === 'summary' && r.at === summary.at && r.rule === summary.rule).pop();
  const base = { source: sourceOf(summarizer), model: summarizer.model, ...(origin ? { replaces: String(origin.id) } : {}) };
  const fail = (why: string) => append(job, options, { kind: 'summary-error', importance: 0, text: `no prose summary of session ${summary.session}: ${why}`, fields: base }, 'failed');
  if (!origin) return { skipped: 'the summary that started the process is not in the index' };
  const prompt = summaryPrompt(records.filter((r) => r.id < origin.id), { maxChars: summarizer.maxPromptChars, instruction: summarizer.prompt });
  if (!prompt) return { skipped: 'the session has no observation to summarize' };

  // Nothing leaves the machine with a secret in it: the records were redacted when stored, and older ones are here.
  const answer = await (options.ask ?? ((s, p) => ask(s, p, job.store.projectRoot, options.env)))(summarizer, redactText(prompt.prompt));
  if (!answer.ok) return fail(answer.error);
  const text = cut(redactText(answer.text.trim()));
  if (text === '') return fail('the model answered no text');
  const glob = job.privacy.find((g) => privacyGlobMatches(g, text));
  if (glob !== undefined) return fail(`the model's summary matches the privacy filter (${glob}) and is not stored`);
  // A summary recorded while the model wrote: its own process follows it; this one is stale.
  index.refresh();
  if (newerSummary(index.sessionRecords(summary.session), origin)) return { skipped: 'a newer summary of the session was recorded meanwhile' };
  return append(job, options, { kind: 'summary', importance: summary.importance, text, fields: { ...base, observations: String(prompt.shown) } }, 'stored');
}

function ask(s: CompiledSummarizer, prompt: string, projectRoot: string, env: SummarizeOptions['env']): Promise<ModelAnswer> {
  if (s.via === 'api') return askEndpoint(s, prompt, env);
  const binary = findCommand(s.command, env, projectRoot);
  if (!binary) return Promise.resolve({ ok: false, error: `${s.command} is not found (looked on PATH${s.command === 'claude' ? ', ~/.claude/local and ~/.local/bin' : ''}); set summarizer.command to its path` });
  return askClaude(binary, s, prompt, env);
}

/** `claude-cli`, `anthropic` or `openai`: the summary record's `source` field. */
export function sourceOf(s: CompiledSummarizer): string {
  return s.via === 'command' ? 'claude-cli' : s.api;
}

function newerSummary(records: readonly MemoryRecord[], origin: MemoryRecord): boolean {
  return records.some((r) => r.kind === 'summary' && r.id > origin.id);
}

function append<K extends 'stored' | 'failed'>(
  job: SummarizerJob & { summary: NonNullable<SummarizerJob['summary']> },
  options: SummarizeOptions,
  draft: Pick<JournalRecord, 'kind' | 'importance' | 'text' | 'fields'>,
  outcome: K,
): { [P in K]: JournalRecord } {
  const { summary, store } = job;
  const record: JournalRecord = { at: isoTime(options.now()), session: summary.session, agent: summary.agent, event: summary.event, rule: summary.rule, ...draft };
  appendToJournal(store.dir, store.projectRoot, [record]);
  // The team database too, as the runner's records (a problem there has nowhere to be said).
  shipToPostgres(options.env, store.projectRoot, [{ type: 'memory', record: boundedRecord(record) }]);
  return { [outcome]: record } as { [P in K]: JournalRecord };
}

function cut(text: string): string {
  return text.length > MAX_SUMMARY_CHARS ? `${text.slice(0, MAX_SUMMARY_CHARS - 1)}…` : text;
}
