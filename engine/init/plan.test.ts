import { compiledPolicy, compiledRule, matchFilter, toolFilter } from '../../test/support/compiled';
import type { CompiledRule } from '../types';
import { planHooks } from './plan';
import type { CommandHook, HooksConfig } from './types';

const h: CommandHook = { type: 'command', command: '/n/node', args: ['/p/bin/policy.cjs', 'hook'], timeout: 10 };
const bashIf = (prefix: string): CommandHook => ({ ...h, if: `Bash(${prefix} *)` });

const rule = (partial: Partial<CompiledRule>) => compiledRule(partial);
const cmd = (...sources: string[]) => sources.map((source) => ({ source, flags: '' }));

describe('planHooks: rules -> settings.json hooks', () => {
  const table: Array<[string, CompiledRule[], HooksConfig, boolean?]> = [
    ['exact tool names joined with |', [rule({ tools: toolFilter('Write|Edit') }), rule({ tools: toolFilter('Bash') })],
      { PreToolUse: [{ matcher: 'Write|Edit|Bash', hooks: [h] }] }],
    ['a rule without tools makes the group match every tool', [rule({ tools: toolFilter('Write') }), rule({ tools: null })],
      { PreToolUse: [{ hooks: [h] }] }],
    ['a wildcard MCP pattern becomes an anchored regex', [rule({ tools: toolFilter('mcp__playwright__*') })],
      { PreToolUse: [{ matcher: '^mcp__playwright__.*$', hooks: [h] }] }],
    ['names and patterns together: one regex, names anchored', [rule({ tools: toolFilter('Write|mcp__x__*') })],
      { PreToolUse: [{ matcher: '^Write$|^mcp__x__.*$', hooks: [h] }] }],
    ['events in the contract order, each with its own matcher',
      [rule({ events: ['Stop'], outcome: 'block' }), rule({ events: ['PostToolUse'], tools: toolFilter('Edit') })],
      { PostToolUse: [{ matcher: 'Edit', hooks: [h] }], Stop: [{ hooks: [h] }] }],
    ['SessionStart: the match on source when every rule restricts it',
      [rule({ events: ['SessionStart'], match: matchFilter({ source: 'startup' }) }), rule({ events: ['SessionStart'], match: matchFilter({ source: ['resume', 'startup'] }) })],
      { SessionStart: [{ matcher: 'startup|resume', hooks: [h] }] }],
    ['SessionStart: no matcher when one rule does not restrict source',
      [rule({ events: ['SessionStart'], match: matchFilter({ source: 'startup' }) }), rule({ events: ['SessionStart'] })],
      { SessionStart: [{ hooks: [h] }] }],
    ['SubagentStart: a hyphenated or plugin agent type is an anchored regex',
      [rule({ events: ['SubagentStart'], match: matchFilter({ agent_type: ['code-reviewer', 'my-plugin:qa'] }) })],
      { SubagentStart: [{ matcher: '^(?:code\\-reviewer|my\\-plugin:qa)$', hooks: [h] }] }],
    ['a wildcard match value becomes the regex itself', [rule({ events: ['SubagentStart'], match: matchFilter({ agent_type: 'ai-team:*' }) })],
      { SubagentStart: [{ matcher: '^ai-team:.*$', hooks: [h] }] }],
    ['the s flag of compiled match patterns is kept as [\\s\\S]',
      [rule({ events: ['SubagentStart'], match: [{ field: 'agent_type', patterns: [{ source: '^ai-team:.*$', flags: 's' }, { source: '^lead$', flags: 's' }] }] })],
      { SubagentStart: [{ matcher: '^lead$|^ai-team:[\\s\\S]*$', hooks: [h] }] }],
    ['a match on another field does not narrow the matcher', [rule({ events: ['SessionStart'], match: matchFilter({ model: 'x' }) })],
      { SessionStart: [{ hooks: [h] }] }],
    ['events without matcher support get no matcher', [rule({ events: ['TeammateIdle', 'TaskCompleted'], outcome: 'block' })],
      { TeammateIdle: [{ hooks: [h] }], TaskCompleted: [{ hooks: [h] }] }],
    ['WorktreeCreate is never registered', [rule({ events: ['WorktreeCreate'], outcome: 'block' })], {}],
    ['model switches: no matcher (canonical names differ from to_model)',
      [rule({ events: ['PreModelSwitch'], match: matchFilter({ to_model: 'claude-opus-5' }) })],
      { PreModelSwitch: [{ hooks: [h] }] }],
    ['FileChanged: watched names from */NAME patterns', [rule({ events: ['FileChanged'], match: matchFilter({ file_path: ['*/.envrc', '*/.env'] }) })],
      { FileChanged: [{ matcher: '.envrc|.env', hooks: [h] }] }],
    ['an unanchored regex that looks like a name is forced onto the regex path',
      [rule({ events: ['SessionStart'], match: [{ field: 'source', patterns: cmd('start') }] })],
      { SessionStart: [{ matcher: '(?:start)', hooks: [h] }] }],
    ['a case-insensitive regex cannot be a matcher: none',
      [rule({ events: ['SessionStart'], match: [{ field: 'source', patterns: [{ source: '^startup$', flags: 'i' }] }] })],
      { SessionStart: [{ hooks: [h] }] }],
    ['--if: one shared Bash prefix becomes Bash(prefix *), other tools a separate group',
      [rule({ tools: toolFilter('Bash'), command: cmd('^git\\s+push\\s') }), rule({ tools: toolFilter('Bash'), command: cmd('^git\\s+push\\s') }), rule({ tools: toolFilter('Write') })],
      { PreToolUse: [{ matcher: 'Bash', hooks: [bashIf('git push')] }, { matcher: 'Write', hooks: [h] }] }, true],
    ['--if: \\b is not a safe boundary, so no if',
      [rule({ tools: toolFilter('Bash'), command: cmd('^git push\\b') })],
      { PreToolUse: [{ matcher: 'Bash', hooks: [h] }] }, true],
    ['--if: two different prefixes, no if', [rule({ tools: toolFilter('Bash'), command: cmd('^npm\\s') }), rule({ tools: toolFilter('Bash'), command: cmd('^git\\s') })],
      { PreToolUse: [{ matcher: 'Bash', hooks: [h] }] }, true],
    ['without --if a translatable prefix still gets no if', [rule({ tools: toolFilter('Bash'), command: cmd('^npm\\s+publish\\s') })],
      { PreToolUse: [{ matcher: 'Bash', hooks: [h] }] }],
  ];

  // A rest parameter: jest would take a fourth named parameter for `done` on 3-element rows.
  it.each(table)('%s', (...row) => {
    const [, rules, expected, useIf] = row;
    expect(planHooks(compiledPolicy(rules), { handler: h, useIf }).hooks).toEqual(expected);
  });

  it('explains what it did not register', () => {
    const plan = planHooks(compiledPolicy([rule({ events: ['WorktreeCreate'] }), rule({ events: ['FileChanged'] })]), { handler: h });
    expect(plan.notes).toHaveLength(2);
    expect(plan.notes[0]).toMatch(/^FileChanged: the matcher is the list of watched file names/);
    expect(plan.notes[1]).toMatch(/^WorktreeCreate is not registered/);
    expect(plan.hooks).toEqual({ FileChanged: [{ hooks: [h] }] });
  });
});

describe('planHooks: event order', () => {
  it('lists events in the contract order, not rule order', () => {
    const rules = [rule({ events: ['Stop'] }), rule({ events: ['SessionStart'] }), rule({ events: ['PreToolUse'], tools: toolFilter('Bash') })];
    expect(Object.keys(planHooks(compiledPolicy(rules), { handler: h }).hooks)).toEqual(['SessionStart', 'PreToolUse', 'Stop']);
  });
});

describe('planHooks: onFailure', () => {
  it('keeps onFailure on events that honour it and leaves it out where Claude Code ignores it', () => {
    const closed: CommandHook = { ...h, onFailure: 'block' };
    const policy = compiledPolicy([
      rule({ events: ['PreToolUse'], tools: toolFilter('Write') }),
      rule({ events: ['Stop', 'SubagentStop', 'TaskCompleted', 'TeammateIdle', 'UserPromptSubmit'], outcome: 'block' }),
    ]);
    expect(planHooks(policy, { handler: closed }).hooks).toEqual({
      UserPromptSubmit: [{ hooks: [closed] }],
      PreToolUse: [{ matcher: 'Write', hooks: [closed] }],
      SubagentStop: [{ hooks: [h] }],
      TaskCompleted: [{ hooks: [h] }],
      Stop: [{ hooks: [h] }],
      TeammateIdle: [{ hooks: [h] }],
    });
  });
});
