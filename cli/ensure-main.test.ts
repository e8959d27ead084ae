import { ensureArgs } from './ensure-main';

describe('ensureArgs: the shapes `policy init` writes go to dist/ensure.cjs', () => {
  it.each([
    [['--ensure', '--port', '8707'], { port: 8707, configs: [], onError: null, idleSeconds: 30 }],
    [['--ensure', '--port', '9123', '--on-error', 'closed'], { port: 9123, configs: [], onError: 'closed', idleSeconds: 30 }],
    [['--ensure', '--port', '8707', '--config', '.claude/team.yaml', '-c', '/etc/policies/org.yaml', '--on-error', 'open'], { port: 8707, configs: ['.claude/team.yaml', '/etc/policies/org.yaml'], onError: 'open', idleSeconds: 30 }],
    [['--port', '8707', '--idle', '1', '--ensure'], { port: 8707, configs: [], onError: null, idleSeconds: 1 }],
    [['--ensure', '--port', '08707', '--idle', '0.5'], { port: 8707, configs: [], onError: null, idleSeconds: 0.5 }],
  ])('%j', (args, expected) => {
    expect(ensureArgs(args)).toEqual(expected);
  });

  it.each([
    [['--ensure'], 'no port'],
    [['--port', '8707'], 'no --ensure'],
    [['--ensure', '--port', '0'], 'port 0 (the CLI says why not)'],
    [['--ensure', '--port', '70000'], 'a port out of range'],
    [['--ensure', '--port', 'http'], 'a port that is not a number'],
    [['--ensure', '--port', '8707', '--on-error', 'maybe'], 'an on-error the CLI refuses'],
    [['--ensure', '--port', '8707', '--idle', '-1'], 'a negative idle'],
    [['--ensure', '--port', '8707', '--idle', '1e3'], 'an idle the CLI refuses'],
    [['--ensure', '--port', '0x1f'], 'a port in hex'],
    [['--ensure', '--port', ' 8707'], 'a port with a space'],
    [['--ensure', '--port', ''], 'an empty port'],
    [['--ensure', '--port', '8707', '--quiet'], 'an option of the CLI\'s own'],
    [['--ensure', '--port', '8707', '--config'], 'an option without its value'],
    [['--ensure', '--port', '8707', '--config', '--on-error'], 'a value that looks like an option'],
    [['--ensure', '--ensure', '--port', '8707'], '--ensure twice'],
    [['--ensure', '--port=8707'], 'the --opt=value form'],
  ])('%j: %s -> null (the CLI runs it)', (args) => {
    expect(ensureArgs(args)).toBeNull();
  });
});
