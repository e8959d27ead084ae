import { lintText, lintedAt } from './fixture';

const policy = (rule: string) => `version: 1\nrules:\n  - id: r\n${rule}`;

describe('message-user-only', () => {
  it.each([
    ['block on UserPromptSubmit', '    on: UserPromptSubmit\n    block: Do not paste secrets\n', ['5:12 message-user-only']],
    ['block on PreCompact', '    on: PreCompact\n    block: not now\n', ['5:12 message-user-only']],
    ['deny on PreModelSwitch', '    on: PreModelSwitch\n    deny: stay on this model\n', ['5:11 message-user-only']],
    ['block on ConfigChange (shown to nobody)', '    on: ConfigChange\n    block: keep settings\n', ['5:12 message-user-only']],
    ['ask on PreToolUse: its reason is not in the dialog', '    on: PreToolUse\n    ask: Allow this write to .env?\n', ['5:10 message-user-only']],
    ['ask on PreModelSwitch is shown to the user', '    on: PreModelSwitch\n    ask: Switch models now?\n', []],
    ['block on Stop reaches the model', '    on: Stop\n    block: Run the tests first\n', []],
    ['deny on PreToolUse reaches the model', '    on: PreToolUse\n    deny: No\n', []],
    ['impossible outcomes are left to outcome-impossible', '    on: SubagentStart\n    block: no\n', []],
  ])('%s', (_name, rule, expected) => {
    expect(lintedAt(policy(rule), 'message-user-only')).toEqual(expected);
  });

  it('is a warning for block, info for ask', () => {
    const block = lintText(policy('    on: UserPromptSubmit\n    block: x\n')).find((d) => d.code === 'message-user-only');
    const ask = lintText(policy('    on: PreToolUse\n    ask: you must not\n')).find((d) => d.code === 'message-user-only');
    expect([block?.severity, ask?.severity]).toEqual(['warning', 'info']);
    expect(block?.message).toBe('Rule "r": the block message on UserPromptSubmit is shown to the user only; the model never reads it');
    expect(ask?.message).toBe('Rule "r": the ask message on PreToolUse is not shown in Claude Code\'s permission dialog; only a headless run (-p) passes it to the model, when it refuses the call');
  });
});
