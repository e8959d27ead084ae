import { parseClaudeSettings } from './claude-settings';
import { isRunnerHandler, routeCoversAllTools, routeCoversTool, runnerRoutes } from './routing';

describe('isRunnerHandler', () => {
  it.each([
    [{ type: 'command', command: 'npx policy hook' }, true],
    [{ type: 'command', command: 'node "$CLAUDE_PROJECT_DIR"/node_modules/hookpolicy/bin/policy.cjs hook --config x.yaml' }, true],
    [{ type: 'command', command: '"/p/node_modules/.bin/policy" hook' }, true],
    [{ type: 'command', command: 'node', args: ['node_modules/hookpolicy/bin/policy.cjs', 'hook'] }, true],
    [{ command: 'policy hook' }, true],
    [{ type: 'command', command: "/usr/bin/env -u NODE_EXTRA_CA_CERTS /n/node '/my project/bin/policy.cjs' hook --on-error closed" }, true],
    [{ type: 'command', command: 'policy lint' }, false],
    [{ type: 'command', command: './my-policy-hook.sh' }, false],
    [{ type: 'prompt' }, false],
    [{ type: 'http', url: 'http://127.0.0.1:7777/hook' }, true],
  ])('%j: %s', (handler, expected) => {
    expect(isRunnerHandler(handler)).toBe(expected);
  });
});

describe('runnerRoutes', () => {
  const settings = parseClaudeSettings('s.json', JSON.stringify({
    hooks: {
      PreToolUse: [
        { matcher: 'Bash', hooks: [{ type: 'command', command: 'policy hook' }] },
        { hooks: [{ type: 'command', command: 'policy hook', if: 'Edit(src/**)' }] },
        { matcher: '*', hooks: [{ type: 'command', command: 'echo other' }] },
      ],
      Stop: [{ hooks: [{ type: 'command', command: 'policy hook', if: 'Bash(x)' }] }],
    },
  })).settings!;

  it('keeps runner handlers with their matcher and if', () => {
    expect(runnerRoutes(settings, 'PreToolUse')).toEqual([
      { kind: 'command', matcher: 'Bash', ifTool: null },
      { kind: 'command', matcher: undefined, ifTool: 'Edit' },
    ]);
  });

  it('drops handlers with if on non-tool events (they never run)', () => {
    expect(runnerRoutes(settings, 'Stop')).toEqual([]);
  });

  it('covers tools by matcher and if', () => {
    const [bash, edit] = runnerRoutes(settings, 'PreToolUse');
    expect([routeCoversTool(bash, 'Bash'), routeCoversTool(bash, 'Edit'), routeCoversTool(edit, 'Edit'), routeCoversTool(edit, 'Write')])
      .toEqual([true, false, true, false]);
    expect([routeCoversAllTools(bash), routeCoversAllTools(edit), routeCoversAllTools({ kind: 'command', matcher: '*', ifTool: null })])
      .toEqual([false, false, true]);
  });
});
