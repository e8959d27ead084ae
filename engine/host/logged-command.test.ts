import { LOGGED_COMMAND_MAX, loggedCommand, REDACT_WINDOW } from './logged-command';

const pre = (tool_input: unknown) => ({ hook_event_name: 'PreToolUse', tool_input });

describe('loggedCommand', () => {
  it.each<[string, unknown, string | null]>([
    ['a Bash command', { command: 'rm -rf build' }, 'rm -rf build'],
    ["WebFetch's url", { url: 'https://example.com/a', prompt: 'summarise' }, 'https://example.com/a'],
    ["WebSearch's query", { query: 'jest esm' }, 'jest esm'],
    ["Grep's pattern", { pattern: 'TODO', path: 'src' }, 'TODO'],
    ['a Write: its file is in paths, not here', { file_path: 'a.ts', content: 'x' }, null],
    ['a blank command', { command: '  ' }, null],
    ['a command that is not a string', { command: ['rm', '-rf'] }, null],
    ['no tool input', undefined, null],
  ])('%s', (_name, input, expected) => {
    expect(loggedCommand(pre(input), [])).toBe(expected);
  });

  it('redacts known formats and the policy\'s own patterns', () => {
    expect(loggedCommand(pre({ command: 'curl -H "x: ghp_abcdefghijklmnopqrstuvwxyz0123456789" https://x tk-12345' }), ['tk-\\d+']))
      .toBe('curl -H "x: ghp_[REDACTED]" https://x [REDACTED]');
  });

  it('redacts before it cuts: a .env block whose second line is past the cut is still found', () => {
    const command = `cat > .env <<EOF\nDB_URL=postgres://u:hunter2@db/x\n${'#'.repeat(2 * LOGGED_COMMAND_MAX)}\nOTHER=1\nEOF`;
    const logged = loggedCommand(pre({ command }), []) as string;
    expect(logged).not.toContain('hunter2');
    expect(logged).toContain('DB_URL=[REDACTED]');
  });

  it('cuts a long command to the bound, with an ellipsis, never inside a surrogate pair', () => {
    const logged = loggedCommand(pre({ command: `echo ${'x'.repeat(LOGGED_COMMAND_MAX)}` }), []) as string;
    expect(logged).toHaveLength(LOGGED_COMMAND_MAX);
    expect(logged.endsWith('x…')).toBe(true);
    const emoji = loggedCommand(pre({ command: '😀'.repeat(LOGGED_COMMAND_MAX) }), []) as string;
    expect(emoji.length).toBeLessThanOrEqual(LOGGED_COMMAND_MAX);
    expect(emoji).toBe(`${'😀'.repeat(Math.floor((LOGGED_COMMAND_MAX - 1) / 2))}…`);
  });

  it('redacts a megabyte heredoc through its first REDACT_WINDOW characters only, still cut to the bound', () => {
    const body = Array.from({ length: 30_000 }, (_, i) => `line ${i} api_key=k${i}`).join('\n');
    const command = `PGPASSWORD=hunter2 psql <<'SQL'\n${body}\nSQL`;
    expect(command.length).toBeGreaterThan(10 * REDACT_WINDOW);
    const logged = loggedCommand(pre({ command }), []) as string;
    expect(logged).toHaveLength(LOGGED_COMMAND_MAX);
    expect(logged.startsWith('PGPASSWORD=[REDACTED]')).toBe(true);
    expect(logged).toContain('line 1 api_key=[REDACTED]');
    expect(logged).not.toMatch(/hunter2|api_key=k\d/);
  });
});
