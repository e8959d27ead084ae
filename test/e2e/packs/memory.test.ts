/**
 * The memory and metrics packs end to end: the built runner as Claude Code runs it (a child
 * process per event) records into a real store in a temp project; a later session is given
 * the earlier one's summary, a prompt gets its notice, and `policy memory` and `policy stats`
 * read what was stored.
 */
import { makeProject, TempProject } from '../../support/run-hook';
import { runCli } from '../../support/run-cli';

const POLICY = 'version: 1\ninclude: [memory, metrics]\n';

interface Record_ {
  id: number;
  kind: string;
  text: string;
  session: string | null;
  importance: number;
  fields: Record<string, string>;
}

describe('memory and metrics packs: one session recorded, the next one reminded', () => {
  let project: TempProject;
  const base = (session: string) => ({ session_id: session, transcript_path: '/tmp/t.jsonl', cwd: '' });
  const tool = (session: string, event: string, name: string, input: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
    ...base(session), cwd: project.dir, hook_event_name: event, tool_name: name, tool_input: input, tool_use_id: `toolu_${Math.random()}`, ...extra,
  });
  const list = (...args: string[]): Record_[] => {
    const run = runCli(['memory', 'list', '--json', '--limit', '100', ...args], { cwd: project.dir, env: { CLAUDE_PROJECT_DIR: project.dir } });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    return JSON.parse(run.stdout) as Record_[];
  };

  beforeAll(() => {
    project = makeProject(POLICY, { 'src/auth/jwt.ts': 'export {}\n' });
  });
  afterAll(() => project.remove());

  it('records each tool call silently: no output, exit 0', () => {
    const calls = [
      tool('s-1', 'PostToolUse', 'Write', { file_path: project.file('src/auth/jwt.ts'), content: 'x' }, { duration_ms: 15, tool_response: {} }),
      tool('s-1', 'PostToolUseFailure', 'Bash', { command: 'npm test' }, { duration_ms: 2300, error: 'Exit code 1\n2 failed' }),
      tool('s-1', 'PostToolUse', 'Bash', { command: 'npm test' }, { duration_ms: 2100, tool_response: { stdout: '14 passed' } }),
      tool('s-1', 'PostToolUse', 'Bash', { command: 'cat .dbrc' }, { duration_ms: 5, tool_response: { stdout: 'password=hunter2' } }),
      tool('s-1', 'PostToolUse', 'Read', { file_path: project.file('src/auth/jwt.ts') }, { duration_ms: 3, tool_response: {} }),
    ];
    for (const event of calls) {
      const run = project.run(event);
      expect({ stdout: run.stdout, exit: run.exitCode }).toEqual({ stdout: '', exit: 0 });
    }
    const kinds = list('--session', 's-1').map((r) => r.kind).sort();
    // Write, the failed and the passed test run, the metric of every call (5); the password command is dropped, Read is only measured.
    expect(kinds).toEqual(['file-change', 'metric', 'metric', 'metric', 'metric', 'metric', 'test-failure', 'test-pass']);
    expect(list('--session', 's-1').some((r) => r.text.includes('hunter2'))).toBe(false);
  });

  it('stores the session summary at SessionEnd', () => {
    const run = project.run({ ...base('s-1'), cwd: project.dir, hook_event_name: 'SessionEnd', reason: 'prompt_input_exit' });
    expect({ stdout: run.stdout, exit: run.exitCode }).toEqual({ stdout: '', exit: 0 });
    const [summary] = list('--kind', 'summary');
    expect(summary.session).toBe('s-1');
    expect(summary.text).toContain('src/auth/jwt.ts');
    expect(summary.text).toMatch(/2 test runs?, 1 failed/);
    const [totals] = list('--kind', 'session-metrics');
    expect(JSON.parse(totals.text)).toMatchObject({ count: 5, failures: 1 });
  });

  it('gives the next session the earlier summary in the seed format', () => {
    const run = project.run({ ...base('s-2'), cwd: project.dir, hook_event_name: 'SessionStart', source: 'startup' });
    expect(run.exitCode).toBe(0);
    const out = run.json as { hookSpecificOutput: { additionalContext: string } };
    const day = new Date();
    const [header, line, ...rest] = out.hookSpecificOutput.additionalContext.split('\n');
    expect(header).toBe('📝 이전 세션 컨텍스트:');
    expect(line.startsWith(`- [${day.getUTCMonth() + 1}/${day.getUTCDate()}] `)).toBe(true);
    expect(line).toContain('src/auth/jwt.ts');
    expect(rest).toEqual([]);
  });

  it('shows the user a notice of related memory on a typed prompt, not the model', () => {
    const run = project.run({ ...base('s-2'), cwd: project.dir, hook_event_name: 'UserPromptSubmit', prompt: 'the jwt tests fail again' });
    expect(run.exitCode).toBe(0);
    const out = run.json as { systemMessage?: string; hookSpecificOutput?: unknown };
    expect(out.hookSpecificOutput).toBeUndefined();
    const lines = (out.systemMessage ?? '').split('\n');
    expect(lines[0]).toBe('🔍 관련 메모리 발견:');
    expect(lines.at(-1)).toBe('상세 조회: /mem-search <id>');
    expect(lines.slice(1, -1).length).toBeGreaterThan(0);
    for (const item of lines.slice(1, -1)) expect(item).toMatch(/^- .+ \(\d+\/\d+, relevance: [01]\.\d\d\) #\d+$/);
  });

  it('policy stats shows the metrics per tool', () => {
    const run = runCli(['stats', '--json'], { cwd: project.dir, env: { CLAUDE_PROJECT_DIR: project.dir } });
    expect(run.code).toBe(0);
    const { metrics } = JSON.parse(run.stdout) as { metrics: { count: number; tools: Record<string, { count: number; failures: number; durationMs: { max: number } }> } };
    expect(metrics.count).toBe(5);
    expect(metrics.tools.Bash).toMatchObject({ count: 3, failures: 1, durationMs: { max: 2300 } });
    expect(metrics.tools.Write).toMatchObject({ count: 1, failures: 0 });
    expect(metrics.tools.Read).toMatchObject({ count: 1, failures: 0 });
  });
});
