import { parseClaudeSettings } from './claude-settings';
import { lintText, lintedAt } from './fixture';

const runner = { type: 'command', command: 'npx policy hook' };
const settingsOf = (hooks: object, extra: object = {}) => parseClaudeSettings('settings.json', JSON.stringify({ ...extra, hooks })).settings;
const policy = (rule: string) => `version: 1\nrules:\n  - id: r\n${rule}`;

describe('settings-not-routed', () => {
  const routedBash = { PreToolUse: [{ matcher: 'Bash', hooks: [runner] }] };
  it.each([
    ['event not routed at all', '    on: Stop\n    block: x\n', {}, ['4:9 settings-not-routed']],
    ['one event of a list', '    on: [Stop, SubagentStop]\n    block: x\n', { Stop: [{ hooks: [runner] }] }, ['4:16 settings-not-routed']],
    ['a tool outside the matcher', '    on: PreToolUse\n    tools: Bash|Write\n    deny: x\n', routedBash, ['5:17 settings-not-routed']],
    ['a rule for every tool, routed for Bash only', '    on: PreToolUse\n    deny: x\n', routedBash, ['4:9 settings-not-routed']],
    ['another program on the event', '    on: Stop\n    block: x\n', { Stop: [{ hooks: [{ type: 'command', command: './lint.sh' }] }] }, ['4:9 settings-not-routed']],
    ['a handler with if on a non-tool event never runs', '    on: Stop\n    block: x\n', { Stop: [{ hooks: [{ ...runner, if: 'Bash(*)' }] }] }, ['4:9 settings-not-routed']],
    ['routed', '    on: PreToolUse\n    tools: Bash\n    deny: x\n', routedBash, []],
    ['routed by a regex matcher', '    on: PreToolUse\n    tools: mcp__github__*\n    deny: x\n', { PreToolUse: [{ matcher: 'mcp__.*', hooks: [runner] }] }, []],
    ['routed for every tool', '    on: PreToolUse\n    deny: x\n', { PreToolUse: [{ matcher: '*', hooks: [runner] }] }, []],
    ['a tool in the if of a handler', '    on: PreToolUse\n    tools: Edit\n    deny: x\n', { PreToolUse: [{ hooks: [{ ...runner, if: 'Edit(src/**)' }] }] }, []],
  ])('%s', (_name, rule, hooks, expected) => {
    expect(lintedAt(policy(rule), 'settings-not-routed', { settings: settingsOf(hooks) })).toEqual(expected);
  });

  it('says nothing without settings', () => {
    expect(lintedAt(policy('    on: Stop\n    block: x\n'), 'settings-not-routed')).toEqual([]);
  });

  it('reports disableAllHooks once per rule', () => {
    const settings = settingsOf({ Stop: [{ hooks: [runner] }] }, { disableAllHooks: true });
    expect(lintedAt(policy('    on: [Stop, SubagentStop]\n    block: x\n'), 'settings-not-routed', { settings })).toEqual(['4:10 settings-not-routed']);
  });

  it('names the settings file and suggests policy init', () => {
    const d = lintText(policy('    on: Stop\n    block: x\n'), { settings: settingsOf({}), settingsFile: '.claude/settings.json' })
      .find((x) => x.code === 'settings-not-routed');
    expect(d).toMatchObject({
      message: 'Rule "r" never fires: .claude/settings.json does not send Stop to the runner',
      hint: 'add a "policy hook" handler for Stop to .claude/settings.json, or run "policy init"',
    });
  });
});
