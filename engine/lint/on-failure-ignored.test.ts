import { diagnosticExample } from '../../test/support/doc-sections';
import { lintText, lintedAt } from './fixture';

const policy = (settings: string, rule: string) => `version: 1\n${settings}rules:\n  - id: r\n${rule}`;
const CLOSED = 'settings: { on_error: closed }\n';

describe('on-failure-ignored', () => {
  it.each([
    ['a Stop rule of a fail-closed policy', CLOSED, '    on: Stop\n    block: x\n', ['5:9 on-failure-ignored']],
    ['each ignoring event of a rule', CLOSED, '    on: [PreToolUse, TeammateIdle, SubagentStop]\n    block: x\n', ['5:22 on-failure-ignored', '5:36 on-failure-ignored']],
    ['a PreToolUse rule: onFailure holds there', CLOSED, '    on: PreToolUse\n    deny: x\n', []],
    ['a fail-open policy promises nothing', '', '    on: Stop\n    block: x\n', []],
  ])('%s', (_name, settings, rule, expected) => {
    expect(lintedAt(policy(settings, rule), 'on-failure-ignored')).toEqual(expected);
  });

  it('is a warning naming the event, with a hint', () => {
    const d = lintText(policy(CLOSED, '    on: TaskCompleted\n    block: x\n')).find((x) => x.code === 'on-failure-ignored');
    expect(d).toMatchObject({
      severity: 'warning',
      message: 'Rule "r": on_error is closed, but if the runner cannot start (node missing, a crash, a timeout) Claude Code lets TaskCompleted through: it ignores onFailure there',
    });
  });

  it('reports the example of docs/diagnostics.md', () => {
    const text = diagnosticExample('on-failure-ignored');
    expect(lintText(text).filter((d) => d.severity === 'error')).toEqual([]);
    expect(lintedAt(text, 'on-failure-ignored')).toHaveLength(1);
  });
});
