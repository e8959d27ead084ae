import { expandShorthand, TEST_SESSION_ID, TEST_TOOL_USE_ID, withProject } from './shorthand';

const P = '/tmp/proj';

describe('expandShorthand', () => {
  it('fills the common fields of a tool event and makes the path absolute', () => {
    expect(expandShorthand({ event: 'PreToolUse', tool: 'Write', agent: 'lynch', path: 'src/a.ts' }, P)).toEqual({
      session_id: TEST_SESSION_ID,
      transcript_path: `${P}/.claude/transcripts/${TEST_SESSION_ID}.jsonl`,
      cwd: P,
      hook_event_name: 'PreToolUse',
      permission_mode: 'default',
      agent_id: 'agent-lynch',
      agent_type: 'lynch',
      tool_name: 'Write',
      tool_input: { content: '', file_path: `${P}/src/a.ts` },
      tool_use_id: TEST_TOOL_USE_ID,
    });
  });

  it.each([
    ['NotebookEdit', 'notebook_path'],
    ['Glob', 'path'],
    ['Grep', 'path'],
    ['LS', 'path'],
    ['Read', 'file_path'],
    ['Edit', 'file_path'],
    ['MultiEdit', 'file_path'],
  ])('puts the path of %s in tool_input.%s', (tool, key) => {
    const event = expandShorthand({ event: 'PreToolUse', tool, path: './x/y' }, P);
    expect((event.tool_input as Record<string, unknown>)[key]).toBe(`${P}/x/y`);
  });

  it('keeps absolute paths as they are', () => {
    const event = expandShorthand({ event: 'PreToolUse', tool: 'Write', path: '/etc/hosts' }, P);
    expect((event.tool_input as Record<string, unknown>).file_path).toBe('/etc/hosts');
  });

  it('makes a command a Bash call', () => {
    const event = expandShorthand({ event: 'PreToolUse', command: 'rm -rf /' }, P);
    expect(event.tool_name).toBe('Bash');
    expect(event.tool_input).toEqual({ command: 'rm -rf /' });
  });

  it('merges input over tool defaults', () => {
    const event = expandShorthand({ event: 'PreToolUse', tool: 'Edit', input: { old_string: 'a', new_string: 'b' }, path: 'f' }, P);
    expect(event.tool_input).toEqual({ old_string: 'a', new_string: 'b', replace_all: false, file_path: `${P}/f` });
  });

  it('sets teammate, team and prompt fields', () => {
    const event = expandShorthand({ event: 'UserPromptSubmit', teammate: 'ba', team: 't1', prompt: 'hi' }, P);
    expect(event).toMatchObject({ teammate_name: 'ba', team_name: 't1', prompt: 'hi', permission_mode: 'default' });
    expect(event).not.toHaveProperty('tool_name');
    expect(event).not.toHaveProperty('tool_use_id');
  });

  it('omits permission_mode where Claude Code does not send it and adds event defaults', () => {
    const event = expandShorthand({ event: 'SessionStart' }, P);
    expect(event).not.toHaveProperty('permission_mode');
    expect(event.source).toBe('startup');
    expect(expandShorthand({ event: 'Stop' }, P).stop_hook_active).toBe(false);
  });

  it('lets fields override everything but the event name', () => {
    const event = expandShorthand({ event: 'Stop', fields: { stop_hook_active: true, cwd: '/else', hook_event_name: 'X' } }, P);
    expect(event).toMatchObject({ stop_hook_active: true, cwd: '/else', hook_event_name: 'Stop' });
  });

  it('gives a tool event without a tool an empty tool_name', () => {
    expect(expandShorthand({ event: 'PostToolUse' }, P)).toMatchObject({ tool_name: '', tool_input: {} });
  });
});

describe('withProject', () => {
  it('replaces {{project}} in nested strings only', () => {
    expect(withProject({ cwd: '{{project}}', tool_input: { file_path: '{{project}}/a', n: 1 }, list: ['{{project}}'] }, P))
      .toEqual({ cwd: P, tool_input: { file_path: `${P}/a`, n: 1 }, list: [P] });
  });
});
