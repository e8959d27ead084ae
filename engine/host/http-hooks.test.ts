import { commandOnlyReason, ensureHook, ensurePort, httpHookUrl, installedMode, isEnsureHook, isRunnerHttpHook, toHttpHooks, withEnsureHook } from './http-hooks';
import { isRunnerHook } from '../init/runner';
import type { CommandHook } from '../init/types';

const cmd: CommandHook = { type: 'command', command: '/usr/bin/env', args: ['-u', 'NODE_EXTRA_CA_CERTS', 'node', '/p/bin/policy.cjs', 'hook'], timeout: 15 };
const url = httpHookUrl(8707);

it('builds the daemon url and recognises its entries', () => {
  expect(url).toBe('http://127.0.0.1:8707/policy-hook');
  expect(httpHookUrl(1, '::1')).toBe('http://[::1]:1/policy-hook');
  expect(isRunnerHttpHook({ type: 'http', url })).toBe(true);
  expect(isRunnerHttpHook({ type: 'http', url: 'http://127.0.0.1:8707/other' })).toBe(false);
  expect(isRunnerHttpHook(cmd)).toBe(false);
});

it.each<[string, string | null]>([
  ['PreToolUse', null],
  ['Stop', null],
  ['SubagentStart', null],
  ['UserPromptSubmit', 'each prompt also starts the policy server again when it was stopped, so the prompt\'s own rules do not wait for it'],
  ['SessionStart', 'Claude Code accepts no http hooks for it'],
  ['Setup', 'Claude Code accepts no http hooks for it'],
  ['TeammateIdle', 'it blocks only with exit code 2, which an http hook cannot give'],
  ['TaskCompleted', 'it blocks only with exit code 2, which an http hook cannot give'],
  ['WorktreeCreate', 'it blocks only with exit code 2, which an http hook cannot give'],
])('%s over http: %s', (event, reason) => {
  expect(commandOnlyReason(event)).toBe(reason);
});

it('replaces handlers of http-capable events, keeping matcher, if and timeout', () => {
  const result = toHttpHooks({
    PreToolUse: [{ matcher: 'Bash', hooks: [{ ...cmd, if: 'Bash(git *)' }] }, { matcher: 'Write', hooks: [cmd] }],
    SessionStart: [{ hooks: [cmd] }],
  }, url);
  expect(result.hooks).toEqual({
    PreToolUse: [
      { matcher: 'Bash', hooks: [{ type: 'http', url, if: 'Bash(git *)', timeout: 15, onFailure: 'block' }] },
      { matcher: 'Write', hooks: [{ type: 'http', url, timeout: 15, onFailure: 'block' }] },
    ],
    SessionStart: [{ hooks: [cmd] }],
  });
  expect(result.notes).toEqual(['SessionStart stays a command hook: Claude Code accepts no http hooks for it']);
});

it('writes onFailure: block on every http entry, fail-open policy or not: a server the agent stopped refuses the call', () => {
  for (const handler of [cmd, { ...cmd, onFailure: 'block' as const }]) {
    const result = toHttpHooks({ PreToolUse: [{ matcher: 'Write', hooks: [handler] }], Stop: [{ hooks: [handler] }] }, url);
    expect(result.hooks.PreToolUse).toEqual([{ matcher: 'Write', hooks: [{ type: 'http', url, timeout: 15, onFailure: 'block' }] }]);
    expect(result.hooks.Stop).toEqual([{ hooks: [{ type: 'http', url, timeout: 15, onFailure: 'block' }] }]);
  }
});

it('keeps UserPromptSubmit on its command entry, so a prompt never waits for a server being started again', () => {
  const result = toHttpHooks({ UserPromptSubmit: [{ hooks: [cmd] }] }, url);
  expect(result.hooks.UserPromptSubmit).toEqual([{ hooks: [cmd] }]);
  expect(result.notes).toEqual(['UserPromptSubmit stays a command hook: each prompt also starts the policy server again when it was stopped, so the prompt\'s own rules do not wait for it']);
});

it('knows the mode settings already have: http (and its port), command, or none', () => {
  const ensure = ensureHook({ argv: ['node', '/p/bin/policy.cjs'], hookArgs: [], form: 'exec' }, 9123);
  expect(installedMode({ hooks: { Stop: [{ hooks: [{ type: 'http', url }] }], SessionStart: [{ hooks: [cmd] }, { hooks: [ensure] }] } })).toEqual({ mode: 'http', port: 9123 });
  expect(installedMode({ hooks: { Stop: [{ hooks: [{ type: 'http', url }] }] } })).toEqual({ mode: 'http', port: null });
  expect(installedMode({ hooks: { Stop: [{ hooks: [cmd] }] } })).toEqual({ mode: 'command' });
  expect(installedMode({ hooks: { Stop: [{ hooks: [{ type: 'command', command: './audit.sh' }] }] } })).toBeNull();
  expect(installedMode({})).toBeNull();
  expect(installedMode(null)).toBeNull();
});

it('starts the server from a SessionStart command hook of its own, on every source', () => {
  const runner = { argv: ['/usr/bin/env', '-u', 'NODE_EXTRA_CA_CERTS', 'node', '${CLAUDE_PROJECT_DIR}/node_modules/hookpolicy/bin/policy.cjs'], hookArgs: ['--config', 'team.yaml', '--on-error', 'closed'], form: 'exec' as const };
  const hook = ensureHook(runner, 9123);
  expect(hook).toEqual({
    type: 'command',
    command: '/usr/bin/env',
    args: ['-u', 'NODE_EXTRA_CA_CERTS', 'node', '${CLAUDE_PROJECT_DIR}/node_modules/hookpolicy/bin/policy.cjs', 'serve', '--ensure', '--port', '9123', '--config', 'team.yaml', '--on-error', 'closed'],
    timeout: 30,
  });
  expect(ensureHook({ ...runner, form: 'shell' }, 9123).command).toBe('NODE_EXTRA_CA_CERTS= node "${CLAUDE_PROJECT_DIR}/node_modules/hookpolicy/bin/policy.cjs" serve --ensure --port 9123 --config team.yaml --on-error closed');
  for (const h of [hook, ensureHook({ ...runner, form: 'shell' }, 9123)]) {
    expect([isEnsureHook(h), isRunnerHook(h), ensurePort(h)]).toEqual([true, true, 9123]);
  }
  expect(isEnsureHook(cmd)).toBe(false);
  expect(isEnsureHook({ type: 'command', command: 'node', args: ['x/policy.cjs', 'serve', '--port', '1'] })).toBe(false);
  const both = withEnsureHook({ SessionStart: [{ matcher: 'startup', hooks: [cmd] }] }, hook);
  expect(both.SessionStart).toEqual([{ matcher: 'startup', hooks: [cmd] }, { hooks: [hook] }]);
  expect(both.UserPromptSubmit).toEqual([{ hooks: [hook] }]);
});
