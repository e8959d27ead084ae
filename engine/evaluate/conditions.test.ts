import { compiledRule } from '../../test/support/compiled';
import { memoryContext } from '../../test/support/memory-facts';
import { buildRules, compiled } from '../compile/test-support';
import { evaluate } from '../evaluate';
import type { HookEvent, PromptKind } from '../types';
import { checkCommand, checkPrompts } from './conditions';
import { evaluateRule } from './rule';
import { EventScope, promptKind } from './scope';

/** A UserPromptSubmit event as Claude Code 2.1 sends it; a finished background subagent arrives the same way. */
function promptEvent(prompt: unknown): HookEvent {
  return {
    session_id: 's-1', transcript_path: '/home/dev/.claude/projects/p/s-1.jsonl', cwd: '/proj', prompt_id: 'p-1',
    permission_mode: 'default', hook_event_name: 'UserPromptSubmit', prompt,
  };
}

const NOTIFICATION = '<task-notification>\n<task-id>a1b2</task-id>\n<tool-use-id>toolu_01</tool-use-id>\n'
  + '<status>completed</status>\n<summary>Agent "explore" completed</summary>\n<result>done</result>\n</task-notification>';

const scopeOf = (event: HookEvent) => new EventScope(event, null, memoryContext());
const rule = (prompts: PromptKind[] | null) => compiledRule({ events: ['UserPromptSubmit'], prompts, outcome: 'context' });

describe('promptKind', () => {
  it.each<[string, unknown, PromptKind | null]>([
    ['a typed prompt', 'fix the tests', 'user'],
    ['a task notification', NOTIFICATION, 'task-notification'],
    ['a notification after leading whitespace', ' \n\t<task-notification><task-id>x</task-id>', 'task-notification'],
    ['a typed prompt that quotes a notification', 'what does <task-notification> mean?', 'user'],
    ['a typed prompt starting with another tag', '<task-notifications> list', 'user'],
    ['the tag in another case', '<Task-Notification>', 'user'],
    ['an empty prompt', '', 'user'],
    ['no prompt', undefined, null],
    ['a prompt that is no string', 42, null],
  ])('%s', (_name, prompt, expected) => {
    expect(promptKind(prompt)).toBe(expected);
  });
});

describe('checkPrompts', () => {
  it.each<[string, PromptKind[] | null, HookEvent, ReturnType<typeof checkPrompts>]>([
    ['no prompts: any prompt', null, promptEvent(NOTIFICATION), null],
    ['no prompts: any event', null, { hook_event_name: 'Stop' }, null],
    ['user: a typed prompt', ['user'], promptEvent('hello'), null],
    ['user: a notification', ['user'], promptEvent(NOTIFICATION),
      { condition: 'prompts', detail: 'prompt kind "task-notification" is not in [user]' }],
    ['task-notification: a notification', ['task-notification'], promptEvent(NOTIFICATION), null],
    ['task-notification: a typed prompt', ['task-notification'], promptEvent('hello'),
      { condition: 'prompts', detail: 'prompt kind "user" is not in [task-notification]' }],
    ['both kinds', ['user', 'task-notification'], promptEvent(NOTIFICATION), null],
    ['an event without a prompt', ['user'], { hook_event_name: 'UserPromptSubmit' },
      { condition: 'prompts', detail: 'the event has no prompt' }],
    ['another event, even with a prompt field', ['user'], { hook_event_name: 'UserPromptExpansion', prompt: 'hello' },
      { condition: 'prompts', detail: 'prompts apply to UserPromptSubmit only, not UserPromptExpansion' }],
  ])('%s', (_name, prompts, event, expected) => {
    expect(checkPrompts(rule(prompts), scopeOf(event))).toEqual(expected);
  });

  it('traces the failure, before agents and when are looked at', () => {
    const r = compiledRule({ events: ['UserPromptSubmit'], prompts: ['user'], agents: ['murdock'], when: '$error("never evaluated")' });
    expect(evaluateRule(r, scopeOf(promptEvent(NOTIFICATION)))).toEqual({
      trace: { id: r.id, source: r.source, status: 'not-matched', failed: { condition: 'prompts', detail: 'prompt kind "task-notification" is not in [user]' } },
      hit: null,
    });
  });

  it('lets a typed prompt through to the hit', () => {
    const r = compiledRule({ events: ['UserPromptSubmit'], prompts: ['user'], outcome: 'context', message: 'house rules' });
    expect(evaluateRule(r, scopeOf(promptEvent('fix the tests')))).toMatchObject({ trace: { status: 'fired' }, hit: { outcome: 'context', message: 'house rules' } });
  });
});

describe('a failed paths or command condition when nobody reads the trace (the runner, the policy server)', () => {
  const policy = compiled(buildRules(
    '  - id: no-secrets', '    on: PreToolUse', '    tools: [Write, Bash]', '    paths: { deny: ["secrets/**"] }', '    deny: "no secrets"',
    '  - id: no-publish', '    on: PreToolUse', '    tools: Bash', "    command: ['^npm publish']", '    deny: "no publish"',
  ));
  const write = (file: string): HookEvent => ({ hook_event_name: 'PreToolUse', tool_name: 'Write', tool_input: { file_path: file, content: 'x' } });
  const bash = (command: string): HookEvent => ({ hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command } });

  it.each<[string, HookEvent, string]>([
    ['a Write no rule catches', write('src/a.ts'), 'none'],
    ['a Write of a secret', write('secrets/key'), 'deny'],
    ['a command nothing matches', bash('ls -la'), 'none'],
    ['a command a pattern matches', bash('npm publish --tag next'), 'deny'],
    ['a command that writes a secret', bash('echo x > secrets/key'), 'deny'],
  ])('%s: decided as with the trace, and nothing is traced', async (_name, event, outcome) => {
    const traced = await evaluate(policy, event, memoryContext());
    const untraced = await evaluate(policy, event, { ...memoryContext(), trace: false });
    expect([untraced.outcome, untraced.hits, untraced.trace]).toEqual([outcome, traced.hits, []]);
  });

  it('the traced failures still say which globs and patterns the event missed', async () => {
    const { trace } = await evaluate(policy, bash('ls -la > notes.txt'), memoryContext());
    expect(trace.map((t) => [t.id, t.failed?.condition, t.failed?.detail])).toEqual([
      ['no-secrets', 'paths', 'no touched path matches deny [secrets/**] (touched: notes.txt)'],
      ['no-publish', 'command', 'the command matches none of /^npm publish/'],
    ]);
  });

  it('without the trace, the condition gives a fixed failure instead of writing them out', () => {
    const scope = new EventScope(bash('ls -la'), null, { ...memoryContext(), trace: false });
    expect(checkCommand(policy.rules[1], scope)).toEqual({ condition: 'command', detail: 'the command matches none of the patterns' });
    expect(checkCommand(policy.rules[1], scopeOf(bash('ls -la')))).toEqual({ condition: 'command', detail: 'the command matches none of /^npm publish/' });
  });
});
