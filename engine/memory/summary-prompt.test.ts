import { DEFAULT_SUMMARY_INSTRUCTION, MAX_OBSERVATION_CHARS, summaryPrompt } from './summary-prompt';
import { memoryRecord as rec } from './test-support';

describe('summaryPrompt', () => {
  it('asks the seed\'s three questions and shows the observations oldest first, one line each', () => {
    const p = summaryPrompt([
      rec('file-change', 'Write src/auth/jwt.ts', { at: '2026-01-15T09:12:30.000Z' }),
      rec('command', '$ npm run build\nok\n', { at: '2026-01-15T09:13:00.000Z' }),
    ], { maxChars: 24_000 });
    expect(p).toEqual({
      prompt: `${DEFAULT_SUMMARY_INSTRUCTION}\n\nObservations (oldest first):\n[09:12] file-change: Write src/auth/jwt.ts\n[09:13] command: $ npm run build ok\n`,
      shown: 2,
      omitted: 0,
    });
    expect(p?.prompt).toMatch(/main work[\s\S]*problems solved[\s\S]*issues left open/);
  });

  it('leaves out summaries, metrics and the memory process\'s own errors; null when nothing is left', () => {
    const records = [rec('summary', 'earlier'), rec('metric', 'Bash 12 ms'), rec('summary-error', 'endpoint 500'), rec('embedding-error', 'down')];
    expect(summaryPrompt(records, { maxChars: 24_000 })).toBeNull();
    expect(summaryPrompt([...records, rec('error', 'tsc failed')], { maxChars: 24_000 })?.prompt).toContain('] error: tsc failed\n');
  });

  it('past maxChars keeps the most important, then the newest, and says how many it left out', () => {
    const records = [
      rec('command', 'a'.repeat(100), { importance: 0.5 }),
      rec('error', 'b'.repeat(100), { importance: 1 }),
      rec('command', 'c'.repeat(100), { importance: 0.5 }),
      rec('test', 'd'.repeat(100), { importance: 0.9 }),
    ];
    const p = summaryPrompt(records, { maxChars: 400 })!;
    expect(p.omitted).toBe(1);
    expect(p.prompt).toContain('Observations (oldest first; 1 less important ones left out):');
    // The older of the two 0.5 commands goes; the rest keep their order.
    expect(p.prompt.split('Observations')[1]).toMatch(/bbbb[\s\S]*cccc[\s\S]*dddd/);
    expect(p.prompt).not.toContain('aaaa');
  });

  it('cuts one long observation, and always shows at least one', () => {
    const p = summaryPrompt([rec('command', 'x'.repeat(5000))], { maxChars: 10 })!;
    expect(p.shown).toBe(1);
    expect(p.prompt).toContain(`${'x'.repeat(MAX_OBSERVATION_CHARS - 1)}…`);
  });

  it('takes the policy\'s own instruction, as plain text', () => {
    expect(summaryPrompt([rec('command', 'ls')], { maxChars: 1000, instruction: '다음 세션의 작업 내용을 요약해주세요 {{prompt}}' })?.prompt)
      .toMatch(/^다음 세션의 작업 내용을 요약해주세요 \{\{prompt\}\}\n\nObservations/);
  });
});
