import { lintText, lintedAt } from './fixture';

const policy = (rule: string) => `version: 1\nrules:\n  - id: r\n${rule}`;

describe('outcome-impossible', () => {
  it.each([
    ['block on SubagentStart', '    on: SubagentStart\n    block: no\n', ['5:5 outcome-impossible']],
    ['deny on PostToolUse', '    on: PostToolUse\n    deny: no\n', ['5:5 outcome-impossible']],
    ['context on Notification', '    on: Notification\n    context: x\n', ['5:5 outcome-impossible']],
    ['ask on PermissionRequest', '    on: PermissionRequest\n    ask: x\n', ['5:5 outcome-impossible']],
    ['warn on SessionEnd', '    on: SessionEnd\n    warn: x\n', ['5:5 outcome-impossible']],
    ['one bad event of two', '    on: [Stop, SubagentStart]\n    block: keep going\n', ['5:5 outcome-impossible']],
    ['block on Stop is fine', '    on: Stop\n    block: keep going\n', []],
    ['deny on PreToolUse is fine', '    on: PreToolUse\n    deny: no\n', []],
    ['ask on PreModelSwitch is fine', '    on: PreModelSwitch\n    ask: sure?\n', []],
  ])('%s', (_name, rule, expected) => {
    expect(lintedAt(policy(rule), 'outcome-impossible')).toEqual(expected);
  });

  it('names the event and what it supports', () => {
    const [d] = lintText(policy('    on: SubagentStart\n    block: no\n')).filter((x) => x.code === 'outcome-impossible');
    expect(d).toMatchObject({ severity: 'error', message: 'Rule "r": block has no effect on SubagentStart', hint: expect.stringContaining('context') });
  });
});
