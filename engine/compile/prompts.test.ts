import { buildRuleIndex, candidateRules } from '../rule-index';
import { POLICY_SCHEMA } from '../validate';
import { PROMPT_KINDS } from '../types';
import { compilePrompts } from './prompts';
import { buildRules, compiled, where } from './test-support';

describe('prompts', () => {
  test.each([
    ['user', ['user']],
    ['task-notification', ['task-notification']],
    ['[user, task-notification, user]', ['user', 'task-notification']],
  ])('prompts: %s', (prompts, expected) => {
    const policy = compiled(buildRules('  - id: r', '    on: UserPromptSubmit', `    prompts: ${prompts}`, '    context: x'));
    expect(policy.rules[0].prompts).toEqual(expected);
  });

  test('a rule without prompts takes every prompt', () => {
    expect(compiled(buildRules('  - { id: r, on: UserPromptSubmit, context: x }')).rules[0].prompts).toBeNull();
    expect(compilePrompts(undefined)).toBeNull();
  });

  test('an unknown kind is a schema error at its position, and the rule is left out', () => {
    const result = buildRules('  - id: r', '    on: UserPromptSubmit', '    prompts: [user, notifications]', '    context: x');
    expect(result.policy?.rules).toEqual([]);
    expect(result.policy?.broken?.map((b) => b.name)).toEqual(['r']);
    expect(result.diagnostics.map(where)).toEqual(['schema-enum p.yaml:5:21']);
  });

  test('a rule with prompts is indexed on UserPromptSubmit only', () => {
    const policy = compiled(buildRules(
      '  - { id: typed, on: [UserPromptSubmit, Stop], prompts: user, block: x }',
      '  - { id: any, on: [UserPromptSubmit, Stop], block: y }',
    ));
    expect(policy.index).toEqual(buildRuleIndex(policy.rules));
    expect(candidateRules(policy.index, 'UserPromptSubmit', null)).toEqual([0, 1]);
    expect(candidateRules(policy.index, 'Stop', null)).toEqual([1]);
  });

  test('the schema allows exactly the kinds the engine knows', () => {
    const prompts = (POLICY_SCHEMA as { definitions: { rule: { properties: { prompts: { items: { enum: string[] }; then: { enum: string[] } } } } } })
      .definitions.rule.properties.prompts;
    expect(prompts.items.enum).toEqual(PROMPT_KINDS);
    expect(prompts.then.enum).toEqual(PROMPT_KINDS);
  });
});
