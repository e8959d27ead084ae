/**
 * `policy init` / `policy init --check` / `policy uninstall` through the built bin, on
 * throwaway projects with HOME pointed at a temp folder.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { linkHookpolicy, PROJECT_BIN } from '../support/install';
import { cleanEnv, docBlock, ORIGINAL, policy, POLICY, project, type Project } from '../support/init-project';
import { POLICY_BIN, REPO_ROOT } from '../support/run-hook';

const BIN = fs.realpathSync(POLICY_BIN);
const ENV_PREFIX = process.platform !== 'win32' && fs.existsSync('/usr/bin/env') ? ['/usr/bin/env', '-u', 'NODE_EXTRA_CA_CERTS'] : [];
const argv = ENV_PREFIX.length > 0 ? [...ENV_PREFIX.slice(1), process.execPath, BIN] : [BIN];
const command = ENV_PREFIX[0] ?? process.execPath;
/** A personal (local or user scope) entry: this machine's absolute paths. */
const runner = (extra: string[] = ['--on-error', 'closed']) => ({ type: 'command', command, args: [...argv, 'hook', ...extra], timeout: 10 });
/** The committed (project scope) entry: node from PATH, the runner through ${CLAUDE_PROJECT_DIR}. */
const SHARED_BIN = `\${CLAUDE_PROJECT_DIR}/${PROJECT_BIN}`;
const sharedArgv = ENV_PREFIX.length > 0 ? [...ENV_PREFIX.slice(1), 'node', SHARED_BIN] : [SHARED_BIN];
const sharedCommand = ENV_PREFIX[0] ?? 'node';
const shared = (extra: string[] = ['--on-error', 'closed'], failClosed = true) => ({
  type: 'command', command: sharedCommand, args: [...sharedArgv, 'hook', ...extra], timeout: 10, ...(failClosed ? { onFailure: 'block' } : {}),
});

describe('policy init (project scope)', () => {
  const originalText = `${JSON.stringify(ORIGINAL, null, 2)}\n`;
  let p: Project;
  beforeAll(() => {
    p = project({ '.claude/policies.yaml': POLICY, '.claude/settings.json': originalText });
  });

  it('merges narrow runner entries into the existing settings and backs the file up', () => {
    const r = policy(p, 'init', '--mode', 'command');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Wrote .claude/settings.json (backup: .claude/settings.json.bak)');
    const written = p.read('.claude/settings.json');
    expect(JSON.parse(written)).toEqual({
      model: 'opus',
      // Claude Code's own deny rules for hookpolicy's files (engine/init/permissions.ts).
      permissions: { allow: ['Bash(git status)'], deny: expect.arrayContaining(['Edit(/.claude/policies.yaml)', 'Edit(/.claude/settings.json)', 'Edit(/node_modules/hookpolicy/**)', 'Edit(~/.claude/settings.json)', 'Edit(/.claude/hookpolicy/memory/**)']) },
      hooks: {
        PreToolUse: [
          { matcher: 'Bash', hooks: [{ type: 'command', command: './audit.sh' }] },
          // The built-in self-protection rule adds every writing tool (engine/self-protection.ts).
          { matcher: '^(?:Write|Edit|Bash|MultiEdit|NotebookEdit|PowerShell)$|^mcp__playwright__.*$', hooks: [shared()] },
        ],
        Notification: [{ hooks: [{ type: 'command', command: 'notify-send done' }] }],
        SessionStart: [{ matcher: 'startup', hooks: [shared()] }],
        // Claude Code ignores onFailure on Stop: init does not promise it there.
        Stop: [{ hooks: [shared(['--on-error', 'closed'], false)] }],
      },
    });
    expect(written).toBe(`${JSON.stringify(JSON.parse(written), null, 2)}\n`);
    expect(p.read('.claude/settings.json.bak')).toBe(originalText);
    // docs/commands/init.md shows this very file (on Linux and macOS, where env is used).
    if (ENV_PREFIX.length > 0) expect(JSON.parse(written)).toMatchObject(JSON.parse(docBlock('json', 'What init writes')));
  });

  it("leaves this machine's PATH and $CLAUDE_CONFIG_DIR out of the committed permissions: they are the hook's to guard", () => {
    const q = project({ '.claude/policies.yaml': POLICY, '.claude/settings.json': '{}\n' });
    const pathWithHome = `${q.home}/.cargo/bin:${process.env.PATH ?? ''}`;
    const env = cleanEnv({ HOME: q.home, PATH: pathWithHome, CLAUDE_CONFIG_DIR: `${q.home}/.claude-work` });
    const r = spawnSync(process.execPath, [POLICY_BIN, 'init', '--mode', 'command'], { cwd: q.dir, env, encoding: 'utf8', timeout: 60000 });
    expect(r.status).toBe(0);
    const deny = (JSON.parse(q.read('.claude/settings.json')) as { permissions: { deny: string[] } }).permissions.deny;
    expect(deny).toContain('Edit(~/.claude/settings.json)');
    expect(deny.filter((rule) => /\/(?:node|env)\)$|cargo|claude-work/.test(rule))).toEqual([]);
  });

  it('a second run changes nothing and says so', () => {
    const before = p.read('.claude/settings.json');
    const r = policy(p, 'init', '--mode', 'command');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('.claude/settings.json is up to date; nothing changed');
    expect(p.read('.claude/settings.json')).toBe(before);
    expect(fs.readdirSync(p.file('.claude')).filter((f) => f.endsWith('.bak'))).toEqual(['settings.json.bak']);
  });

  it('the command it wrote works when started as Claude Code starts it (no shell, ${CLAUDE_PROJECT_DIR} expanded, node on PATH)', () => {
    const settings = JSON.parse(p.read('.claude/settings.json'));
    const hook = settings.hooks.PreToolUse[1].hooks[0];
    const event = { hook_event_name: 'PreToolUse', tool_name: 'Write', tool_input: { file_path: p.file('.env'), content: 'X=1' }, cwd: p.dir };
    const cache = fs.mkdtempSync(path.join(os.tmpdir(), 'hookpolicy-cache-'));
    const expand = (word: string) => word.split('${CLAUDE_PROJECT_DIR}').join(p.dir);
    const r = spawnSync(expand(hook.command), hook.args.map(expand), {
      cwd: p.dir,
      input: JSON.stringify(event),
      encoding: 'utf8',
      env: cleanEnv({ CLAUDE_PROJECT_DIR: p.dir, HOOKPOLICY_CACHE_DIR: cache, PATH: path.dirname(process.execPath) }),
    });
    fs.rmSync(cache, { recursive: true, force: true });
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({
      hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: '.env holds secrets.' },
    });
  });

  it('--check: 0 in sync, 1 with each drift listed', () => {
    const synced = policy(p, 'init', '--check', '--scope', 'project');
    expect([synced.code, synced.stdout]).toEqual([0, expect.stringContaining('in sync')]);
    p.write('.claude/policies.yaml', `${POLICY}  - id: prompt\n    on: UserPromptSubmit\n    block: "no"\n`);
    const r = policy(p, 'init', '--check');
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('drift: UserPromptSubmit: no runner entry, so rules prompt never run');
    p.write('.claude/policies.yaml', POLICY.replace('tools: Write|Edit', 'tools: Write|Edit|Read'));
    const r2 = policy(p, 'init', '--check');
    expect(r2.code).toBe(1);
    expect(r2.stdout).toContain('drift: PreToolUse: rule no-env-writes needs tool "Read", which no runner entry receives');
    p.write('.claude/policies.yaml', POLICY);
  });

  it('uninstall removes only what init added, after a backup', () => {
    const before = p.read('.claude/settings.json');
    const r = policy(p, 'uninstall');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Removed 3 runner entries from \.claude\/settings\.json \(backup: \.claude\/settings\.json\.\d{8}-\d{6}\.bak\)/);
    expect(JSON.parse(p.read('.claude/settings.json'))).toEqual(ORIGINAL);
    const backups = fs.readdirSync(p.file('.claude')).filter((f) => /^settings\.json\.\d/.test(f));
    expect(backups).toHaveLength(1);
    expect(p.read(`.claude/${backups[0]}`)).toBe(before);
    expect(policy(p, 'uninstall').stdout).toContain('no runner entries; nothing changed');
    expect(policy(p, 'init', '--check').code).toBe(1);
  });
});

describe('policy init --mode http: the example in docs/commands/init.md', () => {
  it('writes the http entries, the SessionStart entry that starts the server, and command entries where http cannot answer', () => {
    const p = project({ '.claude/policies.yaml': POLICY, '.claude/settings.json': `${JSON.stringify(ORIGINAL, null, 2)}\n` });
    const r = policy(p, 'init', '--mode', 'http');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('note: each session starts the policy server on 127.0.0.1:8707 at SessionStart (policy serve --ensure)');
    const written = JSON.parse(p.read('.claude/settings.json'));
    if (ENV_PREFIX.length > 0) expect(written).toMatchObject(JSON.parse(docBlock('json', 'The fast path (the default)')));
    expect(written.hooks.SessionStart[1].hooks[0].args.slice(-6)).toEqual(['serve', '--ensure', '--port', '8707', '--on-error', 'closed']);
    expect(policy(p, 'init', '--check', '--scope', 'project').code).toBe(0);
    const removed = policy(p, 'uninstall');
    expect(removed.stdout).toMatch(/^Removed 5 runner entries/);
    expect(JSON.parse(p.read('.claude/settings.json')).hooks).toEqual(ORIGINAL.hooks);
  });
});

describe('policy init: the example at the top of docs/commands/init.md', () => {
  it('prints what the docs show, on a project with an empty settings file', () => {
    const p = project({ '.claude/settings.json': '{}\n' });
    const shown = docBlock('console', '# `policy init`').split('$ policy init\n').filter(Boolean);
    expect(policy(p, 'init').stdout).toBe(shown[0]);
    expect(policy(p, 'init').stdout).toBe(shown[1]);
  });
});

describe('policy init: scopes, scaffold, plugin, errors', () => {
  it('scaffolds .claude/policies.yaml with a schema line that resolves, then registers its events', () => {
    const p = project({});
    const r = policy(p, 'init', '--mode', 'command', '--scope', 'local');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Created .claude/policies.yaml');
    const first = p.read('.claude/policies.yaml').split('\n')[0];
    const m = /^# yaml-language-server: \$schema=(.+)$/.exec(first);
    expect(m).not.toBeNull();
    expect(m![1]).toBe('../node_modules/hookpolicy/policy.schema.json');
    expect(fs.realpathSync(path.resolve(p.file('.claude'), m![1]))).toBe(path.join(REPO_ROOT, 'policy.schema.json'));
    expect(r.stdout).toContain('Created .claude/policies.test.yaml');
    expect(p.read('.claude/policies.test.yaml').split('\n')[0]).toBe('# yaml-language-server: $schema=../node_modules/hookpolicy/policy-test.schema.json');
    const tested = policy(p, 'test');
    expect([tested.code, tested.stdout]).toEqual([0, expect.stringContaining('3 passed, 0 failed')]);
    const settings = JSON.parse(p.read('.claude/settings.local.json'));
    expect(Object.keys(settings.hooks)).toEqual(['SessionStart', 'PreToolUse']);
    expect(fs.existsSync(p.file('.claude/settings.json'))).toBe(false);
  });

  it('--scope user writes $HOME/.claude/settings.json with absolute --config paths', () => {
    const p = project({ 'team.yaml': 'version: 1\nrules:\n  - { id: s, on: Stop, block: "x" }\n' });
    expect(policy(p, 'init', '--mode', 'command', '--scope', 'user', '--config', 'team.yaml').code).toBe(0);
    const settings = JSON.parse(fs.readFileSync(path.join(p.home, '.claude', 'settings.json'), 'utf8'));
    const personal = runner(['--config', p.file('team.yaml')]);
    expect(settings).toEqual({
      hooks: { PreToolUse: [{ matcher: 'Write|Edit|MultiEdit|NotebookEdit|Bash|PowerShell', hooks: [personal] }], Stop: [{ hooks: [personal] }] },
      permissions: { deny: expect.arrayContaining([`Edit(/${p.file('team.yaml')})`, 'Edit(~/.claude/settings.json)']) },
    });
  });

  it('--plugin DIR makes a plugin: hooks/hooks.json through ${CLAUDE_PLUGIN_ROOT}, a manifest, a README, a marketplace entry', () => {
    const p = project({ 'plugins/team-policy/policies.yaml': 'version: 1\nrules:\n  - { id: s, on: Stop, block: "x" }\n' });
    const refused = policy(p, 'init', '--plugin', 'plugins/team-policy');
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('npm install --prefix plugins/team-policy hookpolicy');
    linkHookpolicy(p.file('plugins/team-policy'));
    expect(policy(p, 'init', '--plugin', 'plugins/team-policy').code).toBe(0);
    const inPlugin = ['${CLAUDE_PLUGIN_ROOT}/node_modules/hookpolicy/bin/policy.cjs', 'hook', '--config', '${CLAUDE_PLUGIN_ROOT}/policies.yaml'];
    const inPluginHook = { type: 'command', command: 'node', args: inPlugin, timeout: 10 };
    expect(JSON.parse(p.read('plugins/team-policy/hooks/hooks.json'))).toEqual({
      description: 'hookpolicy: Claude Code hooks answered by a declarative policy',
      hooks: { PreToolUse: [{ matcher: 'Write|Edit|MultiEdit|NotebookEdit|Bash|PowerShell', hooks: [inPluginHook] }], Stop: [{ hooks: [inPluginHook] }] },
    });
    expect(JSON.parse(p.read('plugins/team-policy/.claude-plugin/plugin.json'))).toMatchObject({ name: 'team-policy', version: '0.1.0' });
    expect(p.read('plugins/team-policy/README.md')).toMatch(/^# team-policy\n/);
    expect(JSON.parse(p.read('.claude-plugin/marketplace.json'))).toMatchObject({
      owner: { name: path.basename(p.dir) },
      plugins: [{ name: 'team-policy', source: './plugins/team-policy' }],
    });
    expect(fs.existsSync(p.file('.claude/settings.json'))).toBe(false);
    const again = policy(p, 'init', '--plugin', 'plugins/team-policy');
    expect(again.stdout).not.toContain('Wrote');
  });

  it('--form shell writes one command string that runs through sh', () => {
    const p = project({ '.claude/policies.yaml': 'version: 1\nrules:\n  - { id: s, on: Stop, block: "x" }\n' });
    expect(policy(p, 'init', '--mode', 'command', '--form', 'shell').code).toBe(0);
    const hook = JSON.parse(p.read('.claude/settings.json')).hooks.Stop[0].hooks[0];
    expect(hook.args).toBeUndefined();
    // `env -u NODE_EXTRA_CA_CERTS` becomes an empty assignment: no env process to start.
    const words = `node "${SHARED_BIN}" hook`;
    expect(hook.command).toBe(ENV_PREFIX.length > 0 ? `NODE_EXTRA_CA_CERTS= ${words}` : words);
    // Run exactly that through sh, NODE_EXTRA_CA_CERTS naming a file that does not exist:
    // node would warn about it on stderr if the variable reached it.
    const stop = JSON.stringify({ session_id: 's', transcript_path: '/t', cwd: p.dir, hook_event_name: 'Stop', stop_hook_active: false });
    const env = cleanEnv({ HOME: p.home, CLAUDE_PROJECT_DIR: p.dir, NODE_EXTRA_CA_CERTS: path.join(p.home, 'no-such-bundle.pem') });
    const r = spawnSync('sh', ['-c', hook.command], { input: stop, env, encoding: 'utf8' });
    expect([JSON.parse(r.stdout).decision, r.status]).toEqual(['block', 0]);
    if (ENV_PREFIX.length > 0) expect(r.stderr).toBe('');
  });

  it('refuses a shared (project) entry when hookpolicy is not installed in the project, and says what to do', () => {
    const p = project({ '.claude/policies.yaml': POLICY }, false);
    const r = policy(p, 'init', '--mode', 'command');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('hookpolicy is not installed in this project');
    expect(r.stderr).toContain('npm install --save-dev hookpolicy');
    expect(r.stderr).toContain('policy init --scope local');
    expect(fs.existsSync(p.file('.claude/settings.json'))).toBe(false);
    expect(policy(p, 'init', '--mode', 'command', '--scope', 'local').code).toBe(0);
    expect(JSON.parse(p.read('.claude/settings.local.json')).hooks.Stop).toEqual([{ hooks: [runner()] }]);
  });

  it('a re-run keeps what init did not write: a statusMessage on its own entry, env, other hooks', () => {
    const p = project({ '.claude/policies.yaml': 'version: 1\nrules:\n  - { id: s, on: Stop, block: "x" }\n' });
    expect(policy(p, 'init', '--mode', 'command').code).toBe(0);
    const settings = JSON.parse(p.read('.claude/settings.json'));
    settings.env = { FOO: 'bar' };
    settings.hooks.Stop[0].hooks[0].statusMessage = 'Checking the team rules';
    p.write('.claude/settings.json', JSON.stringify(settings, null, 2));
    p.write('.claude/policies.yaml', 'version: 1\nsettings: { on_error: closed }\nrules:\n  - { id: s, on: Stop, block: "x" }\n');
    expect(policy(p, 'init', '--mode', 'command').code).toBe(0);
    const after = JSON.parse(p.read('.claude/settings.json'));
    expect(after.env).toEqual({ FOO: 'bar' });
    expect(after.hooks.Stop).toEqual([{ hooks: [{ ...shared(['--on-error', 'closed'], false), statusMessage: 'Checking the team rules' }] }]);
  });

  it('--check reports the runner registered in project and local scope at once, and entries whose files are gone', () => {
    const p = project({ '.claude/policies.yaml': 'version: 1\nrules:\n  - { id: s, on: Stop, block: "x" }\n' });
    expect(policy(p, 'init', '--mode', 'command').code).toBe(0);
    expect(policy(p, 'init', '--mode', 'command', '--scope', 'local').code).toBe(0);
    const r = policy(p, 'init', '--check');
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('drift: Stop: runner entries in .claude/settings.json and .claude/settings.local.json: Claude Code runs every one, so the runner runs 2 times for each event');
    fs.rmSync(p.file('.claude/settings.local.json'));
    fs.rmSync(p.file('node_modules/hookpolicy'));
    const gone = policy(p, 'init', '--check');
    expect(gone.code).toBe(1);
    expect(gone.stdout).toContain(`drift: .claude/settings.json: the runner entry starts ${SHARED_BIN}, which does not exist`);
  });

  it('--scope managed writes a drop-in in the managed settings folder, with the organisation\'s policy beside it', () => {
    const p = project({});
    const managed = path.join(p.home, 'managed');
    const r = policy(p, 'init', '--mode', 'command', '--scope', 'managed', '--managed-dir', managed);
    expect(r.code).toBe(0);
    const orgPolicy = path.join(managed, 'hookpolicy', 'policies.yaml');
    expect(fs.readFileSync(orgPolicy, 'utf8')).toContain('include: [security-guard]');
    const dropIn = JSON.parse(fs.readFileSync(path.join(managed, 'managed-settings.d', 'hookpolicy.json'), 'utf8'));
    expect(dropIn.hooks.PreToolUse[0].hooks[0]).toEqual(runner(['--config', orgPolicy]));
    expect(fs.existsSync(p.file('.claude/settings.json'))).toBe(false);
    expect(policy(p, 'init', '--check', '--scope', 'managed', '--managed-dir', managed, '--config', orgPolicy).code).toBe(0);
    expect(policy(p, 'uninstall', '--scope', 'managed', '--managed-dir', managed).stdout).toMatch(/^Removed 2 runner entries from /);
  });

  it('exits 2 with file:line:col on a broken policy, and leaves settings alone', () => {
    const p = project({ '.claude/policies.yaml': 'version: 1\nrules:\n  - id: x\n    on: PreToolUse\n    tools: Bash\n    deny: "a"\n    bogus: 1\n' });
    const r = policy(p, 'init', '--mode', 'command');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/policies\.yaml:7:5: error schema-unknown-key/);
    expect(fs.existsSync(p.file('.claude/settings.json'))).toBe(false);
  });

  it('exits 2 on a settings file that is not JSON, without touching it', () => {
    const p = project({ '.claude/policies.yaml': POLICY, '.claude/settings.json': '{ "model": ' });
    const r = policy(p, 'init', '--mode', 'command');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/\.claude\/settings\.json: it is not valid JSON/);
    expect(p.read('.claude/settings.json')).toBe('{ "model": ');
  });
});

describe('policy init: the /mem-search slash command of a policy that records', () => {
  const RECORDING = `version: 1
rules:
  - id: observe
    on: PostToolUse
    tools: Bash
    record: { kind: command, text: "{{command}}" }
`;

  it('is written for the project, left alone when it differs, and removed by uninstall while unchanged', () => {
    const p = project({ '.claude/policies.yaml': RECORDING });
    const first = policy(p, 'init', '--mode', 'command');
    expect(first.stdout).toContain('Wrote .claude/commands/mem-search.md (the /mem-search ID slash command: policy memory show ID)\n');
    expect(p.read('.claude/commands/mem-search.md')).toContain("!`npx --no-install policy memory show '$ARGUMENTS'`");
    expect(policy(p, 'init', '--mode', 'command').stdout).not.toContain('mem-search');
    fs.appendFileSync(p.file('.claude/commands/mem-search.md'), 'our own words\n');
    expect(policy(p, 'init', '--mode', 'command').stdout).toContain('note: .claude/commands/mem-search.md differs from what init writes; left as it is\n');
    expect(policy(p, 'uninstall').stdout).not.toContain('mem-search');
    expect(fs.existsSync(p.file('.claude/commands/mem-search.md'))).toBe(true);
    fs.rmSync(p.file('.claude/commands/mem-search.md'));
    policy(p, 'init', '--mode', 'command');
    expect(policy(p, 'uninstall').stdout).toContain('Removed .claude/commands/mem-search.md\n');
    expect(fs.existsSync(p.file('.claude/commands/mem-search.md'))).toBe(false);
  });

  it('is not written for a policy that records nothing, nor for user scope', () => {
    const quiet = project({ '.claude/policies.yaml': POLICY });
    policy(quiet, 'init', '--mode', 'command');
    expect(fs.existsSync(quiet.file('.claude/commands'))).toBe(false);
    const user = project({ '.claude/policies.yaml': RECORDING });
    policy(user, 'init', '--mode', 'command', '--scope', 'user');
    expect(fs.existsSync(user.file('.claude/commands'))).toBe(false);
  });
});
