import { diagnosticExample } from '../../test/support/doc-sections';
import { lintText, lintedAt } from './fixture';

const policy = (rule: string) => `version: 1\nrules:\n  - id: r\n${rule}`;

describe('prompts-unset', () => {
  it.each([
    ['context on UserPromptSubmit without prompts', '    on: UserPromptSubmit\n    context: x\n', ['5:5 prompts-unset']],
    ['block on UserPromptSubmit among other events', '    on: [Stop, UserPromptSubmit]\n    block: x\n', ['5:5 prompts-unset']],
    ['prompts: user', '    on: UserPromptSubmit\n    prompts: user\n    context: x\n', []],
    ['both kinds, said explicitly', '    on: UserPromptSubmit\n    prompts: [user, task-notification]\n    block: x\n', []],
    ['a warn (shown to the user only)', '    on: UserPromptSubmit\n    warn: x\n', []],
    ['not on UserPromptSubmit', '    on: Stop\n    block: x\n', []],
  ])('%s', (_name, rule, expected) => {
    expect(lintedAt(policy(rule), 'prompts-unset')).toEqual(expected);
  });

  it('is info, naming the outcome, with a hint', () => {
    const d = lintText(policy('    on: UserPromptSubmit\n    context: x\n')).find((x) => x.code === 'prompts-unset');
    expect(d).toMatchObject({
      severity: 'info',
      message: 'Rule "r" (context on UserPromptSubmit) also fires for the notifications of finished background subagents',
      hint: 'add "prompts: user" for typed prompts only, or "prompts: [user, task-notification]" to keep both',
    });
  });

  it('reports the example of docs/diagnostics.md', () => {
    const text = diagnosticExample('prompts-unset');
    expect(lintText(text).filter((d) => d.severity === 'error')).toEqual([]);
    expect(lintedAt(text, 'prompts-unset')).toHaveLength(1);
  });
});
