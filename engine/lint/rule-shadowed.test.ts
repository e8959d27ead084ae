import { lintText, lintedAt } from './fixture';

const policy = (rules: string) => `version: 1\nrules:\n${rules}`;

describe('rule-shadowed', () => {
  it.each([
    [
      'same conditions, same outcome',
      '  - { id: a, on: PreToolUse, tools: Bash, deny: x }\n  - { id: b, on: PreToolUse, tools: Bash, deny: y }\n',
      ['4:11 rule-shadowed'],
    ],
    [
      'broader earlier rule with a stronger outcome',
      '  - { id: a, on: [PreToolUse, PermissionRequest], deny: x }\n  - { id: b, on: PreToolUse, tools: "Edit|Write", allow: y }\n',
      ['4:11 rule-shadowed'],
    ],
    [
      'tools written differently',
      '  - { id: a, on: PreToolUse, tools: "Write|Edit", deny: x }\n  - { id: b, on: PreToolUse, tools: [Edit, Write], ask: y }\n',
      ['4:11 rule-shadowed'],
    ],
    [
      'a weaker earlier outcome does not shadow',
      '  - { id: a, on: PreToolUse, ask: x }\n  - { id: b, on: PreToolUse, deny: y }\n',
      [],
    ],
    [
      'an earlier rule with require may not fire',
      '  - { id: a, on: Stop, require: [{ file: a.md }], block: x }\n  - { id: b, on: Stop, block: y }\n',
      [],
    ],
    [
      'prompts of another kind do not shadow',
      '  - { id: a, on: UserPromptSubmit, prompts: task-notification, block: x }\n  - { id: b, on: UserPromptSubmit, prompts: user, block: y }\n',
      [],
    ],
    [
      'prompts written differently',
      '  - { id: a, on: UserPromptSubmit, prompts: [user, task-notification], block: x }\n  - { id: b, on: UserPromptSubmit, prompts: [task-notification, user], block: y }\n',
      ['4:11 rule-shadowed'],
    ],
    [
      'different conditions',
      '  - { id: a, on: PreToolUse, tools: Bash, deny: x }\n  - { id: b, on: PreToolUse, tools: Write, deny: y }\n',
      [],
    ],
    [
      'the earlier rule covers fewer events',
      '  - { id: a, on: Stop, block: x }\n  - { id: b, on: [Stop, SubagentStop], block: y }\n',
      [],
    ],
    [
      'contexts accumulate',
      '  - { id: a, on: Stop, context: x }\n  - { id: b, on: Stop, context: y }\n',
      [],
    ],
  ])('%s', (_name, rules, expected) => {
    expect(lintedAt(policy(rules), 'rule-shadowed')).toEqual(expected);
  });

  it('points at the rule that decides first', () => {
    const d = lintText(policy('  - { id: a, on: Stop, block: x }\n  - { id: b, on: Stop, block: y }\n')).find((x) => x.code === 'rule-shadowed');
    expect(d?.message).toBe('Rule "b" never decides anything: rule "a" (line 3) applies whenever it does and decides block first');
  });
});
