import { renderResponse } from '../../render';
import type { Decision } from '../../types';
import { firedDecision } from '../../../test/support/decision';
import { adapter, readGeminiEvent } from './adapter';
import { geminiEventFor } from './events';
import { geminiToolsFor } from './tools';

const decision = firedDecision;

const json = (stdout: string) => (stdout === '' ? null : JSON.parse(stdout));
const base = { session_id: 's', transcript_path: '/t.jsonl', cwd: '/p', timestamp: '2026-11-28T00:00:00Z' };

describe('readGeminiEvent', () => {
  it.each<[string, Record<string, unknown>, string, Record<string, unknown>]>([
    ['run_shell_command', { command: 'touch x', description: 'd' }, 'Bash', { command: 'touch x', description: 'd' }],
    ['write_file', { file_path: 'src/a.ts', content: 'x' }, 'Write', { file_path: 'src/a.ts', content: 'x' }],
    ['replace', { file_path: 'a', old_string: 'o', new_string: 'n', instruction: 'i' }, 'Edit', { file_path: 'a', old_string: 'o', new_string: 'n', instruction: 'i', replace_all: false }],
    ['read_file', { file_path: 'a' }, 'Read', { file_path: 'a' }],
    ['list_directory', { dir_path: 'src' }, 'LS', { dir_path: 'src', path: 'src' }],
    ['grep_search', { pattern: 'x', dir_path: 'src' }, 'Grep', { pattern: 'x', dir_path: 'src', path: 'src' }],
    ['invoke_agent', { agent_name: 'helper', prompt: 'p' }, 'Agent', { agent_name: 'helper', prompt: 'p', subagent_type: 'helper' }],
    ['save_memory', { fact: 'f' }, 'save_memory', { fact: 'f' }],
  ])('BeforeTool %s is PreToolUse %s', (gemini, input, tool, expected) => {
    const read = readGeminiEvent({ ...base, hook_event_name: 'BeforeTool', tool_name: gemini, tool_input: input });
    expect(read?.hostEvent).toBe('BeforeTool');
    expect(read?.events).toEqual([{ ...base, hook_event_name: 'PreToolUse', tool_name: tool, tool_input: expected }]);
  });

  it('names an MCP tool as Claude Code does, from the server and tool Gemini sends beside it', () => {
    const read = readGeminiEvent({ ...base, hook_event_name: 'BeforeTool', tool_name: 'mcp_github_create_issue', tool_input: {}, mcp_context: { server_name: 'github', tool_name: 'create_issue' } });
    expect(read?.events[0].tool_name).toBe('mcp__github__create_issue');
    expect(read?.events[0]).not.toHaveProperty('mcp_context');
  });

  it('runs a shell command where its dir_path says, so its writes are judged from there', () => {
    const read = readGeminiEvent({ ...base, hook_event_name: 'BeforeTool', tool_name: 'run_shell_command', tool_input: { command: 'touch x', dir_path: 'sub' } });
    expect(read?.events[0].cwd).toBe('/p/sub');
  });

  it('reads AfterAgent as Stop, with stop_hook_active, and has no event for the model hooks', () => {
    const read = readGeminiEvent({ ...base, hook_event_name: 'AfterAgent', prompt: 'go', prompt_response: 'done', stop_hook_active: false });
    expect(read?.events[0]).toMatchObject({ hook_event_name: 'Stop', stop_hook_active: false, last_assistant_message: 'done' });
    expect(readGeminiEvent({ ...base, hook_event_name: 'BeforeModel' })).toEqual({ hostEvent: 'BeforeModel', events: [] });
    expect(readGeminiEvent({ ...base })).toBeNull();
  });

  it('maps back for init: Edit and MultiEdit select replace, Bash run_shell_command, and PreToolUse is BeforeTool', () => {
    expect(geminiToolsFor('Edit')).toEqual(['replace']);
    expect(geminiToolsFor('MultiEdit')).toEqual(['replace']);
    expect(geminiToolsFor('Bash')).toEqual(['run_shell_command']);
    expect(geminiToolsFor('NotebookEdit')).toEqual([]);
    expect(geminiEventFor('PreToolUse')).toBe('BeforeTool');
    expect(geminiEventFor('TeammateIdle')).toBeNull();
  });
});

describe('the Gemini answer', () => {
  const render = (d: Decision) => renderResponse(d, { onError: 'open', host: adapter });

  it('denies with decision and reason, and denies an ask, which hangs a non-interactive Gemini', () => {
    expect(json(render(decision('PreToolUse', 'deny', [['r', 'deny', 'no']])).stdout)).toEqual({ decision: 'deny', reason: 'no' });
    expect(json(render(decision('PreToolUse', 'ask', [['r', 'ask', 'sure?']])).stdout)).toEqual({
      decision: 'deny', reason: 'sure?', systemMessage: 'hookpolicy: rule r: Gemini CLI cannot ask on PreToolUse; denied instead',
    });
  });

  it('blocks AfterAgent (Stop) and BeforeAgent (UserPromptSubmit) with a deny, and adds context where Gemini reads it', () => {
    expect(json(render(decision('Stop', 'block', [['r', 'block', 'again']])).stdout)).toEqual({ decision: 'deny', reason: 'again' });
    expect(json(render(decision('UserPromptSubmit', 'none', [['c', 'context', 'CTX']])).stdout)).toEqual({ hookSpecificOutput: { additionalContext: 'CTX' } });
  });

  it('says that BeforeTool takes no context, and that an allow is Gemini\'s own approval to give', () => {
    expect(json(render(decision('PreToolUse', 'none', [['c', 'context', 'CTX']])).stdout)).toEqual({ systemMessage: 'hookpolicy: rule c: context cannot reach the model on PreToolUse' });
    expect(json(render(decision('PreToolUse', 'allow', [['a', 'allow', 'ok']])).stdout).systemMessage).toMatch(/Gemini CLI cannot allow on PreToolUse/);
  });
});
