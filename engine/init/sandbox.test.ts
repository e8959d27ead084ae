import { sandboxDrift, sandboxOn, withSandbox } from './sandbox';

const ON = { enabled: true, failIfUnavailable: true, allowUnsandboxedCommands: false };
const src = (file: string, settings: Record<string, unknown>) => ({ file, settings });

describe('the sandbox settings init writes', () => {
  it('turns the sandbox on, keeps the team\'s own keys, and lets the http entries reach the policy server once', () => {
    const team = { sandbox: { excludedCommands: ['docker *'], network: { allowedDomains: ['registry.npmjs.org'] } }, model: 'opus' };
    const once = withSandbox(team, 8707);
    expect(once).toEqual({ model: 'opus', sandbox: { ...ON, excludedCommands: ['docker *'], network: { allowedDomains: ['registry.npmjs.org', '127.0.0.1:8707'] } } });
    expect(withSandbox(once, 8707)).toEqual(once);
    expect(withSandbox({}, null)).toEqual({ sandbox: ON });
    expect([sandboxOn(once), sandboxOn({}), sandboxOn({ sandbox: { enabled: false } })]).toEqual([true, false, false]);
  });
});

describe('--check: what keeps the sandbox from holding', () => {
  const rules = ['Edit(/.claude/policies.yaml)', 'Read(~/.cache/hookpolicy/serve/**)'];
  const written = { ...withSandbox({}, 8707), permissions: { deny: rules } };

  it('says nothing when no file asks for the sandbox, and nothing when it is as init wrote it', () => {
    expect(sandboxDrift([src('.claude/settings.json', {})], { port: 8707, denyRules: rules })).toEqual([]);
    expect(sandboxDrift([src('.claude/settings.json', written)], { port: 8707, denyRules: rules })).toEqual([]);
  });

  it('names a file of higher precedence that turns it off, and stops there', () => {
    const local = src('.claude/settings.local.json', { sandbox: { enabled: false } });
    expect(sandboxDrift([src('.claude/settings.json', written), local], { port: 8707, denyRules: rules })).toEqual([
      'sandbox: .claude/settings.local.json sets sandbox.enabled to false, which wins over .claude/settings.json: Bash runs outside the sandbox',
    ]);
  });

  it('names each switch that lets a command out, the server\'s address, and the rules that are gone', () => {
    const weak = {
      sandbox: { enabled: true, excludedCommands: ['npm run *'], allowNestedUserNamespaces: true, filesystem: { disabled: true } },
      permissions: { deny: [rules[0]] },
    };
    expect(sandboxDrift([src('.claude/settings.json', weak)], { port: 8707, denyRules: rules })).toEqual([
      'sandbox: failIfUnavailable is not true: where the sandbox cannot start (bubblewrap or socat missing), Claude Code runs Bash unsandboxed with a warning',
      'sandbox: allowUnsandboxedCommands is not false: a command that asks for dangerouslyDisableSandbox runs outside the sandbox (unasked under bypassPermissions)',
      'sandbox: excludedCommands run outside the sandbox: npm run *',
      'sandbox: .claude/settings.json sets sandbox.filesystem.disabled: sandboxed commands write every file the user can',
      'sandbox: .claude/settings.json sets sandbox.allowNestedUserNamespaces: a sandboxed command can make a namespace of its own and write past the deny lists',
      "sandbox: network.allowedDomains lacks 127.0.0.1:8707: the http entries reach the policy server through the sandbox's proxy, which refuses it (HTTP 403) in every permission mode but bypassPermissions, and every call they guard is refused",
      'sandbox: permissions.deny lacks Read(~/.cache/hookpolicy/serve/**): the sandbox denies only the paths these rules name, so sandboxed commands can reach them',
    ]);
  });

  it('merges lists across files and lets the highest file win a switch, as Claude Code does', () => {
    const user = src('~/.claude/settings.json', { sandbox: { allowUnsandboxedCommands: true, network: { allowedDomains: ['127.0.0.1:8707'] } }, permissions: { deny: rules } });
    const project = src('.claude/settings.json', { sandbox: { enabled: true, failIfUnavailable: true, allowUnsandboxedCommands: false } });
    expect(sandboxDrift([user, project], { port: 8707, denyRules: rules })).toEqual([]);
    expect(sandboxDrift([project, user], { port: 8707, denyRules: rules })).toEqual([
      'sandbox: allowUnsandboxedCommands is not false: a command that asks for dangerouslyDisableSandbox runs outside the sandbox (unasked under bypassPermissions)',
    ]);
  });
});
