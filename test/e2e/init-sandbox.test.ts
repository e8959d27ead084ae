/**
 * `policy init --sandbox` and what `--check` says of a sandbox, through the built bin; the
 * examples of docs/commands/init.md's sandbox section. What the sandbox then holds in the
 * real client is test/real-client/sandbox.test.ts.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { sandboxUnavailable } from '../../engine/host/sandbox-runtime';
import { cleanEnv, docBlock, ORIGINAL, policy, POLICY, policyWith, project, type Project } from '../support/init-project';
import { REPO_ROOT } from '../support/run-hook';
import { pathWithout } from '../support/path-without';

const settingsOf = (p: Project, rel = '.claude/settings.json') => JSON.parse(p.read(rel));
const withSettings = (p: Project, edit: (s: Record<string, any>) => void, rel = '.claude/settings.json') => {
  const s = settingsOf(p, rel);
  edit(s);
  p.write(rel, JSON.stringify(s, null, 2));
};

describe('policy init --sandbox', () => {
  const original = `${JSON.stringify(ORIGINAL, null, 2)}\n`;

  it('adds what docs/commands/init.md shows: the switches, the server\'s address, and the deny rules Claude Code applies to the sandbox', () => {
    const p = project({ '.claude/policies.yaml': POLICY, '.claude/settings.json': original });
    const r = policy(p, 'init', '--sandbox');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("note: Claude Code's sandbox is on for Bash (sandbox.enabled, failIfUnavailable, allowUnsandboxedCommands: false)");
    expect(r.stdout).toContain("note: --sandbox writes a process per event (--mode command): sandboxed commands reach the policy server's port through the same proxy as the http entries, so the server could not tell their events from Claude Code's");
    expect(settingsOf(p).hooks.PreToolUse.at(-1).hooks[0].type).toBe('command');
    const shown = JSON.parse(docBlock('json', '## The sandbox: an OS backstop'));
    const written = settingsOf(p);
    expect(written.sandbox).toEqual(shown.sandbox);
    expect(written.permissions.deny).toEqual(expect.arrayContaining(shown.permissions.deny));
    expect(written.permissions.allow).toEqual(ORIGINAL.permissions.allow);
    expect(JSON.stringify(written)).not.toContain(p.home);
    // A second run keeps the sandbox the settings turn on, and changes nothing.
    expect(policy(p, 'init').stdout).toContain('.claude/settings.json is up to date; nothing changed');
    // Uninstall takes the rules out and leaves the sandbox.
    expect(policy(p, 'uninstall').code).toBe(0);
    expect(settingsOf(p)).toEqual({ ...ORIGINAL, sandbox: shown.sandbox });
  });

  it('--mode http: the server\'s address allowed, and the gap that leaves said', () => {
    const p = project({ '.claude/policies.yaml': POLICY });
    const r = policy(p, 'init', '--sandbox', '--mode', 'http');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("note: sandbox.network.allowedDomains lists 127.0.0.1:8707: the http entries reach the policy server through the sandbox's proxy, which runs in Claude Code's process, and so can sandboxed commands: the server cannot tell an event they forge (with the session id, which they can read) from Claude Code's, and records it (policy init --sandbox --mode command has no port)");
    expect(settingsOf(p).sandbox).toEqual({ enabled: true, failIfUnavailable: true, allowUnsandboxedCommands: false, network: { allowedDomains: ['127.0.0.1:8707'] } });
  });

  it('a state folder outside the home folder is not named in the committed file: init gives the rule for the personal one', () => {
    const p = project({ '.claude/policies.yaml': POLICY });
    const cache = fs.mkdtempSync(path.join(os.tmpdir(), 'hookpolicy-cache-'));
    const r = policyWith(p, { HOOKPOLICY_CACHE_DIR: cache }, 'init', '--sandbox', '--mode', 'command');
    fs.rmSync(cache, { recursive: true, force: true });
    expect(r.stdout).toContain(`note: the policy server's state folder ${cache}/serve is not under your home folder, so the committed settings cannot name it: add Read(/${cache}/serve/**) to permissions.deny in .claude/settings.local.json, or sandboxed commands can read its token`);
    expect(settingsOf(p).permissions.deny.filter((rule: string) => rule.startsWith('Read('))).toEqual([]);
  });

  it('gives each package hookpolicy loads from beside it an Edit rule of its own, with the sandbox on only', () => {
    // hookpolicy as npm installs it from the registry: a folder of its own, its packages beside it.
    const p = project({ '.claude/policies.yaml': POLICY }, false);
    const pkg = p.file('node_modules/hookpolicy');
    for (const f of ['bin', 'dist', 'policies', 'templates', 'package.json', 'policy.schema.json', 'policy-test.schema.json']) fs.cpSync(path.join(REPO_ROOT, f), path.join(pkg, f), { recursive: true });
    for (const name of fs.readdirSync(path.join(REPO_ROOT, 'node_modules'))) {
      if (!name.startsWith('.') && name !== 'hookpolicy') fs.symlinkSync(path.join(REPO_ROOT, 'node_modules', name), p.file(`node_modules/${name}`));
    }
    const init = (...args: string[]) => spawnSync(process.execPath, [path.join(pkg, 'bin', 'policy.cjs'), 'init', '--mode', 'command', ...args], { cwd: p.dir, env: cleanEnv({ HOME: p.home }), encoding: 'utf8' });
    const packageRules = () => (settingsOf(p).permissions.deny as string[]).filter((r) => /^Edit\(\/node_modules\/(?!hookpolicy|\.bin)/.test(r));
    expect(init().status).toBe(0);
    expect(packageRules()).toEqual([]);
    expect(init('--sandbox').status).toBe(0);
    expect(packageRules()).toEqual(expect.arrayContaining(['Edit(/node_modules/mvdan-sh/**)', 'Edit(/node_modules/picomatch/**)', 'Edit(/node_modules/ajv/**)']));
    expect(packageRules().length).toBeGreaterThan(50);
  });

  it('refuses --plugin: the sandbox is a setting of settings files', () => {
    const p = project({ 'plugin/policies.yaml': POLICY });
    const r = policy(p, 'init', '--sandbox', '--plugin', 'plugin');
    expect([r.code, r.stderr]).toEqual([2, "policy: --sandbox cannot be used with --plugin: the sandbox is a setting of Claude Code's settings files, not of a plugin\n"]);
  });
});

describe('policy init --check and the sandbox', () => {
  const here = sandboxUnavailable(process.env);

  it('is in sync as init wrote it (where the sandbox can start), and says when it cannot start', () => {
    const p = project({ '.claude/policies.yaml': POLICY });
    policy(p, 'init', '--sandbox');
    const r = policy(p, 'init', '--check');
    if (here === null) expect([r.code, r.stdout]).toEqual([0, expect.stringContaining('in sync')]);
    else expect(r.stdout).toContain(`drift: sandbox: it cannot start on this machine: ${here}\n`);
  });

  it('prints what docs/commands/init.md shows for a sandbox that lets commands out, on a machine without socat', () => {
    const p = project({ '.claude/policies.yaml': POLICY });
    policy(p, 'init', '--sandbox');
    withSettings(p, (s) => delete s.sandbox.allowUnsandboxedCommands);
    const bin = pathWithout(['socat']);
    const r = policyWith(p, { PATH: bin }, 'init', '--check');
    fs.rmSync(bin, { recursive: true, force: true });
    expect(r.code).toBe(1);
    const shown = docBlock('console', 'higher precedence that turns it off').split('$ policy init --check\n')[1];
    expect(r.stdout).toBe(shown);
  });

  it('names a personal settings file that turns the sandbox off, and a deny rule that is gone', () => {
    const p = project({ '.claude/policies.yaml': POLICY });
    policy(p, 'init', '--sandbox');
    withSettings(p, (s) => {
      s.permissions.deny = s.permissions.deny.filter((rule: string) => !rule.startsWith('Read('));
    });
    const gone = policy(p, 'init', '--check');
    expect(gone.stdout).toContain('drift: sandbox: permissions.deny lacks Read(~/.cache/hookpolicy/serve/**): the sandbox denies only the paths these rules name, so sandboxed commands can reach them\n');
    p.write('.claude/settings.local.json', JSON.stringify({ sandbox: { enabled: false } }));
    const off = policy(p, 'init', '--check');
    expect(off.code).toBe(1);
    expect(off.stdout).toContain('drift: sandbox: .claude/settings.local.json sets sandbox.enabled to false, which wins over .claude/settings.json: Bash runs outside the sandbox\n');
  });
});
