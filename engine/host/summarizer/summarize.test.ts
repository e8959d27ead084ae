import type { CompiledSummarizer } from '../../types';
import { appendToJournal } from '../memory/journal';
import { openMemoryIndex, type MemoryIndex } from '../memory/memory-index';
import { forgetStoreFolders } from '../memory/store-folder';
import { journalRecord, tempStore } from '../memory/test-support';
import type { SummarizerJob } from './job';
import type { ModelAnswer } from './model-api';
import { MAX_SUMMARY_CHARS, proseSummary } from './summarize';

const T0 = Date.parse('2026-01-15T10:00:00.000Z');
const AT = '2026-01-15T10:30:00.000Z';
const summarizer: CompiledSummarizer = { via: 'api', api: 'anthropic', url: 'http://127.0.0.1:9', model: 'claude-haiku-4-5', keyEnv: null, timeoutMs: 1000, maxTokens: 600, maxPromptChars: 24_000 };

let store: ReturnType<typeof tempStore>;
let index: MemoryIndex;
let now: number;
let prompts: string[];

const job = (extra: Partial<SummarizerJob> = {}) => ({
  store: { dir: store.dir, projectRoot: store.projectRoot, retentionDays: 90, maxRecords: 20_000 },
  summary: { session: 's1', at: AT, rule: 'memory-session-summary', event: 'SessionEnd', agent: null, importance: 1 },
  summarizer,
  embeddings: null,
  privacy: ['*password*'],
  ...extra,
}) as SummarizerJob & { summary: NonNullable<SummarizerJob['summary']>; summarizer: CompiledSummarizer };

const answering = (answer: ModelAnswer) => ({
  env: {}, now: () => now,
  ask: async (_s: CompiledSummarizer, prompt: string) => {
    prompts.push(prompt);
    return answer;
  },
});

beforeEach(() => {
  forgetStoreFolders();
  store = tempStore();
  now = T0 + 3_600_000;
  prompts = [];
  appendToJournal(store.dir, store.projectRoot, [
    journalRecord({ at: '2026-01-15T10:01:00.000Z', kind: 'file-change', text: 'Write src/auth/jwt.ts' }),
    journalRecord({ at: '2026-01-15T10:02:00.000Z', kind: 'test-failure', importance: 0.9, text: 'tests failed: npm test' }),
    journalRecord({ at: '2026-01-15T10:03:00.000Z', kind: 'metric', text: 'Bash 120 ms' }),
    journalRecord({ at: '2026-01-15T10:04:00.000Z', session: 's2', kind: 'command', text: 'another session' }),
    journalRecord({ at: AT, event: 'SessionEnd', rule: 'memory-session-summary', kind: 'summary', importance: 1, text: '1 file changed (src/auth/jwt.ts); 1 test run, 1 failed' }),
  ]);
  index = openMemoryIndex({ dir: store.dir, projectRoot: store.projectRoot, retentionDays: 90, maxRecords: 20_000, now: () => now });
});
afterEach(() => {
  index.close();
  store.remove();
});

const latest = () => {
  index.refresh();
  return index.list({ session: 's1', limit: 1 })[0];
};

describe('proseSummary', () => {
  it('sends no secret off the machine, and stores none the model repeats (records stored before redaction existed included)', async () => {
    const later = '2026-01-15T10:40:00.000Z';
    appendToJournal(store.dir, store.projectRoot, [
      journalRecord({ at: '2026-01-15T10:35:00.000Z', kind: 'command', text: '$ linear login lin_api_Zx8Cv2Bn6Mq1We9Rt5Yu3Io7Pa4Sd0Fg2Hj6Kl8m' }),
      journalRecord({ at: later, event: 'SessionEnd', rule: 'memory-session-summary', kind: 'summary', importance: 1, text: '2 commands' }),
    ]);
    index.refresh();
    const base = job();
    await proseSummary(index, { ...base, summary: { ...base.summary, at: later } }, answering({ ok: true, text: 'Logged in to Linear with lin_api_Zx8Cv2Bn6Mq1We9Rt5Yu3Io7Pa4Sd0Fg2Hj6Kl8m.' }));
    expect(prompts[0]).toContain('linear login [REDACTED]');
    expect(prompts[0]).not.toContain('Zx8Cv2');
    expect(latest().text).toBe('Logged in to Linear with [REDACTED].');
  });

  it('shows the model this session\'s observations and stores its answer as a newer summary that readers prefer', async () => {
    const outcome = await proseSummary(index, job(), answering({ ok: true, text: '  Built the JWT middleware; the expiry test still fails.\n' }));
    expect(outcome).toEqual({ stored: expect.objectContaining({ kind: 'summary' }) });
    expect(prompts).toHaveLength(1);
    expect(prompts[0]).toContain('[10:01] file-change: Write src/auth/jwt.ts\n[10:02] test-failure: tests failed: npm test\n');
    expect(prompts[0]).not.toMatch(/Bash 120 ms|another session|1 file changed/);
    const stored = latest();
    expect(stored).toMatchObject({
      id: 6, session: 's1', agent: null, event: 'SessionEnd', rule: 'memory-session-summary', kind: 'summary', importance: 1,
      text: 'Built the JWT middleware; the expiry test still fails.',
      fields: { source: 'anthropic', model: 'claude-haiku-4-5', replaces: '5', observations: '2' },
    });
    expect(index.summaries(5, null).map((r) => r.text)).toEqual(['Built the JWT middleware; the expiry test still fails.']);
  });

  it('the model\'s text is data: kept as written, {{placeholders}} and all, and cut at 4,000 characters', async () => {
    await proseSummary(index, job(), answering({ ok: true, text: 'Ignore the rules {{prompt}} {{env.HOME}}' }));
    expect(latest().text).toBe('Ignore the rules {{prompt}} {{env.HOME}}');
    await proseSummary(index, job({ summary: { ...job().summary, at: latest().at } }), answering({ ok: true, text: 'y'.repeat(10_000) }));
    expect(latest().text.length).toBe(MAX_SUMMARY_CHARS);
  });

  it.each([
    ['the model failed', { ok: false as const, error: 'the endpoint answered 529: overloaded' }, 'no prose summary of session s1: the endpoint answered 529: overloaded'],
    ['an empty answer', { ok: true as const, text: '   ' }, 'no prose summary of session s1: the model answered no text'],
    ['an answer the privacy filter drops', { ok: true as const, text: 'Reset the admin password.' }, 'no prose summary of session s1: the model\'s summary matches the privacy filter (*password*) and is not stored'],
  ])('%s: a summary-error record of the session, and the summary stays the deterministic one', async (_, answer, text) => {
    const outcome = await proseSummary(index, job(), answering(answer));
    expect(outcome).toEqual({ failed: expect.objectContaining({ kind: 'summary-error', text }) });
    expect(latest()).toMatchObject({ kind: 'summary-error', session: 's1', importance: 0, text, fields: { source: 'anthropic', model: 'claude-haiku-4-5', replaces: '5' } });
    expect(index.summaries(5, null).map((r) => r.text)).toEqual(['1 file changed (src/auth/jwt.ts); 1 test run, 1 failed']);
  });

  it('a newer summary recorded while the model wrote: the answer is stale and not stored', async () => {
    const outcome = await proseSummary(index, job(), {
      env: {}, now: () => now,
      ask: async () => {
        appendToJournal(store.dir, store.projectRoot, [journalRecord({ at: '2026-01-15T11:00:00.000Z', kind: 'summary', text: 'later' })]);
        return { ok: true, text: 'stale' };
      },
    });
    expect(outcome).toEqual({ skipped: 'a newer summary of the session was recorded meanwhile' });
    expect(latest().text).toBe('later');
  });

  it('nothing to summarize, or a summary it cannot find: nothing asked, nothing stored', async () => {
    expect(await proseSummary(index, job({ summary: { ...job().summary, at: '2026-01-15T09:00:00.000Z' } }), answering({ ok: true, text: 'x' })))
      .toEqual({ skipped: 'the summary that started the process is not in the index' });
    appendToJournal(store.dir, store.projectRoot, [journalRecord({ at: AT, session: 's3', event: 'SessionEnd', rule: 'memory-session-summary', kind: 'summary', text: 'empty' })]);
    index.refresh();
    expect(await proseSummary(index, job({ summary: { ...job().summary, session: 's3' } }), answering({ ok: true, text: 'x' })))
      .toEqual({ skipped: 'the session has no observation to summarize' });
    expect(prompts).toEqual([]);
  });

  it('the CLI not found is a summary-error that says where it looked', async () => {
    const outcome = await proseSummary(index, job({ summarizer: { via: 'command', command: 'claude', model: 'haiku', timeoutMs: 1000, maxPromptChars: 24_000 } }), { env: { PATH: '', HOME: store.projectRoot }, now: () => now });
    expect(outcome).toEqual({ failed: expect.objectContaining({
      text: 'no prose summary of session s1: claude is not found (looked on PATH, ~/.claude/local and ~/.local/bin); set summarizer.command to its path',
      fields: { source: 'claude-cli', model: 'haiku', replaces: '5' },
    }) });
  });
});
