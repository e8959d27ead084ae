import { countRunnerHooks, installHooks, settingsProblem, uninstallHooks } from './merge';
import type { CommandHook, HooksConfig, SettingsObject } from './types';

const runner: CommandHook = { type: 'command', command: '/n/node', args: ['/p/bin/policy.cjs', 'hook'], timeout: 10 };
const oldRunner: CommandHook = { type: 'command', command: "'/old/node' '/old/bin/policy.cjs' hook" };
const foreign = { type: 'command', command: 'prettier --write' };
const lint = { type: 'command', command: './lint.sh' };

const existing = (): SettingsObject => ({
  model: 'opus',
  permissions: { allow: ['Bash(git status)'] },
  hooks: {
    PostToolUse: [{ matcher: 'Write', hooks: [foreign] }],
    PreToolUse: [{ matcher: 'Bash', hooks: [lint] }],
  },
});

const plan: HooksConfig = {
  PreToolUse: [{ matcher: 'Write|Edit', hooks: [runner] }],
  Stop: [{ hooks: [runner] }],
};

describe('installHooks', () => {
  it('keeps the keys a person added to a runner handler (statusMessage) when it replaces the handler', () => {
    const mine = { hooks: { Stop: [{ hooks: [{ ...oldRunner, statusMessage: 'Checking the team rules…' }] }] } };
    const { settings } = installHooks(mine, { Stop: [{ hooks: [{ ...runner, onFailure: 'block' }] }] });
    expect(settings).toEqual({ hooks: { Stop: [{ hooks: [{ ...runner, onFailure: 'block', statusMessage: 'Checking the team rules…' }] }] } });
    expect(installHooks(settings, { Stop: [{ hooks: [{ ...runner, onFailure: 'block' }] }] }).changed).toBe(false);
  });


  it('adds the runner beside other hooks, leaving every other key alone', () => {
    const { settings, changed } = installHooks(existing(), plan);
    expect(changed).toBe(true);
    expect(settings).toEqual({
      model: 'opus',
      permissions: { allow: ['Bash(git status)'] },
      hooks: {
        PostToolUse: [{ matcher: 'Write', hooks: [foreign] }],
        PreToolUse: [{ matcher: 'Bash', hooks: [lint] }, { matcher: 'Write|Edit', hooks: [runner] }],
        Stop: [{ hooks: [runner] }],
      },
    });
    expect(Object.keys(settings)).toEqual(['model', 'permissions', 'hooks']);
  });

  it('is idempotent: a second run changes nothing', () => {
    const once = installHooks(existing(), plan).settings;
    const twice = installHooks(once, plan);
    expect(twice.changed).toBe(false);
    expect(twice.settings).toEqual(once);
  });

  it('replaces earlier runner entries in place and drops those of events no longer used', () => {
    const before: SettingsObject = {
      hooks: {
        SessionStart: [{ hooks: [oldRunner] }],
        PreToolUse: [{ matcher: 'Bash', hooks: [oldRunner, lint] }, { matcher: 'Read', hooks: [foreign] }],
      },
    };
    const { settings } = installHooks(before, { PreToolUse: [{ matcher: 'Write', hooks: [runner] }] });
    expect(settings).toEqual({
      hooks: {
        PreToolUse: [{ matcher: 'Write', hooks: [runner] }, { matcher: 'Bash', hooks: [lint] }, { matcher: 'Read', hooks: [foreign] }],
      },
    });
  });

  it('does not modify its input', () => {
    const input = existing();
    const copy = JSON.parse(JSON.stringify(input));
    installHooks(input, plan);
    expect(input).toEqual(copy);
  });

  it('creates hooks in an empty file', () => {
    expect(installHooks({}, plan).settings).toEqual({ hooks: plan });
  });
});

describe('uninstallHooks', () => {
  it('removes only the runner entries, keeping foreign hooks and keys', () => {
    const installed = installHooks(existing(), plan).settings;
    expect(countRunnerHooks(installed)).toBe(2);
    const { settings, changed } = uninstallHooks(installed);
    expect(changed).toBe(true);
    expect(settings).toEqual(existing());
    expect(countRunnerHooks(settings)).toBe(0);
  });

  it('removes the hooks key it emptied', () => {
    const { settings } = uninstallHooks({ theme: 'dark', hooks: { Stop: [{ hooks: [runner] }] } });
    expect(settings).toEqual({ theme: 'dark' });
  });

  it('reports no change when the runner is not there', () => {
    expect(uninstallHooks(existing()).changed).toBe(false);
    expect(uninstallHooks({ hooks: {} }).changed).toBe(false);
  });
});

describe('settingsProblem', () => {
  it.each([
    [{}, null],
    [{ hooks: {} }, null],
    [[], 'the file is not a JSON object'],
    [{ hooks: [] }, '"hooks" is not an object'],
    [{ hooks: { Stop: {} } }, '"hooks.Stop" is not a list'],
  ] as Array<[unknown, string | null]>)('%j -> %p', (settings, problem) => {
    expect(settingsProblem(settings)).toBe(problem);
  });
});
