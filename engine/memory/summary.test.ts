import { summarizeSession } from './summary';
import { memoryRecord as rec } from './test-support';

describe('summarizeSession', () => {
  it.each([
    ['no records', [], ''],
    ['one file change, named by its paths field', [rec('file-change', 'Write src/a.ts', { fields: { paths: 'src/a.ts' } })], '1 file changed (src/a.ts)'],
    ['files counted once, from paths, path and file_path, in first-seen order', [
      rec('file-change', 'Edit', { fields: { paths: 'src/a.ts, src/b.ts' } }),
      rec('file-change', 'Edit', { fields: { path: 'src/a.ts' } }),
      rec('file-change', 'Write', { fields: { file_path: 'README.md' } }),
    ], '3 files changed (src/a.ts, src/b.ts, README.md)'],
    ['a file change without path fields is named by its text', [rec('file-change', 'Write notes.md')], '1 file changed (Write notes.md)'],
    ['commands: each counted, distinct ones named, the rest as "+N more"', [
      rec('command', 'git status', { fields: { command: 'git status' } }),
      rec('command', 'git status', { fields: { command: 'git status' } }),
      rec('command', 'ls'),
      rec('bash', 'npm run build'),
      rec('command', 'make'),
    ], '5 commands (git status, ls, npm run build, +1 more)'],
    ['test runs, failed ones counted there and not again as failures', [
      rec('test', 'npm test: 3 passed', { fields: { success: 'true' } }),
      rec('test', 'npm test: 1 failed', { fields: { success: 'false' } }),
    ], '2 test runs, 1 failed'],
    ['failures: kind, success field or a PostToolUseFailure event', [
      rec('error', 'tsc: 2 errors'),
      rec('command', 'make', { fields: { command: 'make', success: 'no' } }),
      rec('observation', 'Bash exited 127', { event: 'PostToolUseFailure' }),
    ], '1 command (make); 3 failures (tsc: 2 errors, make, Bash exited 127)'],
    ['a success field says no failure, whatever the kind', [rec('error-check', 'lint ok', { fields: { success: 'true' } })], '1 record'],
    ['summaries and metrics are not summarized', [rec('summary', 'earlier'), rec('metric', 'Bash 12 ms')], ''],
    ['nor the memory process\'s own failures (they are no failure of the session)', [rec('summary-error', 'the endpoint answered 500'), rec('embedding-error', 'down')], ''],
    ['records of no known kind are counted', [rec('note', 'a'), rec('note', 'b')], '2 records'],
    ['long items are cut, whitespace folded', [rec('command', `echo ${'x'.repeat(80)}\n  done`)], `1 command (echo ${'x'.repeat(54)}…)`],
  ])('%s', (_name, records, expected) => {
    expect(summarizeSession(records)).toBe(expected);
  });

  it('puts files, commands, tests and failures in that order, whatever the record order', () => {
    const records = [
      rec('error', 'boom'),
      rec('test', 'jest', { fields: { success: 'true' } }),
      rec('command', 'ls'),
      rec('file-change', 'x', { fields: { paths: 'a.ts' } }),
    ];
    expect(summarizeSession(records)).toBe('1 file changed (a.ts); 1 command (ls); 1 test run; 1 failure (boom)');
    expect(summarizeSession([...records].reverse())).toBe(summarizeSession(records));
  });
});
