import { diagnosticExample } from '../../test/support/doc-sections';
import { lintText, lintedAt } from './fixture';

const policy = (rule: string) => `version: 1\nrules:\n  - id: r\n${rule}`;

describe('prompts-no-prompt-event', () => {
  it.each([
    ['prompts on a tool event', '    on: PreToolUse\n    prompts: user\n    deny: x\n', ['5:5 prompts-no-prompt-event']],
    ['prompts on events without UserPromptSubmit', '    on: [Stop, SessionStart]\n    prompts: [task-notification]\n    context: x\n', ['5:5 prompts-no-prompt-event']],
    ['prompts on UserPromptSubmit', '    on: UserPromptSubmit\n    prompts: user\n    context: x\n', []],
    ['UserPromptSubmit among other events', '    on: [Stop, UserPromptSubmit]\n    prompts: user\n    block: x\n', []],
    ['no prompts', '    on: PreToolUse\n    deny: x\n', []],
  ])('%s', (_name, rule, expected) => {
    expect(lintedAt(policy(rule), 'prompts-no-prompt-event')).toEqual(expected);
  });

  it('is a warning naming the events, with a hint', () => {
    const d = lintText(policy('    on: [Stop, SessionStart]\n    prompts: user\n    context: x\n')).find((x) => x.code === 'prompts-no-prompt-event');
    expect(d).toMatchObject({
      severity: 'warning',
      message: 'Rule "r" has prompts, but its events (Stop, SessionStart) have no UserPromptSubmit: it never fires',
      hint: 'prompts only tell UserPromptSubmit prompts apart: add UserPromptSubmit to "on", or remove prompts',
    });
  });

  it('reports the example of docs/diagnostics.md', () => {
    const text = diagnosticExample('prompts-no-prompt-event');
    expect(lintText(text).filter((d) => d.severity === 'error')).toEqual([]);
    expect(lintedAt(text, 'prompts-no-prompt-event')).toHaveLength(1);
  });
});
