import type { Decision, FinalOutcome, HookEvent } from '../engine/types';
import { runKind } from './run-kind';

function decision(event: string, tool: string | null, outcome: FinalOutcome): Decision {
  return { event, agent: null, tool, outcome, reason: null, decidedBy: [], hits: [], contexts: [], warnings: [], trace: [], bypass: null, errors: [] };
}

const bash = (command: unknown): HookEvent => ({ hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command } });

describe('runKind', () => {
  it('is the event, the tool and the outcome of a decided run, and "failed" without a decision', () => {
    expect(runKind(decision('PreToolUse', 'Write', 'deny'), { hook_event_name: 'PreToolUse', tool_name: 'Write' })).toBe('PreToolUse/Write/deny');
    expect(runKind(decision('Stop', null, 'none'), { hook_event_name: 'Stop' })).toBe('Stop//none');
    expect(runKind(null, undefined)).toBe('failed');
  });

  it.each<[string, string]>([
    ['ls -la src && git status --short', 'PreToolUse/Bash/none'],
    ['echo done > mission/out.txt', 'PreToolUse/Bash/none/w'],
    ['echo more >> log.txt', 'PreToolUse/Bash/none/w'],
    ["cat <<'EOF' > notes.md\nx\nEOF", 'PreToolUse/Bash/none/hw'],
    ['git log | head -5', 'PreToolUse/Bash/none/p'],
    ['echo $(date) `whoami`', 'PreToolUse/Bash/none/s'],
    ['cat <<EOF | tee $(pwd)/out > /dev/null\nEOF', 'PreToolUse/Bash/none/hpsw'],
  ])('names the constructs of the shell command %j', (command, kind) => {
    expect(runKind(decision('PreToolUse', 'Bash', 'none'), bash(command))).toBe(kind);
  });

  it('reads the command of PowerShell too, and of no other tool', () => {
    const ps: HookEvent = { hook_event_name: 'PreToolUse', tool_name: 'PowerShell', tool_input: { command: 'Get-Date > out.txt' } };
    expect(runKind(decision('PreToolUse', 'PowerShell', 'ask'), ps)).toBe('PreToolUse/PowerShell/ask/w');
    const write: HookEvent = { hook_event_name: 'PreToolUse', tool_name: 'Write', tool_input: { command: 'a > b', file_path: 'x' } };
    expect(runKind(decision('PreToolUse', 'Write', 'allow'), write)).toBe('PreToolUse/Write/allow');
  });

  it('leaves a shell event without a string command at its outcome', () => {
    expect(runKind(decision('PreToolUse', 'Bash', 'deny'), bash(['echo', '>']))).toBe('PreToolUse/Bash/deny');
    expect(runKind(decision('PreToolUse', 'Bash', 'deny'), { hook_event_name: 'PreToolUse', tool_name: 'Bash' })).toBe('PreToolUse/Bash/deny');
    expect(runKind(decision('PreToolUse', 'Bash', 'deny'), undefined)).toBe('PreToolUse/Bash/deny');
  });
});
