/**
 * `policy init --host claude,codex,gemini` and `--check` through the built bin: each host's
 * own file in the project, Codex's trust in the user's config, and every reason a host would
 * skip the runner reported as drift (exit 1), never a silent pass.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { linkHookpolicy } from '../support/install';
import { runCli } from '../support/run-cli';

const POLICY = `version: 1
agents: { main: lead, roles: { reviewer: [lynch] } }
rules:
  - id: no-pwned
    on: PreToolUse
    tools: Bash|Write|Edit
    paths: { deny: ["PWNED*"] }
    deny: "No PWNED files."
  - id: reviewer-writes-nothing
    on: PreToolUse
    tools: Write|Edit|Bash
    agents: reviewer
    deny: "{{agent}} writes nothing."
  - id: tests-first
    on: Stop
    block: "Run the tests first."
  - id: idle
    on: TeammateIdle
    block: "Write your notes."
`;

let root: string;
let project: string;
let home: string;
const env = () => ({ HOME: home, CLAUDE_PROJECT_DIR: project, HOOKPOLICY_CACHE_DIR: path.join(root, 'cache') });
const init = (...args: string[]) => runCli(['init', '--mode', 'command', ...args], { cwd: project, env: env() });
const read = (rel: string) => fs.readFileSync(path.join(project, rel), 'utf8');

beforeEach(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'init-hosts-')));
  project = path.join(root, 'project');
  home = path.join(root, 'home');
  fs.mkdirSync(path.join(project, '.claude'), { recursive: true });
  fs.mkdirSync(home);
  fs.writeFileSync(path.join(project, '.claude', 'policies.yaml'), POLICY);
  linkHookpolicy(project);
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

describe('policy init --host', () => {
  it('writes each host\'s own entries, portable, and Codex\'s trust for this user; says what each host lacks', () => {
    const r = init('--host', 'claude,codex,gemini');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Wrote .codex/config.toml (new file)');
    expect(r.stdout).toContain('Wrote .gemini/settings.json (new file)');
    expect(r.stdout).toContain('note: Codex CLI has no TeammateIdle event: rule idle never fires there');
    expect(r.stdout).toContain('note: Gemini CLI has no TeammateIdle event: rule idle never fires there');

    const codex = read('.codex/config.toml');
    expect(codex).toContain('[[hooks.PreToolUse]]\nmatcher = "Bash|Write|Edit|MultiEdit|NotebookEdit|PowerShell"');
    expect(codex).toContain('[[hooks.Stop]]');
    expect(codex).not.toContain(root);
    const gemini = JSON.parse(read('.gemini/settings.json'));
    expect(Object.keys(gemini.hooks)).toEqual(['BeforeTool', 'AfterAgent']);
    expect(gemini.hooks.BeforeTool[0].matcher).toBe('^(?:run_shell_command|write_file|replace|NotebookEdit|PowerShell)$');
    expect(gemini.hooks.BeforeTool[0].hooks[0]).toEqual({
      type: 'command', name: 'hookpolicy', timeout: 10000,
      command: 'NODE_EXTRA_CA_CERTS= node $GEMINI_PROJECT_DIR/node_modules/hookpolicy/bin/policy.cjs hook --host gemini',
    });

    const trust = fs.readFileSync(path.join(home, '.codex', 'config.toml'), 'utf8');
    expect(trust).toContain(`[hooks.state."${project}/.codex/config.toml:pre_tool_use:0:0"]`);
    expect(trust).toContain(`[hooks.state."${project}/.codex/config.toml:stop:0:0"]`);
    expect(r.stdout).toContain(`note: Codex CLI: Codex reads .codex/config.toml only in a project it trusts, and ${project} is not`);
    expect(r.stdout).toContain(`note: Gemini CLI: Gemini reads .gemini/settings.json only in a folder it trusts, and ${project} is not trusted yet`);

    const again = init('--host', 'claude,codex,gemini');
    expect(again.stdout).toContain('.codex/config.toml is up to date; nothing changed');
    expect(fs.readFileSync(path.join(home, '.codex', 'config.toml'), 'utf8')).toBe(trust);
  });

  it('prints what docs/commands/init.md shows', () => {
    const doc = fs.readFileSync(path.join(__dirname, '..', '..', 'docs', 'commands', 'init.md'), 'utf8');
    const example = /## Other coding agents[\s\S]*?```console\n\$ npx (policy init[^\n]*)\n([\s\S]*?)```/.exec(doc);
    const r = init(...(example?.[1] ?? '').split(' ').slice(2).filter((w) => w !== '--mode' && w !== 'command'));
    const output = r.stdout.split(home).join('/home/me').split(project).join('/home/me/shop');
    for (const line of (example?.[2] ?? '').split('\n').filter((l) => l !== '')) {
      if (line.endsWith('...')) expect(output).toContain(line.slice(0, -3));
      else expect(output.split('\n')).toContain(line);
    }
  });

  it('--check says every reason a host would skip the runner, then in sync once trusted', () => {
    init('--host', 'claude,codex,gemini');
    const drift = runCli(['init', '--check', '--host', 'codex,gemini'], { cwd: project, env: env() });
    expect(drift.code).toBe(1);
    expect(drift.stdout).toMatch(/drift: Codex CLI: Codex reads \.codex\/config\.toml only in a project it trusts/);
    expect(drift.stdout).toMatch(/drift: Gemini CLI: Gemini reads \.gemini\/settings\.json only in a folder it trusts/);

    fs.appendFileSync(path.join(home, '.codex', 'config.toml'), `\n[projects.${JSON.stringify(project)}]\ntrust_level = "trusted"\n`);
    fs.mkdirSync(path.join(home, '.gemini'), { recursive: true });
    fs.writeFileSync(path.join(home, '.gemini', 'trustedFolders.json'), JSON.stringify({ [project]: 'TRUST_FOLDER' }));
    const synced = runCli(['init', '--check', '--host', 'codex,gemini'], { cwd: project, env: env() });
    expect(synced.stdout).toContain('in sync: Codex CLI');
    expect(synced.stdout).toContain('in sync: Gemini CLI');
    expect(synced.code).toBe(0);

    // An edited entry is one Codex no longer trusts; a switched-off Gemini hook is skipped.
    fs.writeFileSync(path.join(project, '.codex', 'config.toml'), read('.codex/config.toml').replace('timeout = 10', 'timeout = 11'));
    const settings = JSON.parse(read('.gemini/settings.json'));
    fs.writeFileSync(path.join(project, '.gemini', 'settings.json'), JSON.stringify({ ...settings, hooksConfig: { disabled: ['hookpolicy'] } }));
    const skipped = runCli(['init', '--check', '--host', 'codex,gemini'], { cwd: project, env: env() });
    expect(skipped.code).toBe(1);
    expect(skipped.stdout).toContain('drift: Codex CLI: PreToolUse hook is trusted in an older form: Codex skips it without a word');
    expect(skipped.stdout).toContain('drift: Gemini CLI: hooksConfig.disabled names "hookpolicy": Gemini skips the runner');
  });

  it('policy lint finds the hosts the project is set up for, and says per host what it cannot honour and what would be skipped', () => {
    fs.writeFileSync(path.join(project, '.claude', 'policies.yaml'), `${POLICY}  - id: env-asks\n    on: PreToolUse\n    tools: Write\n    paths: { deny: [".env"] }\n    ask: "Touching .env?"\n`);
    init('--host', 'claude,codex,gemini');
    const lint = runCli(['lint', '--format', 'json'], { cwd: project, env: env() });
    const found = (JSON.parse(lint.stdout) as Array<{ file: string; code: string; line: number; message: string }>)
      .filter((d) => d.code.startsWith('host-')).map((d) => `${d.file}:${d.line} ${d.code}: ${d.message}`);
    expect(found).toEqual(expect.arrayContaining([
      '.claude/policies.yaml:24 host-outcome-degraded: Rule "env-asks": under Codex CLI, ask on PreToolUse is denied instead',
      '.claude/policies.yaml:18 host-event-missing: Rule "idle": Codex CLI has no TeammateIdle event, so the rule never fires under Codex CLI',
      '.claude/policies.yaml:18 host-event-missing: Rule "idle": Gemini CLI has no TeammateIdle event, so the rule never fires under Gemini CLI',
      '.claude/policies.yaml:12 host-no-identity: Rule "reviewer-writes-nothing" names agents, and Gemini CLI names no acting agent: under Gemini CLI the rule cannot judge an event, and on_error answers it',
      expect.stringMatching(/^\.codex\/config\.toml:1 host-hooks-skipped: Codex CLI would skip the runner: Codex reads \.codex\/config\.toml only in a project it trusts/),
      expect.stringMatching(/^\.gemini\/settings\.json:1 host-hooks-skipped: Gemini CLI would skip the runner: Gemini reads \.gemini\/settings\.json only in a folder it trusts/),
    ]));
    expect(found.filter((f) => f.includes('host-no-identity') && f.includes('Codex'))).toEqual([]);
  });

  it('keeps the user\'s own Codex settings and hooks, and refuses a file it cannot join', () => {
    fs.mkdirSync(path.join(project, '.codex'));
    const mine = '# mine\nmodel = "o4"\n\n[[hooks.PreToolUse]]\nmatcher = "Bash"\n[[hooks.PreToolUse.hooks]]\ntype = "command"\ncommand = "./audit.sh"\n';
    fs.writeFileSync(path.join(project, '.codex', 'config.toml'), mine);
    expect(init('--host', 'codex').code).toBe(0);
    expect(read('.codex/config.toml').startsWith(mine)).toBe(true);
    expect(fs.readFileSync(path.join(home, '.codex', 'config.toml'), 'utf8')).toContain(':pre_tool_use:1:0"]');

    fs.writeFileSync(path.join(project, '.codex', 'config.toml'), 'hooks = { PreToolUse = [] }\n');
    const refused = init('--host', 'codex');
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('.codex/config.toml: not valid TOML');
  });

  it('refuses an entry that would not start on a teammate\'s machine, and an unknown host', () => {
    fs.rmSync(path.join(project, 'node_modules'), { recursive: true });
    const r = init('--host', 'gemini');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('hookpolicy is not installed in this project');
    expect(init('--host', 'cursor').code).toBe(2);
  });
});
