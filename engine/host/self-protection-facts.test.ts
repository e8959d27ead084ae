import { guardsKey, runnerPrograms, selfProtectionFacts } from './self-protection-facts';

describe('runnerPrograms: what the hook command starts by name, as its PATH finds it', () => {
  it('node and env in every PATH folder, a relative one from the project, and the node running now', () => {
    expect(runnerPrograms('/home/me/.cargo/bin::bin:/usr/bin/', '/p')).toEqual([
      '/home/me/.cargo/bin/node', '/home/me/.cargo/bin/env', '/p/bin/node', '/p/bin/env', '/usr/bin/node', '/usr/bin/env', process.execPath,
    ].filter((v, i, all) => all.indexOf(v) === i));
  });

  it('reads . and .. in a folder, and keeps / as the root', () => {
    expect(runnerPrograms('/opt/./bin:/opt/x/../sbin:/', '/p').slice(0, 6)).toEqual(['/opt/bin/node', '/opt/bin/env', '/opt/sbin/node', '/opt/sbin/env', '/node', '/env']);
  });

  it('an empty PATH leaves the node running now', () => {
    expect(runnerPrograms('', '/p')).toEqual([process.execPath]);
  });
});

describe('selfProtectionFacts', () => {
  it('reads the programs from the PATH the runner was given, and a PATH changes the guards key', () => {
    const a = selfProtectionFacts({ HOME: '/home/me', PATH: '/home/me/.local/bin:/usr/bin' }, '/p');
    const b = selfProtectionFacts({ HOME: '/home/me', PATH: '/usr/bin' }, '/p');
    expect(a.programs).toEqual(expect.arrayContaining(['/home/me/.local/bin/node', '/home/me/.local/bin/env']));
    expect(b.programs).not.toContain('/home/me/.local/bin/node');
    expect(guardsKey(a)).not.toBe(guardsKey(b));
  });

  it('reads $CLAUDE_CONFIG_DIR, which changes the guards key too', () => {
    const a = selfProtectionFacts({ HOME: '/home/me', CLAUDE_CONFIG_DIR: '/home/me/.claude-work' }, '/p');
    const b = selfProtectionFacts({ HOME: '/home/me' }, '/p');
    expect([a.configDir, b.configDir]).toEqual(['/home/me/.claude-work', null]);
    expect(guardsKey(a)).not.toBe(guardsKey(b));
  });
});
