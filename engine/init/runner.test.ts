import { handlerWords, isRunnerHook, runnerHook, shellQuote } from './runner';

describe('runnerHook', () => {
  it('exec form: argv[0] is the command, the rest are args', () => {
    expect(runnerHook({ argv: ['/n/node', '/p/bin/policy.cjs'], hookArgs: ['--on-error', 'closed'], form: 'exec', timeout: 10 })).toEqual({
      type: 'command', command: '/n/node', args: ['/p/bin/policy.cjs', 'hook', '--on-error', 'closed'], timeout: 10,
    });
  });

  it('shell form: one quoted string that splits back into the same words', () => {
    const hook = runnerHook({ argv: ['/Program Files/node', "/it's/bin/policy.cjs"], hookArgs: ['--config', '${CLAUDE_PLUGIN_ROOT}/p.yaml'], form: 'shell' });
    expect(hook.command).toBe(`'/Program Files/node' '/it'\\''s/bin/policy.cjs' hook --config "\${CLAUDE_PLUGIN_ROOT}/p.yaml"`);
    expect(hook.args).toBeUndefined();
    expect(handlerWords(hook)).toEqual(['/Program Files/node', "/it's/bin/policy.cjs", 'hook', '--config', '${CLAUDE_PLUGIN_ROOT}/p.yaml']);
  });

  it('shell form: env -u NODE_EXTRA_CA_CERTS becomes an empty assignment, which needs no env process', () => {
    const argv = ['/usr/bin/env', '-u', 'NODE_EXTRA_CA_CERTS', '/n/node', '/p/bin/policy.cjs'];
    const hook = runnerHook({ argv, hookArgs: [], form: 'shell' });
    expect(hook.command).toBe('NODE_EXTRA_CA_CERTS= /n/node /p/bin/policy.cjs hook');
    expect(isRunnerHook(hook)).toBe(true);
    expect(runnerHook({ argv, hookArgs: [], form: 'exec' }).command).toBe('/usr/bin/env');
  });
});

describe('isRunnerHook', () => {
  it.each([
    [{ type: 'command', command: '/usr/bin/env', args: ['-u', 'NODE_EXTRA_CA_CERTS', '/n/node', '/p/bin/policy.cjs', 'hook'] }, true],
    [{ type: 'command', command: "'/n/node' '/p/bin/policy.cjs' hook --on-error closed" }, true],
    [{ type: 'command', command: 'node C:\\p\\bin\\policy.cjs hook' }, true],
    [{ type: 'command', command: 'node /p/bin/policy.cjs lint' }, false],
    [{ type: 'command', command: './my-policy.cjs hook' }, false],
    [{ type: 'http', url: 'http://x/policy.cjs hook' }, false],
    [null, false],
  ])('%j -> %p', (handler, expected) => {
    expect(isRunnerHook(handler)).toBe(expected);
  });
});

describe('shellQuote', () => {
  it.each([
    ['/usr/bin/node', '/usr/bin/node'],
    ['a b', "'a b'"],
    ["it's", "'it'\\''s'"],
  ])('%p -> %p', (word, quoted) => expect(shellQuote(word)).toBe(quoted));
});
