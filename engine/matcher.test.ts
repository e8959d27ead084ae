import { matcherAccepts } from './matcher';

describe('matcherAccepts: how Claude Code reads a matcher', () => {
  it.each([
    [undefined, 'Bash', true],
    ['', 'Bash', true],
    ['*', 'Bash', true],
    ['Edit|Write', 'Write', true],
    ['Edit, Write', 'Write', true],
    ['Edit|Write', 'NotebookEdit', false],
    ['Edit.*', 'NotebookEdit', true], // unanchored regex
    ['^Edit$', 'NotebookEdit', false],
    ['mcp__memory', 'mcp__memory__read', false], // exact name
    ['mcp__memory__.*', 'mcp__memory__read', true],
    ['code-reviewer', 'senior-code-reviewer', false],
    ['([', 'x', false], // invalid regex matches nothing
  ])('%j matches %s: %s', (matcher, value, expected) => {
    expect(matcherAccepts(matcher, value)).toBe(expected);
  });

  it('reads a hyphen as a regex character on FileChanged and StopFailure', () => {
    expect(matcherAccepts('.env-a', '.env-a', 'FileChanged')).toBe(true);
    expect(matcherAccepts('a-b', 'xa-by', 'FileChanged')).toBe(true);
    expect(matcherAccepts('a-b', 'xa-by', 'SessionStart')).toBe(false);
  });
});
