/**
 * The OS backstop: `policy init --sandbox` in the real client, offline against the scripted
 * model. The attacks of issue 29 (sandbox-attacks.ts) run as the confined agent runs them,
 * without the sandbox (the hook and the permission rules init writes) and with it (http,
 * and --mode command for the file attacks); the table of which layer held each is
 * docs/reliability.md's. Ordinary work (writing sources, a test script, git commit) still
 * works in the sandbox, and the two switches init writes are shown to matter.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { sandboxUnavailable } from '../../engine/host/sandbox-runtime';
import { expectGeneratedSection } from '../support/doc-sections';
import { pathWithout } from '../support/path-without';
import { ATTACKS, attackTurns, layerOf, LOG_FILE, resultsOf, type Attack, type Layer } from './sandbox-attacks';
import { say, tools, type ToolCall } from './scenario';
import { describeRealClient, runCase, SESSION_TIMEOUT_MS, type CaseRun } from './suite';
import { toolResult } from './transcript';
import type { ClientProject } from './project';

const POLICY = `version: 1
settings:
  on_error: closed
  log: { file: ${LOG_FILE} }
rules:
  - id: no-env-writes
    on: PreToolUse
    tools: Write
    paths: { deny: [".env", "**/.env"] }
    deny: "{{path}} holds secrets"
`;

const FILES = {
  'package.json': '{ "name": "app", "private": true, "scripts": { "test": "node test.js" } }\n',
  'test.js': "require('fs').mkdirSync('coverage', { recursive: true });\nrequire('fs').writeFileSync('coverage/summary.txt', 'ok\\n');\nconsole.log('tests ok');\n",
  'src/index.ts': 'export const a = 0;\n',
};

/** A port of its own per case (each session has its own network namespace). */
function port(): number {
  return 40000 + Math.floor(Math.random() * 20000);
}

function editSettings(project: ClientProject, edit: (s: Record<string, any>) => void): void {
  const file = path.join(project.projectDir, '.claude', 'settings.json');
  const settings = JSON.parse(fs.readFileSync(file, 'utf8'));
  edit(settings);
  fs.writeFileSync(file, JSON.stringify(settings, null, 2));
}

/**
 * Before the session: the project is a git repository with one commit, and a hook of the
 * test (outside any sandbox) writes the policy server's pid into server.pid before each
 * Bash call: the attacker is given the pid it would otherwise have to find.
 */
function prepare(p: number | null) {
  return (project: ClientProject) => {
    const git = (...args: string[]) => execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', ...args], { cwd: project.projectDir, stdio: 'ignore' });
    git('init', '-q');
    git('add', '-A');
    git('commit', '-qm', 'init');
    if (p === null) return;
    const pid = `ss -ltnpH 'sport = :${p}' | sed -n 's/.*pid=\\([0-9]*\\).*/\\1/p' | head -1 > "$CLAUDE_PROJECT_DIR/server.pid"; cat > /dev/null`;
    editSettings(project, (s) => {
      s.hooks.PreToolUse = [...(s.hooks.PreToolUse ?? []), { matcher: 'Bash', hooks: [{ type: 'command', command: pid }] }];
    });
  };
}

/**
 * Ordinary work: a source written with the Write tool and through Bash, the test script, a
 * commit; and `git add -A`, which Claude Code's sandbox refuses (its placeholders for the
 * paths it denies and that do not exist, `.bashrc` and the like, are not regular files).
 */
const ORDINARY = (dir: string): ToolCall[] => [
  { name: 'Write', input: { file_path: path.join(dir, 'src', 'a.ts'), content: 'export const a = 1;\n' } },
  { name: 'Bash', input: { command: "echo 'export const b = 2;' > src/b.ts && npm test", description: 'test' } },
  { name: 'Bash', input: { command: 'git add src && git -c user.email=t@example.com -c user.name=t commit -qm work && git log --oneline -1', description: 'commit' } },
  { name: 'Bash', input: { command: 'git add -A', description: 'stage all' } },
];

interface Measured {
  run: CaseRun;
  layers: Map<string, Layer>;
  ordinary: Array<ReturnType<typeof toolResult>>;
}

/** Runs the attacks that apply to the mode, then the ordinary work, in one session. */
function measure(attacks: readonly Attack[], initArgs: string[], p: number | null): Measured {
  const sandboxed = initArgs.includes('--sandbox');
  const { ids } = attackTurns(attacks, 0, '', p ?? 0);
  const first = ids.flat().length;
  const run = runCase({
    policy: POLICY,
    files: FILES,
    initArgs,
    beforeSession: prepare(p),
    scenario: (dir) => ({ main: [...attackTurns(attacks, 0, dir, p ?? 0).calls.map((c) => tools(c)), ...ORDINARY(dir).map((c) => tools(c)), say('Done.')] }),
  });
  const layers = new Map<string, Layer>();
  attacks.forEach((a, i) => {
    const results = resultsOf(run, ids[i]);
    layers.set(a.name, layerOf(a, a.happened(run, results), results, sandboxed));
  });
  const ordinary = ORDINARY('').map((_, i) => toolResult(run.session.requests, `toolu_m_${first + i}_0`));
  return { run, layers, ordinary };
}

/** The background job of the swap attack died with its sandbox when its command ended: the Write made a plain file. */
function expectSwapNeverRan(m: Measured): void {
  expect(fs.lstatSync(path.join(m.run.project.projectDir, 'src', 't.yaml')).isSymbolicLink()).toBe(false);
}

function expectOrdinaryWorkDone(m: Measured): void {
  expect(m.ordinary.map((r) => r?.isError)).toEqual([false, false, false, true]);
  expect(m.ordinary[3]?.text).toMatch(/error: \S+: can only add regular files, symbolic links or git-directories/);
  expect(m.ordinary[1]?.text).toContain('tests ok');
  expect(m.run.project.read('src/b.ts')).toBe('export const b = 2;\n');
  expect(m.run.project.read('coverage/summary.txt')).toBe('ok\n');
  const log = execFileSync('git', ['log', '--format=%s'], { cwd: m.run.project.projectDir, encoding: 'utf8' });
  expect(log.split('\n')[0]).toBe('work');
}

const START = '<!-- sandbox-table:start (generated by test/real-client/sandbox.test.ts; UPDATE_DOCS=1 npx jest test/real-client/sandbox) -->';
const END = '<!-- sandbox-table:end -->';
const COLUMNS = ['without the sandbox (http)', 'with `--sandbox` (http)', 'with `--sandbox --mode command`'];
const measured: Array<Map<string, Layer> | undefined> = [undefined, undefined, undefined];

function table(): string {
  const head = ['attack', ...COLUMNS.map((c) => `held by, ${c}`)];
  const rows = ATTACKS.map((a) => `| ${a.name} | ${measured.map((m) => m?.get(a.name) ?? '—').join(' | ')} |`);
  return [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`, ...rows].join('\n');
}

const unavailable = sandboxUnavailable(process.env);
if (unavailable) process.stderr.write(`\nreal-client sandbox cases SKIPPED: Claude Code's sandbox cannot start here: ${unavailable}\n\n`);
const describeSandbox = unavailable ? (name: string, body: () => void) => describe.skip(`${name} (sandbox unavailable: ${unavailable})`, body) : describeRealClient;

describeSandbox('the sandbox: policy init --sandbox', () => {
  it('without the sandbox: the attacks neither the hook nor the permission rules can read take effect', () => {
    const p = port();
    const m = measure(ATTACKS, ['--port', String(p)], p);
    measured[0] = m.layers;
    expect(m.run.project.read('.claude/settings.json')).not.toContain('"sandbox"');
    // What neither the hook nor the permission rules can read got through, or met the
    // policy server's own check (the table in docs/reliability.md has the rest).
    for (const a of ATTACKS.filter((x) => x.unseen)) expect([a.name, m.layers.get(a.name)]).toEqual([a.name, expect.stringMatching(/^(none: it took effect|the policy server)$/)]);
    expect([...m.layers.values()]).not.toContain('unclear');
  }, SESSION_TIMEOUT_MS);

  it('with --sandbox (http): every attack but the port fails, and ordinary work works', () => {
    const p = port();
    const m = measure(ATTACKS, ['--sandbox', '--port', String(p)], p);
    measured[1] = m.layers;
    const settings = JSON.parse(m.run.project.read('.claude/settings.json') ?? '{}');
    expect(settings.sandbox).toEqual({ enabled: true, failIfUnavailable: true, allowUnsandboxedCommands: false, network: { allowedDomains: [`127.0.0.1:${p}`] } });
    for (const a of ATTACKS) {
      // The port is open to sandboxed commands: the http hooks reach the server through the
      // same proxy, which runs in the Claude Code process, so the server takes a forged
      // event from it as the session's own.
      const expected = a.name.includes('curl') ? 'none: it took effect' : expect.not.stringMatching(/none|unclear/);
      expect([a.name, m.layers.get(a.name)]).toEqual([a.name, expected]);
    }
    expect(m.run.project.read('.claude/policies.yaml')).toBe(POLICY);
    // The forged event was judged and recorded as a decision of the session (no session id).
    expect(m.run.project.read(LOG_FILE)).toContain('"session_id":null,"event":"PreToolUse","tool":"Write","agent":null,"outcome":"deny","rules":["no-env-writes"],"reason":".env holds secrets"');
    expectSwapNeverRan(m);
    expectOrdinaryWorkDone(m);
  }, SESSION_TIMEOUT_MS);

  it('with --sandbox --mode command: the file attacks fail, and ordinary work works', () => {
    const m = measure(ATTACKS.filter((a) => !a.httpOnly), ['--sandbox', '--mode', 'command'], null);
    measured[2] = m.layers;
    expect(JSON.parse(m.run.project.read('.claude/settings.json') ?? '{}').sandbox).toEqual({ enabled: true, failIfUnavailable: true, allowUnsandboxedCommands: false });
    for (const [name, layer] of m.layers) expect([name, layer]).toEqual([name, expect.not.stringMatching(/none|unclear/)]);
    expect(m.run.project.read('.claude/policies.yaml')).toBe(POLICY);
    expectSwapNeverRan(m);
    expectOrdinaryWorkDone(m);
  }, SESSION_TIMEOUT_MS);

  it('docs/reliability.md holds the table these cases measured', () => {
    expect(measured.every((m) => m !== undefined)).toBe(true);
    expectGeneratedSection('reliability.md', START, END, table());
  });

  it('without allowUnsandboxedCommands: false, a command that asks for dangerouslyDisableSandbox runs outside the sandbox', () => {
    const dds = ATTACKS[1];
    const run = runCase({
      policy: POLICY,
      initArgs: ['--sandbox', '--mode', 'command'],
      beforeSession: (project) => editSettings(project, (s) => delete s.sandbox.allowUnsandboxedCommands),
      scenario: (dir) => ({ main: [...dds.calls(dir, 0).map((c) => tools(c)), say('Done.')] }),
    });
    expect(dds.happened(run, [toolResult(run.session.requests, 'toolu_m_0_0')])).toBe(true);
  }, SESSION_TIMEOUT_MS);

  it('outside bypassPermissions, the http hooks reach the server only through network.allowedDomains (else HTTP 403 and every call refused)', () => {
    const results = [true, false].map((keep) => {
      const p = port();
      const run = runCase({
        policy: POLICY,
        initArgs: ['--sandbox', '--port', String(p)],
        permissionMode: 'default',
        // So that sandboxed Bash runs without a permission prompt in default mode.
        beforeSession: (project) => editSettings(project, (s) => {
          s.sandbox.autoAllowBashIfSandboxed = true;
          if (!keep) delete s.sandbox.network;
        }),
        scenario: () => ({ main: [tools({ name: 'Bash', input: { command: 'echo sandboxed-ok', description: 'echo' } }), say('Done.')] }),
      });
      return { p, result: toolResult(run.session.requests, 'toolu_m_0_0') };
    });
    expect(results[0].result).toEqual({ isError: false, text: 'sandboxed-ok' });
    expect(results[1].result).toEqual({ isError: true, text: `PreToolUse:Bash hook error: [http://127.0.0.1:${results[1].p}/policy-hook]: failed; blocking because onFailure is "block"\nHTTP 403 from http://127.0.0.1:${results[1].p}/policy-hook` });
  }, 2 * SESSION_TIMEOUT_MS);

  it('where bubblewrap and socat are not on PATH, the session does not start (failIfUnavailable)', () => {
    const bin = pathWithout(['bwrap', 'socat']);
    const run = runCase({
      policy: POLICY,
      initArgs: ['--sandbox', '--mode', 'command'],
      env: { PATH: bin },
      scenario: () => ({ main: [tools({ name: 'Bash', input: { command: 'echo unsandboxed', description: 'echo' } }), say('Done.')] }),
    });
    expect(run.session.exitCode).toBe(1);
    expect(run.session.requests).toEqual([]);
    expect(run.session.stderr).toContain('Error: sandbox required but unavailable: sandbox is enabled but dependencies are missing: bubblewrap (bwrap) not installed, socat not installed');
    expect(sandboxUnavailable({ PATH: bin })).toBe('bwrap (bubblewrap) and socat are not on PATH (Debian and Ubuntu: apt-get install bubblewrap socat; Fedora: dnf install bubblewrap socat)');
  }, SESSION_TIMEOUT_MS);
});
