import { compiledPolicy, compiledRule, matchFilter, toolFilter } from '../../test/support/compiled';
import { checkDrift } from './drift';
import { planHooks } from './plan';
import type { CommandHook, HooksConfig } from './types';
import { ensureHook, httpHookUrl, toHttpHooks, withEnsureHook } from '../host/http-hooks';

const runner: CommandHook = { type: 'command', command: '/n/node', args: ['/p/bin/policy.cjs', 'hook'] };
const closedRunner: CommandHook = { ...runner, args: ['/p/bin/policy.cjs', 'hook', '--on-error', 'closed'] };
const policy = compiledPolicy([
  compiledRule({ id: 'no-env', tools: toolFilter('Write|Edit') }),
  compiledRule({ id: 'pw', tools: toolFilter('mcp__playwright__*') }),
  compiledRule({ id: 'start', events: ['SessionStart'], match: matchFilter({ source: 'startup' }), outcome: 'context' }),
  compiledRule({ id: 'idle', events: ['TeammateIdle'], outcome: 'block' }),
]);
const settingsWith = (hooks: HooksConfig) => [{ file: '.claude/settings.json', settings: { hooks } }];

describe('checkDrift', () => {
  it('finds nothing when settings are what init writes', () => {
    expect(checkDrift(policy, settingsWith(planHooks(policy, { handler: runner }).hooks))).toEqual([]);
  });

  it('accepts a catch-all entry and entries spread over several files', () => {
    const sources = [
      { file: 'user', settings: { hooks: { PreToolUse: [{ hooks: [runner] }] } } },
      { file: 'project', settings: { hooks: { SessionStart: [{ matcher: 'startup|resume', hooks: [runner] }], TeammateIdle: [{ hooks: [runner] }] } } },
    ];
    expect(checkDrift(policy, sources)).toEqual([]);
  });

  it('reports each event, tool and value a rule needs that no entry routes', () => {
    const items = checkDrift(policy, settingsWith({
      PreToolUse: [{ matcher: 'Write', hooks: [runner] }],
      SessionStart: [{ matcher: 'resume', hooks: [runner] }],
    }));
    expect(items.map((i) => [i.kind, i.event, i.message])).toEqual([
      ['not-routed', 'PreToolUse', 'PreToolUse: rule no-env needs tool "Edit", which no runner entry receives'],
      ['not-routed', 'PreToolUse', 'PreToolUse: rule pw needs tool "mcp__playwright__x", which no runner entry receives'],
      ['not-routed', 'SessionStart', 'SessionStart: rule start needs source "startup", which no runner entry receives'],
      ['not-routed', 'TeammateIdle', 'TeammateIdle: no runner entry, so rules idle never run'],
    ]);
  });

  it('ignores foreign hooks: only runner entries route', () => {
    const foreign = { type: 'command' as const, command: './other.sh' };
    const items = checkDrift(compiledPolicy([compiledRule({ id: 'a', events: ['Stop'] })]), settingsWith({ Stop: [{ hooks: [foreign] }] }));
    expect(items.map((i) => i.kind)).toEqual(['not-routed']);
  });

  it('reports runner entries for events no rule uses, WorktreeCreate with its reason', () => {
    const items = checkDrift(compiledPolicy([]), settingsWith({ Stop: [{ hooks: [runner] }], WorktreeCreate: [{ hooks: [runner] }] }));
    expect(items.map((i) => [i.kind, i.event])).toEqual([['unused-event', 'Stop'], ['unused-event', 'WorktreeCreate']]);
    expect(items[1].message).toMatch(/replaces Claude Code's git worktree logic/);
  });

  it('a rule that records on SessionEnd or PreCompact: init registers the events, and their entries are no drift', () => {
    const recording = compiledPolicy([
      compiledRule({ id: 'end', events: ['SessionEnd'], outcome: null, message: '', records: [{ kind: 'session-end', text: '{{reason}}', importance: 0.5, fields: {} }] }),
      compiledRule({ id: 'compact', events: ['PreCompact'], outcome: null, message: '', records: [{ kind: 'compact', text: '{{trigger}}', importance: 0.5, fields: {} }] }),
    ]);
    const hooks = planHooks(recording, { handler: runner }).hooks;
    expect(Object.keys(hooks)).toEqual(['PreCompact', 'SessionEnd']);
    expect(checkDrift(recording, settingsWith(hooks))).toEqual([]);
    expect(checkDrift(recording, settingsWith({ SessionEnd: [{ hooks: [runner] }] })).map((i) => [i.kind, i.event])).toEqual([['not-routed', 'PreCompact']]);
  });

  it('reports an `if` filter that narrows what a rule needs', () => {
    const p = compiledPolicy([compiledRule({ id: 'b', tools: toolFilter('Bash'), command: [{ source: '\\brm\\b', flags: '' }] })]);
    const items = checkDrift(p, settingsWith({ PreToolUse: [{ matcher: 'Bash', hooks: [{ ...runner, if: 'Bash(rm *)' }] }] }));
    expect(items.map((i) => i.kind)).toEqual(['partly-routed']);
  });

  it('accepts the `if` init would write with --if', () => {
    const p = compiledPolicy([compiledRule({ id: 'b', tools: toolFilter('Bash'), command: [{ source: '^npm\\s+publish\\s', flags: '' }] })]);
    expect(checkDrift(p, settingsWith(planHooks(p, { handler: runner, useIf: true }).hooks))).toEqual([]);
  });

  it('reports an --on-error flag that disagrees with the policy', () => {
    const closed = compiledPolicy([compiledRule({ id: 'a', events: ['Stop'] })], { onError: 'closed' });
    expect(checkDrift(closed, settingsWith({ Stop: [{ hooks: [runner] }] })).map((i) => i.kind)).toEqual(['on-error']);
    expect(checkDrift(closed, settingsWith({ Stop: [{ hooks: [closedRunner] }] }))).toEqual([]);
  });

  it('reports a fail-closed policy whose entries lack onFailure: "block", except where Claude Code ignores it', () => {
    const closed = compiledPolicy([compiledRule({ id: 'w', tools: toolFilter('Write') }), compiledRule({ id: 's', events: ['Stop'] })], { onError: 'closed' });
    const items = checkDrift(closed, settingsWith({ PreToolUse: [{ matcher: 'Write', hooks: [closedRunner] }], Stop: [{ hooks: [closedRunner] }] }));
    expect(items.map((i) => [i.kind, i.event])).toEqual([['on-failure', 'PreToolUse']]);
    expect(items[0].message).toMatch(/lacks "onFailure": "block", so a runner that cannot start .* lets the call through/);
    expect(checkDrift(closed, settingsWith(planHooks(closed, { handler: { ...closedRunner, onFailure: 'block' } }).hooks))).toEqual([]);
  });

  it('reports an event routed from two settings files: the runner would run twice', () => {
    const p = compiledPolicy([compiledRule({ id: 's', events: ['Stop'] })]);
    const sources = [
      { file: '.claude/settings.json', settings: { hooks: { Stop: [{ hooks: [runner] }] } } },
      { file: '.claude/settings.local.json', settings: { hooks: { Stop: [{ hooks: [runner] }] } } },
    ];
    expect(checkDrift(p, sources).map((i) => [i.kind, i.message])).toEqual([
      ['twice', 'Stop: runner entries in .claude/settings.json and .claude/settings.local.json: Claude Code runs every one, so the runner runs 2 times for each event'],
    ]);
  });

  it('http mode: the server entry is no route of its own; http entries need one on their port, with the policy\'s on_error', () => {
    const closed = compiledPolicy([compiledRule({ id: 'w', tools: toolFilter('Write') })], { onError: 'closed' });
    const runnerCommand = { argv: ['/n/node', '/p/bin/policy.cjs'], hookArgs: ['--on-error', 'closed'], form: 'exec' as const };
    const url = httpHookUrl(9123);
    const written = withEnsureHook(toHttpHooks(planHooks(closed, { handler: { ...closedRunner, onFailure: 'block' } }).hooks, url).hooks, ensureHook(runnerCommand, 9123));
    expect(checkDrift(closed, settingsWith(written as unknown as HooksConfig))).toEqual([]);
    const http = { PreToolUse: written.PreToolUse, UserPromptSubmit: written.UserPromptSubmit } as unknown as HooksConfig;
    expect(checkDrift(closed, settingsWith(http)).map((i) => [i.kind, i.message])).toEqual([
      ['no-server-start', 'SessionStart: the http entries (PreToolUse, ...) reach a policy server on port 9123, but no SessionStart entry starts it (policy serve --ensure --port 9123), so every such event fails'],
    ]);
    const elsewhere = { ...http, SessionStart: [{ hooks: [ensureHook(runnerCommand, 9124)] }] } as unknown as HooksConfig;
    expect(checkDrift(closed, settingsWith(elsewhere)).map((i) => i.kind)).toEqual(['no-server-start']);
    const open = { ...http, SessionStart: [{ hooks: [ensureHook({ ...runnerCommand, hookArgs: [] }, 9123)] }] } as unknown as HooksConfig;
    expect(checkDrift(closed, settingsWith(open)).map((i) => [i.kind, i.message])).toEqual([
      ['on-error', 'SessionStart: the policy server\'s entry lacks --on-error closed, the policy says on_error: closed'],
    ]);
    const noBlock = { PreToolUse: [{ matcher: 'Write', hooks: [{ type: 'http', url }] }], SessionStart: written.SessionStart, UserPromptSubmit: written.UserPromptSubmit } as unknown as HooksConfig;
    expect(checkDrift(closed, settingsWith(noBlock)).map((i) => i.kind)).toEqual(['on-failure']);
  });

  it('http mode under on_error: open: an http entry without onFailure block, or no restart at each prompt, is drift', () => {
    const open = compiledPolicy([compiledRule({ id: 'w', tools: toolFilter('Write') })], { onError: 'open' });
    const runnerCommand = { argv: ['/n/node', '/p/bin/policy.cjs'], hookArgs: [], form: 'exec' as const };
    const url = httpHookUrl(9123);
    const written = withEnsureHook(toHttpHooks(planHooks(open, { handler: runner }).hooks, url).hooks, ensureHook(runnerCommand, 9123));
    expect(written.PreToolUse).toEqual([{ matcher: expect.any(String), hooks: [{ type: 'http', url, onFailure: 'block' }] }]);
    expect(checkDrift(open, settingsWith(written as unknown as HooksConfig))).toEqual([]);
    const noBlock = { ...written, PreToolUse: [{ matcher: 'Write', hooks: [{ type: 'http', url }] }] } as unknown as HooksConfig;
    expect(checkDrift(open, settingsWith(noBlock)).map((i) => [i.kind, i.message])).toEqual([
      ['on-failure', 'PreToolUse: the http entry in .claude/settings.json lacks "onFailure": "block", so while the policy server is down (an agent can stop it) Claude Code lets the call through'],
    ]);
    const noRestart = { PreToolUse: written.PreToolUse, SessionStart: written.SessionStart } as unknown as HooksConfig;
    expect(checkDrift(open, settingsWith(noRestart)).map((i) => [i.kind, i.message])).toEqual([
      ['no-server-restart', 'UserPromptSubmit: no entry starts the policy server on port 9123 again (policy serve --ensure --port 9123), so once it is stopped (an agent can stop it) the session\'s http entries refuse every call until the next SessionStart'],
    ]);
  });
});
