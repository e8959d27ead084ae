import { commandOnlyReason, httpHookUrl, isRunnerHttpHook, toHttpHooks } from './http-hooks';
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
      { matcher: 'Bash', hooks: [{ type: 'http', url, if: 'Bash(git *)', timeout: 15 }] },
      { matcher: 'Write', hooks: [{ type: 'http', url, timeout: 15 }] },
    ],
    SessionStart: [{ hooks: [cmd] }],
  });
  expect(result.notes).toEqual(['SessionStart stays a command hook: Claude Code accepts no http hooks for it']);
});
