import { compiledPolicy } from '../../test/support/compiled';
import { runnerCommandFor, type RunnerCommandOptions } from './command';

const base: RunnerCommandOptions = {
  policy: compiledPolicy([]),
  nodePath: '/opt/node/bin/node',
  binPath: '/opt/hookpolicy/bin/policy.cjs',
  configs: [],
  projectRoot: '/work/app',
  envPath: null,
  form: 'exec',
};

describe('runnerCommandFor', () => {
  it('uses absolute node and bin paths, and a timeout above deadline_ms', () => {
    expect(runnerCommandFor(base)).toEqual({ argv: ['/opt/node/bin/node', '/opt/hookpolicy/bin/policy.cjs'], hookArgs: [], form: 'exec', timeout: 10 });
  });

  it('starts node through env -u NODE_EXTRA_CA_CERTS when env is available', () => {
    expect(runnerCommandFor({ ...base, envPath: '/usr/bin/env' }).argv).toEqual(['/usr/bin/env', '-u', 'NODE_EXTRA_CA_CERTS', '/opt/node/bin/node', '/opt/hookpolicy/bin/policy.cjs']);
  });

  it('keeps the CA certificates when the policy posts to an https webhook', () => {
    const policy = compiledPolicy([], { log: { file: null, webhook: { url: 'https://logs.example', timeoutMs: 1000, headers: {} }, record: [] } });
    expect(runnerCommandFor({ ...base, policy, envPath: '/usr/bin/env' }).argv[0]).toBe('/opt/node/bin/node');
  });

  it('passes --config relative to the project root, absolute outside it or for user scope, and --on-error closed', () => {
    const policy = compiledPolicy([], { onError: 'closed' });
    const configs = ['/work/app/.claude/team.yaml', '/etc/policies/org.yaml'];
    expect(runnerCommandFor({ ...base, policy, configs }).hookArgs).toEqual(['--config', '.claude/team.yaml', '--config', '/etc/policies/org.yaml', '--on-error', 'closed']);
    expect(runnerCommandFor({ ...base, configs, absoluteConfigs: true }).hookArgs).toEqual(['--config', '/work/app/.claude/team.yaml', '--config', '/etc/policies/org.yaml']);
  });

  it('hookpolicy in the project\'s node_modules: node from PATH and ${CLAUDE_PROJECT_DIR}, no path of this machine', () => {
    const r = runnerCommandFor({ ...base, envPath: '/usr/bin/env', projectBin: '/work/app/node_modules/hookpolicy/bin/policy.cjs' });
    expect(r.argv).toEqual(['/usr/bin/env', '-u', 'NODE_EXTRA_CA_CERTS', 'node', '${CLAUDE_PROJECT_DIR}/node_modules/hookpolicy/bin/policy.cjs']);
    expect(runnerCommandFor({ ...base, projectBin: '/elsewhere/node_modules/hookpolicy/bin/policy.cjs' }).argv).toEqual(['/opt/node/bin/node', '/opt/hookpolicy/bin/policy.cjs']);
  });

  it('fails closed at start-up too when the policy says on_error: closed', () => {
    expect(runnerCommandFor({ ...base, policy: compiledPolicy([], { onError: 'closed' }) }).failClosed).toBe(true);
    expect(runnerCommandFor(base).failClosed).toBeUndefined();
  });

  it('a plugin carrying hookpolicy: ${CLAUDE_PLUGIN_ROOT} paths and node from PATH', () => {
    const r = runnerCommandFor({
      ...base,
      pluginRoot: '/src/my-plugin',
      binPath: '/src/my-plugin/node_modules/hookpolicy/bin/policy.cjs',
      configs: ['/src/my-plugin/policies.yaml'],
      envPath: '/usr/bin/env',
    });
    expect(r.argv).toEqual(['node', '${CLAUDE_PLUGIN_ROOT}/node_modules/hookpolicy/bin/policy.cjs']);
    expect(r.hookArgs).toEqual(['--config', '${CLAUDE_PLUGIN_ROOT}/policies.yaml']);
  });
});
