import { parse as parseToml } from 'smol-toml';
import {
  codexHookHash, codexHookState, codexHooksBlock, codexProjectTrusted, codexRunnerTrust, codexTrustBlock, readCodexToml, withCodexBlock, withTrustBlock,
} from './config';

describe('Codex hook trust', () => {
  // Codex 0.171.0 runs a hook with this trusted_hash and skips it with any other: the
  // real-client suite (test/real-client/hosts) runs Codex on the trust init records.
  it('hashes a hook as Codex does: canonical JSON of its normalized identity, defaults filled in', () => {
    expect(codexHookHash('PreToolUse', 'Bash', { type: 'command', command: './hook.sh' }))
      .toBe('sha256:84a8c2f58838a1dc633243476e9ee810183f1a90463f7714709bf9cf836b93d6');
  });

  it('keys each runner entry by file, event label, group and handler, and leaves the user\'s own hooks alone', () => {
    const text = withCodexBlock('[[hooks.PreToolUse]]\nmatcher = "Bash"\n[[hooks.PreToolUse.hooks]]\ntype = "command"\ncommand = "./audit.sh"\n',
      codexHooksBlock([{ event: 'PreToolUse', ruleEvent: 'PreToolUse', matcher: 'Write|Edit' }, { event: 'Stop', ruleEvent: 'Stop' }], 'node "$d/node_modules/hookpolicy/bin/policy.cjs" hook --host codex', 10));
    const entries = codexRunnerTrust(parseToml(text) as Record<string, unknown>, '/p/.codex/config.toml');
    expect(entries.map((e) => e.key)).toEqual(['/p/.codex/config.toml:pre_tool_use:1:0', '/p/.codex/config.toml:stop:0:0']);
  });

  it('replaces its block in place, keeps the rest of the file as written, and takes it out again', () => {
    const mine = '# my settings\nmodel = "o4"\n';
    const once = withCodexBlock(mine, codexHooksBlock([{ event: 'Stop', ruleEvent: 'Stop' }], 'x hook', 5));
    const twice = withCodexBlock(once, codexHooksBlock([{ event: 'Stop', ruleEvent: 'Stop' }], 'x hook', 7));
    expect(twice.startsWith(mine)).toBe(true);
    expect(twice.match(/hookpolicy: the runner/g)).toHaveLength(1);
    expect(readCodexToml(twice).config).toMatchObject({ model: 'o4', hooks: { Stop: [{ hooks: [{ command: 'x hook', timeout: 7 }] }] } });
    expect(withCodexBlock(twice, null).trim()).toBe(mine.trim());
  });

  it('reads the user\'s trust, and a hook switched off', () => {
    const entry = { key: '/p/.codex/config.toml:stop:0:0', event: 'Stop', hash: 'sha256:aa' };
    const user = (state: string) => parseToml(`[hooks.state."${entry.key}"]\n${state}\n`) as Record<string, unknown>;
    expect(codexHookState(user('trusted_hash = "sha256:aa"'), entry)).toEqual({ trusted: 'trusted', disabled: false });
    expect(codexHookState(user('trusted_hash = "sha256:bb"'), entry).trusted).toBe('modified');
    expect(codexHookState(user('enabled = false'), entry)).toEqual({ trusted: 'untrusted', disabled: true });
    const block = codexTrustBlock('/p', [entry]) as string;
    const written = withTrustBlock('model = "o4"\n', '/p', block);
    expect(codexHookState(readCodexToml(written).config as Record<string, unknown>, entry).trusted).toBe('trusted');
    expect(withTrustBlock(written, '/q', null)).toBe(written);
  });

  it('reads project trust from the project or the nearest folder above with a trust level', () => {
    const user = parseToml('[projects."/home/me"]\ntrust_level = "trusted"\n[projects."/home/me/secret"]\ntrust_level = "untrusted"\n') as Record<string, unknown>;
    expect(codexProjectTrusted(user, '/home/me/shop')).toBe(true);
    expect(codexProjectTrusted(user, '/home/me/secret/app')).toBe(false);
    expect(codexProjectTrusted(user, '/srv/app')).toBe(false);
  });
});
