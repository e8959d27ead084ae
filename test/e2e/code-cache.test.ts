/**
 * bin/policy.cjs's V8 code cache, and the command `policy init` installs: run as Claude
 * Code runs them, in temp projects with their own cache folder, by a copy of the
 * installation with its own code caches (`.code-cache` beside its dist/).
 */
import { execFileSync, spawn, spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { copyInstall, standaloneModules } from '../support/install';

const repo = path.join(__dirname, '..', '..');

let tmp: string;
let root: string;
let cacheDir: string;
let install: string;
let bin: string;
let codeCacheDir: string;

beforeAll(() => {
  const bundles = ['hook.cjs', 'compile.cjs', 'cli.cjs'];
  if (!bundles.every((b) => fs.existsSync(path.join(repo, 'dist', b)))) {
    execFileSync(process.execPath, [path.join(repo, 'scripts', 'build.mjs')], { stdio: 'inherit', env: { ...process.env, HOOKPOLICY_SKIP_TYPECHECK: '1' } });
  }
}, 120_000);

beforeEach(() => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-code-cache-')));
  root = path.join(tmp, 'p');
  cacheDir = path.join(tmp, 'cache');
  fs.mkdirSync(path.join(root, '.claude'), { recursive: true });
  fs.writeFileSync(path.join(root, '.claude', 'policies.yaml'), POLICY);
  install = copyInstall();
  bin = path.join(install, 'bin', 'policy.cjs');
  codeCacheDir = path.join(install, '.code-cache');
});
afterEach(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
  fs.rmSync(install, { recursive: true, force: true });
});

const POLICY = `version: 1
rules:
  - id: no-env-writes
    on: PreToolUse
    tools: Write
    paths: { deny: [".env"] }
    deny: "{{path}} holds secrets."
`;
const DENY = '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":".env holds secrets."}}\n';
const event = () => JSON.stringify({ hook_event_name: 'PreToolUse', cwd: root, tool_name: 'Write', tool_input: { file_path: `${root}/.env`, content: '' } });

function env(extra: Record<string, string | undefined> = {}): Record<string, string> {
  const inherited = Object.entries(process.env).filter(([k]) => !['POLICY_CONFIG', 'HOOKPOLICY_CODE_CACHE', 'NODE_EXTRA_CA_CERTS'].includes(k));
  const out: Record<string, string> = {};
  // TMPDIR too: the cache's fallback folder lives there, and other runs share the system one.
  for (const [k, v] of [...inherited, ...Object.entries({ CLAUDE_PROJECT_DIR: root, HOOKPOLICY_CACHE_DIR: cacheDir, TMPDIR: tmp, ...extra })]) {
    if (v !== undefined) out[k] = v;
  }
  return out;
}

function run(extra: Record<string, string | undefined> = {}) {
  const r = spawnSync(process.execPath, [bin, 'hook'], { input: event(), env: env({ HOOKPOLICY_DEBUG_CODE_CACHE: '1', ...extra }), encoding: 'utf8' });
  const statusOf = (name: string) => new RegExp(`code cache (\\w+) ${name.replace('.', '\\.')} `).exec(r.stderr)?.[1] ?? null;
  return { stdout: r.stdout, code: r.status, bundle: statusOf('hook.cjs'), stderr: r.stderr };
}

const codeCacheFiles = () => fs.readdirSync(codeCacheDir).filter((f) => /^v8-[0-9a-f]{8}-[0-9a-f]{8}\.cache$/.test(f));
/** The bundle's cache file, from a run's debug line. */
const bundleCacheOf = (stderr: string) => /code cache \w+ hook\.cjs \((.*?)\)/.exec(stderr)?.[1] ?? '';

describe('the V8 code cache', () => {
  it('is written by the first run that finds the policy compiled, and used by the next, with the same answer', () => {
    const compiling = run();
    expect([compiling.stdout, compiling.code, compiling.bundle]).toEqual([DENY, 0, 'miss']);
    expect(compiling.stderr).toMatch(/code cache miss hook\.cjs \(.*\), not stored: this run compiled the policy\n/);
    expect(fs.existsSync(bundleCacheOf(compiling.stderr))).toBe(false);
    // The compiler's own cache is stored: the next edit of the policy compiles faster.
    expect(compiling.stderr).toMatch(/code cache miss compile\.cjs/);
    expect(codeCacheFiles().length).toBeGreaterThanOrEqual(1);
    const first = run();
    expect([first.stdout, first.code, first.bundle]).toEqual([DENY, 0, 'miss']);
    expect(fs.existsSync(bundleCacheOf(first.stderr))).toBe(true);
    const second = run();
    expect([second.stdout, second.code, second.bundle]).toEqual([DENY, 0, 'hit']);
  });

  it('a hit by a new kind of run writes the cache again with what that run compiled; a kind it has seen does not', () => {
    const stop = JSON.stringify({ hook_event_name: 'Stop', cwd: root, stop_hook_active: false });
    let hookCache = '';
    const runWith = (input: string) => {
      const r = spawnSync(process.execPath, [bin, 'hook'], { input, env: env({ HOOKPOLICY_DEBUG_CODE_CACHE: '1' }), encoding: 'utf8' });
      const m = /code cache (\w+) hook\.cjs \((.*)\)/.exec(r.stderr);
      hookCache = m?.[2] ?? '';
      return m?.[1];
    };
    // The kinds of run the bundle's cache has seen: one per line of the .kinds file beside it.
    const kinds = () => fs.readFileSync(hookCache.replace(/\.cache$/, '.kinds'), 'utf8');
    runWith(event()); // compiles the policy
    expect(runWith(event())).toBe('miss');
    expect(kinds()).toBe('PreToolUse/Write/deny\n');
    expect(runWith(event())).toBe('hit');
    expect(runWith(stop)).toBe('extended');
    expect(kinds()).toBe('PreToolUse/Write/deny\nStop//none\n');
    expect(runWith(stop)).toBe('hit');
    expect(runWith(event())).toBe('hit');
  });

  it('a shell command with a construct the cache has not seen (a redirection, a here-document) extends the shell chunk\'s cache too', () => {
    const bash = (command: string) => {
      const input = JSON.stringify({ hook_event_name: 'PreToolUse', cwd: root, tool_name: 'Bash', tool_input: { command } });
      const r = spawnSync(process.execPath, [bin, 'hook'], { input, env: env({ HOOKPOLICY_DEBUG_CODE_CACHE: '1' }), encoding: 'utf8' });
      const m = /code cache (\w+) shell\.cjs \((.*)\)/.exec(r.stderr);
      return { status: m?.[1], kinds: m ? fs.readFileSync(m[2].replace(/\.cache$/, '.kinds'), 'utf8') : '', answer: [r.stdout, r.status] };
    };
    // The run that compiles the policy stores the chunk's cache (only the bundle's is not).
    expect(bash('ls').status).toBe('miss');
    expect(bash('ls -la && git status').status).toBe('hit');
    // The same event, tool and outcome: only the redirection tells this run's code apart.
    const redirect = bash('echo done > out.txt');
    expect([redirect.status, redirect.kinds, redirect.answer]).toEqual(['extended', 'PreToolUse/Bash/none\nPreToolUse/Bash/none/w\n', ['', 0]]);
    expect(bash("cat <<'EOF' > notes.md\nx\nEOF").status).toBe('extended');
    expect(bash('echo again > other.txt').status).toBe('hit');
  });

  it('a corrupt cache still gives the right answer, and is rewritten', () => {
    run();
    run();
    // Same name (so the same key), garbage data: V8 must reject it.
    for (const f of codeCacheFiles()) fs.writeFileSync(path.join(codeCacheDir, f), Buffer.alloc(4096, 0x5a));
    const corrupt = run();
    expect([corrupt.stdout, corrupt.code, corrupt.bundle]).toEqual([DENY, 0, 'rejected']);
    expect(run().bundle).toBe('hit');
  });

  it('a cache keyed for another build of the bundle is not used, and is removed when the new one is stored', () => {
    run();
    const current = bundleCacheOf(run().stderr);
    // The same data under another key: what an older build of hook.cjs (or another Node) left.
    const other = current.replace(/-[0-9a-f]{8}\.cache$/, '-00000000.cache');
    fs.renameSync(current, other);
    fs.renameSync(current.replace(/\.cache$/, '.kinds'), other.replace(/\.cache$/, '.kinds'));
    // And the single-file format of earlier versions.
    const legacy = current.replace(/-[0-9a-f]{8}\.cache$/, '.cache');
    fs.writeFileSync(legacy, '1:2:v0:x\tPreToolUse/Write/deny\n');
    const stale = run();
    expect([stale.stdout, stale.bundle]).toEqual([DENY, 'miss']);
    expect([fs.existsSync(current), fs.existsSync(other), fs.existsSync(other.replace(/\.cache$/, '.kinds')), fs.existsSync(legacy)]).toEqual([true, false, false, false]);
    expect(run().bundle).toBe('hit');
  });

  it('a cache whose kinds cannot be written is not left behind (it would be written again at every event), and the answer is the same', () => {
    run();
    const first = run();
    const cache = bundleCacheOf(first.stderr);
    const kinds = cache.replace(/\.cache$/, '.kinds');
    fs.rmSync(cache);
    fs.rmSync(kinds);
    fs.mkdirSync(kinds); // renaming the new kinds file onto a folder fails
    const blocked = run();
    expect([blocked.stdout, blocked.code, blocked.bundle]).toEqual([DENY, 0, 'miss']);
    expect(fs.existsSync(cache)).toBe(false);
    fs.rmdirSync(kinds);
    expect(run().bundle).toBe('miss');
    const next = run();
    expect([next.stdout, next.code, next.bundle]).toEqual([DENY, 0, 'hit']);
  });

  it('the environment does not move the code caches: they stay in the installation whatever $HOOKPOLICY_CACHE_DIR, $XDG_CACHE_HOME or $TMPDIR say', () => {
    run();
    const first = run();
    expect(path.dirname(bundleCacheOf(first.stderr))).toBe(codeCacheDir);
    const elsewhere = run({ HOOKPOLICY_CACHE_DIR: undefined, XDG_CACHE_HOME: path.join(tmp, 'xdg'), TMPDIR: path.join(tmp, 'other') });
    expect([elsewhere.stdout, elsewhere.bundle, path.dirname(bundleCacheOf(elsewhere.stderr))]).toEqual([DENY, 'hit', codeCacheDir]);
    expect(fs.existsSync(path.join(tmp, 'xdg', 'hookpolicy')) ? fs.readdirSync(path.join(tmp, 'xdg', 'hookpolicy')).filter((f) => f.startsWith('v8-')) : []).toEqual([]);
  });

  it('HOOKPOLICY_CODE_CACHE=off loads the bundle plainly and writes no code cache', () => {
    const plain = run({ HOOKPOLICY_CODE_CACHE: 'off' });
    expect([plain.stdout, plain.code, plain.bundle]).toEqual([DENY, 0, null]);
    expect(fs.existsSync(codeCacheDir) ? codeCacheFiles() : []).toEqual([]);
  });
});

describe('docs/commands/hook.md, The V8 code cache', () => {
  it('a project install keeps them in node_modules/hookpolicy/.code-cache, as the example shows', () => {
    const doc = fs.readFileSync(path.join(repo, 'docs', 'commands', 'hook.md'), 'utf8');
    const section = doc.slice(doc.indexOf('## The V8 code cache'), doc.indexOf('## Exit codes'));
    const example = /```console\n\$ HOOKPOLICY_DEBUG_CODE_CACHE=1 npx policy hook < event\.json\n(.*)\n```/.exec(section)?.[1] ?? '';
    expect(example).toMatch(/^hookpolicy: code cache hit hook\.cjs \(\/home\/me\/app\/node_modules/);
    // Installed as npm installs it: a real folder in the project's node_modules.
    fs.mkdirSync(path.join(root, 'node_modules'));
    const installed = copyInstall(path.join(root, 'node_modules', 'hookpolicy'));
    const installedBin = path.join(installed, 'bin', 'policy.cjs');
    const hook = () => spawnSync(process.execPath, [installedBin, 'hook'], { input: event(), env: env({ HOOKPOLICY_DEBUG_CODE_CACHE: '1' }), encoding: 'utf8' });
    hook();
    hook();
    const r = hook();
    const line = r.stderr.split('\n').find((l) => / hook\.cjs /.test(l)) ?? '';
    const shape = (text: string) => text.replace(/[0-9a-f]{8}-[0-9a-f]{8}/g, 'HASH');
    expect([r.stdout, shape(line)]).toEqual([DENY, shape(example.replace('/home/me/app', root))]);
  });
});

describe('a package installed by root for every user', () => {
  const asRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  (asRoot ? it : it.skip)('after one event run as root (docs/commands/hook.md), another user\'s events read its code caches and store none', () => {
    const doc = fs.readFileSync(path.join(repo, 'docs', 'commands', 'hook.md'), 'utf8');
    const warm = /\(`(echo '\{"hook_event_name":"Stop"\}' \| sudo node <package>\/bin\/policy\.cjs hook)`/.exec(doc)?.[1] ?? '';
    expect(warm).not.toBe('');
    // The other user reaches the install, and the packages it loads, where it is (not through the repository's folder).
    standaloneModules(install);
    fs.chmodSync(install, 0o755);
    fs.chmodSync(tmp, 0o755);
    const user = 65534;
    const userCache = path.join(tmp, 'user-cache');
    fs.mkdirSync(userCache);
    fs.chownSync(userCache, user, user);
    const rootHome = path.join(tmp, 'root-home');
    fs.mkdirSync(rootHome);
    const warmed = spawnSync('sh', ['-c', warm.replace('sudo ', '').replace('<package>', install)], { cwd: rootHome, env: env({ HOME: rootHome, HOOKPOLICY_CACHE_DIR: path.join(rootHome, 'cache'), CLAUDE_PROJECT_DIR: rootHome }), encoding: 'utf8' });
    expect(warmed.status).toBe(0);
    const stored = codeCacheFiles();
    expect(stored.length).toBeGreaterThan(0);
    const asUser = () => {
      const r = spawnSync(process.execPath, [bin, 'hook'], { input: event(), uid: user, gid: user, env: env({ HOOKPOLICY_DEBUG_CODE_CACHE: '1', HOOKPOLICY_CACHE_DIR: userCache, HOME: userCache }), encoding: 'utf8' });
      return { stdout: r.stdout, hook: /code cache (\w+) hook\.cjs .*/.exec(r.stderr)?.[0] ?? r.stderr };
    };
    asUser(); // compiles the policy
    const second = asUser();
    expect([second.stdout, second.hook]).toEqual([DENY, expect.stringMatching(/^code cache hit hook\.cjs /)]);
    const third = asUser();
    expect(third.stdout).toBe(DENY);
    expect(codeCacheFiles()).toEqual(stored);
    expect(fs.readdirSync(codeCacheDir).map((f) => fs.statSync(path.join(codeCacheDir, f)).uid).filter((u) => u !== 0)).toEqual([]);
  });
});

describe('the V8 code cache of the other commands (dist/cli.cjs)', () => {
  const cli = (...args: string[]) => {
    const r = spawnSync(process.execPath, [bin, ...args], { cwd: root, env: env({ HOOKPOLICY_DEBUG_CODE_CACHE: '1' }), encoding: 'utf8', input: '' });
    return { code: r.status, stdout: r.stdout, cli: /code cache (\w+) cli\.cjs /.exec(r.stderr)?.[1] ?? null };
  };

  it('is written by a command\'s first run and used by the next, one kind per command', () => {
    expect(cli('--version')).toMatchObject({ code: 0, cli: 'miss' });
    expect(cli('--version')).toMatchObject({ code: 0, stdout: cli('--version').stdout, cli: 'hit' });
    expect(cli('lint', '--no-settings')).toMatchObject({ code: 0, cli: 'extended' });
    expect(cli('lint', '--no-settings')).toMatchObject({ code: 0, cli: 'hit' });
  });

  it('the policy server neither reads nor writes one (it starts once, and stores nothing as it stops)', async () => {
    const server = spawn(process.execPath, [bin, 'serve', '--port', '0', '--project-dir', root], { env: env({ HOOKPOLICY_DEBUG_CODE_CACHE: '1' }), stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    server.stderr!.on('data', (d) => { stderr += d; });
    await new Promise<void>((resolve) => server.stdout!.on('data', (d) => /listening on/.test(String(d)) && resolve()));
    server.kill('SIGTERM');
    await new Promise((resolve) => server.once('exit', resolve));
    expect(stderr).not.toMatch(/code cache/);
    expect(fs.existsSync(codeCacheDir) ? codeCacheFiles() : []).toEqual([]);
  });
});

describe('the command policy init installs', () => {
  const hasEnv = process.platform !== 'win32' && fs.existsSync('/usr/bin/env');

  (hasEnv ? it : it.skip)('starts node through /usr/bin/env -u NODE_EXTRA_CA_CERTS', () => {
    const r = spawnSync(process.execPath, [bin, 'init', '--mode', 'command', '--scope', 'local', '--project-dir', root], { env: env({ HOME: tmp }), encoding: 'utf8' });
    expect(r.status).toBe(0);
    const settings = JSON.parse(fs.readFileSync(path.join(root, '.claude', 'settings.local.json'), 'utf8'));
    const handler = settings.hooks.PreToolUse[0].hooks[0];
    expect(handler).toEqual({
      type: 'command',
      command: '/usr/bin/env',
      args: ['-u', 'NODE_EXTRA_CA_CERTS', process.execPath, fs.realpathSync(bin), 'hook'],
      timeout: expect.any(Number),
    });
    // Run exactly that, with NODE_EXTRA_CA_CERTS naming a file that does not exist: node
    // would warn about it on stderr if the variable reached it.
    const missing = path.join(tmp, 'no-such-bundle.pem');
    const direct = spawnSync(process.execPath, [bin, 'hook'], { input: event(), env: env({ NODE_EXTRA_CA_CERTS: missing }), encoding: 'utf8' });
    expect(direct.stderr).toContain('Ignoring extra certs from');
    const installed = spawnSync(handler.command, handler.args, { input: event(), env: env({ NODE_EXTRA_CA_CERTS: missing }), encoding: 'utf8' });
    expect([installed.stdout, installed.stderr, installed.status]).toEqual([DENY, '', 0]);
  });
});
