/**
 * A team's install, end to end in the real client: hookpolicy from the packed tarball,
 * `npx policy init`, the committed files cloned to another path and `npm ci` there, a
 * machine without node, and the policy published as a plugin loaded with --plugin-dir.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { claudeBinary, clientEnv, runClient } from './client';
import { say, tools, type Scenario } from './scenario';
import { describeRealClient, SESSION_TIMEOUT_MS } from './suite';
import { packedTarball } from './tarball';
import { POLICY_BIN } from '../support/run-hook';
import { toolResult } from './transcript';

const POLICY = (onError: string) => `version: 1
settings: { on_error: ${onError} }
rules:
  - id: no-secrets
    on: PreToolUse
    tools: Write
    paths: { deny: ["secret/**"] }
    deny: "secret/ is off limits"
`;

const writeTo = (dir: string, file: string): Scenario => ({
  main: [tools({ name: 'Write', input: { file_path: path.join(dir, file), content: 'x\n' } }), say('done')],
});

function tempDir(name: string): string {
  return fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), `hp-${name}-`)));
}

function npm(cwd: string, args: string[]): string {
  return execFileSync('npm', [...args, '--prefer-offline', '--no-audit', '--no-fund'], { cwd, encoding: 'utf8', env: { ...process.env, npm_config_loglevel: 'error' } });
}

/**
 * The team's package.json. better-sqlite3's build step is not approved (npm 11's
 * allowScripts): as for a team that has not allowed it yet, and an install without a
 * 50-second compile (no prebuilt binary can be downloaded here). The memory store then
 * records and its readers say how to fix it (the last case).
 */
const TEAM_PACKAGE = '{ "name": "team-app", "version": "1.0.0", "private": true, "allowScripts": { "better-sqlite3": false } }\n';

/**
 * A project with hookpolicy installed from the tarball and registered by `npx policy init`
 * (with `initArgs`: a process per event unless the case asks for the default).
 */
function installedProject(onError: string, policy = POLICY(onError), initArgs: string[] = ['--mode', 'command']): { dir: string; home: string } {
  const dir = tempDir('team');
  const home = tempDir('home');
  fs.writeFileSync(path.join(dir, 'package.json'), TEAM_PACKAGE);
  npm(dir, ['install', '--save-dev', packedTarball()]);
  fs.mkdirSync(path.join(dir, '.claude'));
  fs.writeFileSync(path.join(dir, '.claude', 'policies.yaml'), policy);
  execFileSync('npx', ['--offline', 'policy', 'init', ...initArgs], { cwd: dir, encoding: 'utf8', env: { ...process.env, HOME: home, CLAUDE_PROJECT_DIR: dir } });
  return { dir, home };
}

function session(dir: string, home: string, file: string, extra: { env?: Record<string, string>; args?: string[] } = {}) {
  return runClient({ projectDir: dir, homeDir: home, prompt: 'Write the file.', scenario: writeTo(dir, file), env: extra.env, args: extra.args });
}

describeRealClient('a team install', () => {
  it('from the packed tarball: init writes an entry with no machine path, and the real client enforces it', () => {
    const { dir, home } = installedProject('closed');
    const settings = fs.readFileSync(path.join(dir, '.claude', 'settings.json'), 'utf8');
    expect(settings).not.toContain(dir);
    expect(settings).not.toContain(process.execPath);
    expect(JSON.parse(settings).hooks.PreToolUse[0].hooks[0]).toMatchObject({ onFailure: 'block', args: expect.arrayContaining(['${CLAUDE_PROJECT_DIR}/node_modules/hookpolicy/bin/policy.cjs']) });
    const s = session(dir, home, 'secret/a.txt');
    expect(fs.existsSync(path.join(dir, 'secret', 'a.txt'))).toBe(false);
    expect(toolResult(s.requests, 'toolu_m_0_0')).toEqual({ isError: true, text: 'PreToolUse:Write hook error: secret/ is off limits' });
    // The packages the runner loads, hoisted beside it, are the guard's too (their globs stay out of the committed settings).
    expect(settings).not.toContain('{ajv');
    const planted = { session_id: 's', cwd: dir, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'echo \'process.stdout.write("{}")\' > node_modules/mvdan-sh/index.js' } };
    const run = spawnSync(process.execPath, [path.join(dir, 'node_modules', 'hookpolicy', 'bin', 'policy.cjs'), 'hook'], { input: JSON.stringify(planted), encoding: 'utf8', env: { ...process.env, HOME: home, CLAUDE_PROJECT_DIR: dir } });
    expect(JSON.parse(run.stdout).hookSpecificOutput).toMatchObject({ permissionDecision: 'deny', permissionDecisionReason: expect.stringMatching(/^node_modules\/mvdan-sh\/index\.js is or holds one of hookpolicy's own files/) });
  }, SESSION_TIMEOUT_MS);

  it('the README\'s install, as it is (the default: http entries and a server each session starts), enforces with no machine path', () => {
    const { dir, home } = installedProject('open', POLICY('open'), []);
    const settings = fs.readFileSync(path.join(dir, '.claude', 'settings.json'), 'utf8');
    expect(settings).not.toContain(dir);
    expect(settings).not.toContain(process.execPath);
    const hooks = JSON.parse(settings).hooks;
    expect(hooks.PreToolUse[0].hooks[0]).toEqual({ type: 'http', url: 'http://127.0.0.1:8707/policy-hook', timeout: expect.any(Number), onFailure: 'block' });
    for (const event of ['SessionStart', 'UserPromptSubmit']) {
      expect(hooks[event].at(-1).hooks[0].args).toEqual(expect.arrayContaining(['${CLAUDE_PROJECT_DIR}/node_modules/hookpolicy/bin/policy.cjs', 'serve', '--ensure', '--port', '8707']));
    }
    const s = session(dir, home, 'secret/a.txt');
    expect(fs.existsSync(path.join(dir, 'secret', 'a.txt'))).toBe(false);
    expect(toolResult(s.requests, 'toolu_m_0_0')).toEqual({ isError: true, text: 'PreToolUse:Write hook error: secret/ is off limits' });
    // The packages the runner loads, hoisted beside it, are the guard's too (their globs stay out of the committed settings).
    expect(settings).not.toContain('{ajv');
    const planted = { session_id: 's', cwd: dir, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'echo \'process.stdout.write("{}")\' > node_modules/mvdan-sh/index.js' } };
    const run = spawnSync(process.execPath, [path.join(dir, 'node_modules', 'hookpolicy', 'bin', 'policy.cjs'), 'hook'], { input: JSON.stringify(planted), encoding: 'utf8', env: { ...process.env, HOME: home, CLAUDE_PROJECT_DIR: dir } });
    expect(JSON.parse(run.stdout).hookSpecificOutput).toMatchObject({ permissionDecision: 'deny', permissionDecisionReason: expect.stringMatching(/^node_modules\/mvdan-sh\/index\.js is or holds one of hookpolicy's own files/) });
  }, SESSION_TIMEOUT_MS);

  it('the committed files, cloned to another path and installed with npm ci, still enforce', () => {
    const first = installedProject('closed');
    const clone = tempDir('clone');
    for (const rel of ['package.json', 'package-lock.json', '.claude/policies.yaml', '.claude/settings.json']) {
      fs.mkdirSync(path.dirname(path.join(clone, rel)), { recursive: true });
      fs.copyFileSync(path.join(first.dir, rel), path.join(clone, rel));
    }
    npm(clone, ['ci']);
    const s = session(clone, tempDir('home'), 'secret/b.txt');
    expect(fs.existsSync(path.join(clone, 'secret', 'b.txt'))).toBe(false);
    expect(toolResult(s.requests, 'toolu_m_0_0')?.text).toBe('PreToolUse:Write hook error: secret/ is off limits');
  }, SESSION_TIMEOUT_MS);

  it('without node on PATH: on_error closed refuses the call (onFailure), on_error open lets it through', () => {
    const noNode = { PATH: tempDir('empty-path') };
    const closed = installedProject('closed');
    const refused = session(closed.dir, closed.home, 'open.txt', { env: noNode });
    expect(fs.existsSync(path.join(closed.dir, 'open.txt'))).toBe(false);
    expect(toolResult(refused.requests, 'toolu_m_0_0')).toEqual({ isError: true, text: expect.stringMatching(/^PreToolUse:Write hook error: .*failed; blocking because onFailure is "block"/) });
    const open = installedProject('open');
    const through = session(open.dir, open.home, 'open.txt', { env: noNode });
    expect(fs.existsSync(path.join(open.dir, 'open.txt'))).toBe(true);
    expect(toolResult(through.requests, 'toolu_m_0_0')?.isError).toBe(false);
  }, SESSION_TIMEOUT_MS);

  it('published as a plugin: claude plugin validate accepts it, and --plugin-dir enforces it', () => {
    const repo = tempDir('plugin-repo');
    const plugin = path.join(repo, 'plugins', 'team-policy');
    fs.mkdirSync(plugin, { recursive: true });
    fs.writeFileSync(path.join(plugin, 'policies.yaml'), POLICY('closed'));
    fs.writeFileSync(path.join(plugin, 'package.json'), TEAM_PACKAGE.replace('team-app', 'team-policy-plugin'));
    npm(plugin, ['install', packedTarball()]);
    execFileSync(path.join(plugin, 'node_modules', '.bin', 'policy'), ['init', '--plugin', 'plugins/team-policy'], { cwd: repo, encoding: 'utf8' });
    const binary = claudeBinary().path as string;
    const home = tempDir('home');
    for (const target of [plugin, repo]) {
      const validated = execFileSync(binary, ['plugin', 'validate', target], { encoding: 'utf8', env: clientEnv(home) });
      expect(validated).toMatch(/Validation passed/);
    }
    const project = tempDir('plugin-user');
    const s = session(project, home, 'secret/c.txt', { args: ['--plugin-dir', plugin] });
    expect(fs.existsSync(path.join(project, 'secret', 'c.txt'))).toBe(false);
    expect(toolResult(s.requests, 'toolu_m_0_0')?.text).toBe('PreToolUse:Write hook error: secret/ is off limits');
  }, SESSION_TIMEOUT_MS);

  it('managed settings: the organisation\'s entry holds though the project\'s settings turn hooks off', () => {
    const managed = tempDir('managed');
    fs.mkdirSync(path.join(managed, 'hookpolicy'));
    fs.writeFileSync(path.join(managed, 'hookpolicy', 'policies.yaml'), POLICY('closed'));
    execFileSync(process.execPath, [POLICY_BIN, 'init', '--scope', 'managed', '--managed-dir', managed], { encoding: 'utf8', cwd: managed, env: { ...process.env, HOME: tempDir('home') } });
    const project = tempDir('managed-user');
    fs.mkdirSync(path.join(project, '.claude'));
    fs.writeFileSync(path.join(project, '.claude', 'settings.json'), '{ "disableAllHooks": true }\n');
    const s = runClient({ projectDir: project, homeDir: tempDir('home'), prompt: 'Write the file.', scenario: writeTo(project, 'secret/d.txt'), managedDir: managed });
    expect(fs.existsSync(path.join(project, 'secret', 'd.txt'))).toBe(false);
    // Measured: with disableAllHooks in the project, the managed deny reaches the model wrapped in <tool_use_error>.
    expect(toolResult(s.requests, 'toolu_m_0_0')).toEqual({ isError: true, text: '<tool_use_error>PreToolUse:Write hook error: secret/ is off limits</tool_use_error>' });
  }, SESSION_TIMEOUT_MS);

  it('better-sqlite3 not built: the real client\'s events are recorded, and policy memory says how to fix the index', () => {
    const recording = `${POLICY('open')}  - id: observe
    on: PostToolUse
    tools: Write
    record: { kind: file-change, text: "Write {{paths}}" }
`;
    const { dir, home } = installedProject('open', recording);
    expect(fs.existsSync(path.join(dir, 'node_modules', 'better-sqlite3', 'build'))).toBe(false);
    session(dir, home, 'notes.txt');
    expect(fs.existsSync(path.join(dir, 'notes.txt'))).toBe(true);
    const journal = fs.readFileSync(path.join(dir, '.claude', 'hookpolicy', 'memory', 'journal.jsonl'), 'utf8');
    expect(JSON.parse(journal)).toMatchObject({ rule: 'observe', kind: 'file-change', text: 'Write notes.txt' });
    const listed = spawnSync('npx', ['--offline', 'policy', 'memory', 'list'], { cwd: dir, encoding: 'utf8', env: { ...process.env, CLAUDE_PROJECT_DIR: dir } });
    expect(listed.status).toBe(2);
    expect(listed.stderr).toContain('warning memory-unavailable: the memory store cannot be read: better-sqlite3 is not installed or not built');
    expect(listed.stderr).toContain('npm install-scripts approve better-sqlite3');
    expect(fs.readFileSync(path.join(dir, '.claude', 'hookpolicy', 'memory', 'journal.jsonl'), 'utf8')).toBe(journal);
  }, SESSION_TIMEOUT_MS);
});
