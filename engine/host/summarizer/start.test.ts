import type { spawn as spawnChild } from 'child_process';
import { EventEmitter } from 'events';
import type { CompiledSettings, Decision } from '../../types';
import { insideSummarizer, startSummarizer, SUMMARIZER_MARKER, summaryJob } from './start';

const decision = (records: Decision['records']): Decision => ({
  event: 'SessionEnd', agent: null, tool: null, outcome: 'none', reason: null, decidedBy: [], hits: [], contexts: [], warnings: [], trace: [], bypass: null, errors: [], records,
});
const summary = { rule: 'memory-session-summary', kind: 'summary', importance: 1, text: '2 files changed', fields: {} };
const store = { dir: '/p/.claude/hookpolicy/memory', projectRoot: '/p', retentionDays: 90, maxRecords: 20_000 };
const settings = (memory: Partial<NonNullable<CompiledSettings['memory']>>): CompiledSettings => ({
  onError: 'open', bypasses: [], log: { file: null, webhook: null, record: [] }, deadlineMs: 5000,
  memory: { dir: '.claude/hookpolicy/memory', retentionDays: 90, maxRecords: 20_000, privacy: ['*secret*'], ...memory },
});
const cli = { via: 'command' as const, command: 'claude', model: 'haiku', timeoutMs: 120_000, maxPromptChars: 24_000 };
const AT = '2026-01-15T10:00:00.000Z';
const AT_MS = Date.parse(AT);

describe('summaryJob', () => {
  it('a summary appended and a summarizer: the job names the summary, the store and the policy\'s filter', () => {
    expect(summaryJob(decision([summary]), { hook_event_name: 'SessionEnd', session_id: 's1' }, { ...store, embeddings: undefined } as typeof store, settings({ summarizer: cli }), AT_MS)).toEqual({
      store,
      summary: { session: 's1', at: AT, rule: 'memory-session-summary', event: 'SessionEnd', agent: null, importance: 1 },
      summarizer: cli,
      embeddings: null,
      privacy: ['*secret*'],
    });
  });

  it('no job: no summary among the records, or neither summarizer nor embeddings', () => {
    const event = { hook_event_name: 'SessionEnd', session_id: 's1' };
    expect(summaryJob(decision([{ ...summary, kind: 'file-change' }]), event, store, settings({ summarizer: cli }), AT_MS)).toBeNull();
    expect(summaryJob(decision(undefined), event, store, settings({ summarizer: cli }), AT_MS)).toBeNull();
    expect(summaryJob(decision([summary]), event, store, settings({}), AT_MS)).toBeNull();
  });

  it('an event without a session: only the embeddings can be done', () => {
    const embeddings = { url: 'http://127.0.0.1:1/v1', model: 'm', keyEnv: null, timeoutMs: 1000, minSimilarity: 0.5 };
    expect(summaryJob(decision([summary]), { hook_event_name: 'SessionEnd' }, store, settings({ summarizer: cli, embeddings }), AT_MS)).toMatchObject({ summary: null, embeddings });
  });
});

describe('startSummarizer', () => {
  it('starts node on the script with the job, detached, its output ignored, with the marker, and does not wait', () => {
    const calls: Array<{ command: string; args: readonly string[]; options: Record<string, unknown> }> = [];
    let unrefed = false;
    const spawn = ((command: string, args: readonly string[], options: Record<string, unknown>) => {
      calls.push({ command, args, options });
      return Object.assign(new EventEmitter(), { unref: () => { unrefed = true; } });
    }) as unknown as typeof spawnChild;
    const job = summaryJob(decision([summary]), { hook_event_name: 'SessionEnd', session_id: 's1' }, store, settings({ summarizer: cli }), AT_MS)!;
    expect(startSummarizer(job, { script: '/dist/summarizer.cjs', spawn, env: { PATH: '/bin' } })).toBeNull();
    expect(calls).toEqual([{
      command: process.execPath,
      args: ['/dist/summarizer.cjs', JSON.stringify(job)],
      options: { stdio: 'ignore', detached: true, windowsHide: true, cwd: store.dir, env: { PATH: '/bin', [SUMMARIZER_MARKER]: '1' } },
    }]);
    expect(unrefed).toBe(true);
  });

  it('a process that cannot be started is a summarizer-error warning', () => {
    const spawn = (() => {
      throw new Error('spawn EAGAIN');
    }) as unknown as typeof spawnChild;
    const job = summaryJob(decision([summary]), { hook_event_name: 'SessionEnd', session_id: 's1' }, store, settings({ summarizer: cli }), AT_MS)!;
    expect(startSummarizer(job, { spawn })).toEqual({ code: 'summarizer-error', severity: 'warning', message: 'cannot start the memory process (prose summary, embeddings): spawn EAGAIN' });
  });

  it('the marker: any non-empty value', () => {
    expect(insideSummarizer({ HOOKPOLICY_SUMMARIZER: '1' })).toBe(true);
    expect(insideSummarizer({ HOOKPOLICY_SUMMARIZER: '' })).toBe(false);
    expect(insideSummarizer({})).toBe(false);
  });
});
