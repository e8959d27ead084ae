import { renderFailure, renderResponse } from '../../render';
import { diagnostic } from '../../diagnostics';
import type { Decision } from '../../types';
import { firedDecision } from '../../../test/support/decision';
import { adapter, readCodexEvent } from './adapter';

const decision = firedDecision;

const json = (stdout: string) => (stdout === '' ? null : JSON.parse(stdout));

describe('readCodexEvent', () => {
  const base = { session_id: 's', turn_id: 't', cwd: '/p', model: 'm', permission_mode: 'default', transcript_path: null, tool_use_id: 'c' };

  it('passes Claude-shaped events through', () => {
    const event = { ...base, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls' } };
    expect(readCodexEvent(event)).toEqual({ hostEvent: 'PreToolUse', events: [event] });
  });

  it('reads an apply_patch call as a Write or Edit of each file it touches', () => {
    const patch = '*** Begin Patch\n*** Add File: a.ts\n+x\n*** Update File: .claude/policies.yaml\n@@\n-a\n+b\n*** End Patch';
    const read = readCodexEvent({ ...base, hook_event_name: 'PreToolUse', tool_name: 'apply_patch', tool_input: { command: patch } });
    expect(read?.events.map((e) => [e.tool_name, (e.tool_input as { file_path: string }).file_path])).toEqual([['Write', 'a.ts'], ['Edit', '.claude/policies.yaml']]);
    expect(read?.events[1].turn_id).toBe('t');
  });

  it('keeps a patch that names no file as Codex sent it, and has no events for what Codex does not send', () => {
    expect(readCodexEvent({ ...base, hook_event_name: 'PreToolUse', tool_name: 'apply_patch', tool_input: { command: 'garbage' } })?.events[0].tool_name).toBe('apply_patch');
    expect(readCodexEvent({ hook_event_name: 'TeammateIdle' })).toEqual({ hostEvent: 'TeammateIdle', events: [] });
    expect(readCodexEvent({ tool_name: 'Bash' })).toBeNull();
  });
});

describe('the Codex answer', () => {
  const render = (d: Decision, onError: 'open' | 'closed' = 'open') => renderResponse(d, { onError, host: adapter });

  it('denies with the reason Codex requires', () => {
    const r = render(decision('PreToolUse', 'deny', [['r', 'deny', 'no']]));
    expect(json(r.stdout)).toEqual({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'no' } });
  });

  it('denies an ask, which Codex refuses, and says so', () => {
    const r = render(decision('PreToolUse', 'ask', [['careful', 'ask', 'sure?']]));
    expect(json(r.stdout)).toEqual({
      systemMessage: 'hookpolicy: rule careful: Codex CLI cannot ask on PreToolUse; denied instead',
      hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'sure?' },
    });
  });

  it('says nothing for an allow, which Codex refuses (its own approval flow decides), and says why', () => {
    const r = render(decision('PreToolUse', 'allow', [['ok', 'allow', 'fine']]));
    expect(json(r.stdout)).toEqual({ systemMessage: 'hookpolicy: rule ok: Codex CLI cannot allow on PreToolUse; it says nothing, and Codex CLI\'s own permission flow decides' });
  });

  it('gives a deny without a message a reason, since Codex ignores an empty one', () => {
    const d = { ...decision('PreToolUse', 'deny', [['r', 'deny', '']]), reason: null };
    expect(json(render(d).stdout).hookSpecificOutput.permissionDecisionReason).toMatch(/\S/);
  });

  it('blocks Stop and feeds context through additionalContext where Codex takes it', () => {
    expect(json(render(decision('Stop', 'block', [['tests', 'block', 'run the tests']])).stdout)).toEqual({ decision: 'block', reason: 'run the tests' });
    expect(json(render(decision('UserPromptSubmit', 'none', [['c', 'context', 'CTX']])).stdout)).toEqual({ hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: 'CTX' } });
    // Stop's schema has no hookSpecificOutput: the context is reported, not written.
    const stop = render(decision('Stop', 'none', [['c', 'context', 'CTX']]));
    expect(json(stop.stdout)).toEqual({ systemMessage: 'hookpolicy: rule c: context cannot reach the model on Stop' });
  });

  it('fails closed with a deny on PreToolUse', () => {
    const r = renderFailure('PreToolUse', [diagnostic('no-policy', 'no policy file')], 'closed', adapter);
    expect(json(r.stdout).hookSpecificOutput.permissionDecision).toBe('deny');
  });

  it('writes nothing on SessionEnd, which reads no answer', () => {
    expect(render(decision('SessionEnd', 'none', [['w', 'warn', 'bye']])).stdout).toBe('');
  });
});
