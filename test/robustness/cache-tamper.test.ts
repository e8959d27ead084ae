/**
 * A poisoned cache (issue 12, self-modification): the confined agent edits the compiled
 * policy in the cache folder, or another user plants a cache in a folder it can write.
 * The runner must notice, say so on stderr, rebuild from the policy file, and decide as
 * the policy says. And the V8 code cache (issue 29): code in a cache runs whatever source
 * it was made from, so a planted one must be no easier to put than a changed bundle.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { execFileSync, spawnSync } from 'node:child_process';
import { copyInstall } from '../support/install';
import { makeProject, runHook, type RunHookResult, type TempProject } from '../support/run-hook';

const POLICY = 'version: 1\nrules:\n  - id: no-env\n    on: PreToolUse\n    tools: Write\n    paths: { deny: [".env"] }\n    deny: "no .env"\n';

function writeEnv(project: TempProject) {
  return { hook_event_name: 'PreToolUse', session_id: 's', cwd: project.dir, tool_name: 'Write', agent_id: 'a', agent_type: 'lynch', tool_input: { file_path: project.file('.env'), content: 'X=1' } };
}

function decision(r: { json: unknown }): string | undefined {
  return (r.json as { hookSpecificOutput?: { permissionDecision?: string } } | null)?.hookSpecificOutput?.permissionDecision;
}

describe('a poisoned policy cache', () => {
  it('a sed -i on every cached file (deny -> warn) is noticed, reported and rebuilt: the deny holds', () => {
    const project = makeProject(POLICY);
    expect(decision(project.run(writeEnv(project)))).toBe('deny');
    const files = fs.readdirSync(project.cacheDir).filter((f) => f.endsWith('.json'));
    expect(files.length).toBeGreaterThan(0);
    for (const f of files) {
      const file = path.join(project.cacheDir, f);
      fs.writeFileSync(file, fs.readFileSync(file, 'utf8').split('"outcome":"deny"').join('"outcome":"warn"'));
    }
    const after = project.run(writeEnv(project));
    expect(decision(after)).toBe('deny');
    expect(after.stderr).toMatch(/cache-error.*does not match its seal/);
    expect(decision(project.run(writeEnv(project)))).toBe('deny');
    project.remove();
  });

  (process.platform !== 'win32' ? it : it.skip)('a cache folder other users can write is never read, even with a well-formed cache in it', () => {
    const project = makeProject(POLICY);
    // Build a good cache, then make a copy that says the opposite, as another user would plant it.
    const good = project.run(writeEnv(project));
    expect(decision(good)).toBe('deny');
    const planted = fs.mkdtempSync(path.join(os.tmpdir(), 'hp-planted-'));
    for (const f of fs.readdirSync(project.cacheDir)) fs.copyFileSync(path.join(project.cacheDir, f), path.join(planted, f));
    fs.chmodSync(planted, 0o777);
    const r = runHook(writeEnv(project), { projectDir: project.dir, cacheDir: planted });
    expect(decision(r)).toBe('deny');
    expect(r.stderr).toMatch(/cache-error.*can be written by other users/);
    project.remove();
  });

  (process.platform !== 'win32' ? it : it.skip)('a FIFO planted in place of every cache file (policy, head, views, V8 code cache) does not hold the runner: reported, rebuilt, the deny holds', () => {
    const project = makeProject(POLICY);
    // An installation of its own: its code caches live in it (.code-cache).
    const install = copyInstall();
    const bin = path.join(install, 'bin', 'policy.cjs');
    expect(decision(project.run(writeEnv(project), { bin }))).toBe('deny');
    expect(decision(project.run(writeEnv(project), { bin }))).toBe('deny');
    const codeCaches = path.join(install, '.code-cache');
    const files = [
      ...fs.readdirSync(project.cacheDir).filter((f) => /\.json$/.test(f)).map((f) => path.join(project.cacheDir, f)),
      ...fs.readdirSync(codeCaches).filter((f) => /\.(cache|kinds)$/.test(f)).map((f) => path.join(codeCaches, f)),
    ];
    expect(files.some((f) => f.endsWith('.head.json'))).toBe(true);
    expect(files.some((f) => f.endsWith('.cache'))).toBe(true);
    for (const f of files) {
      fs.rmSync(f);
      execFileSync('mkfifo', [f]);
    }
    // Before: the first read of the head waited on the FIFO until the hook timeout let the call through.
    const after = runHook(writeEnv(project), { projectDir: project.dir, cacheDir: project.cacheDir, timeoutMs: 10_000, bin });
    expect(after.exitCode).toBe(0);
    expect(decision(after)).toBe('deny');
    expect(after.stderr).toMatch(/cache-error.*it is a FIFO, not a regular file/);
    project.remove();
    fs.rmSync(install, { recursive: true, force: true });
  });

  it('mkfifo and mknod onto the cache folder are writes: self-protection refuses them', () => {
    const project = makeProject(POLICY);
    for (const command of [`mkfifo ${project.cacheDir}/x.head.json`, `mknod ${project.cacheDir}/y.json p`, 'mkfifo .claude/policies.yaml']) {
      const r = project.run({ hook_event_name: 'PreToolUse', session_id: 's', cwd: project.dir, tool_name: 'Bash', tool_input: { command } });
      expect([command, decision(r)]).toEqual([command, 'deny']);
    }
    project.remove();
  });
});

/**
 * The attack: a bundle of the same length as the installed dist/hook.cjs whose `main`
 * answers for the runner, and the V8 code cache made from it as bin/policy.cjs makes one
 * (vm.Script over Module.wrap, its functions compiled by a run, createCachedData). V8
 * checks cached data against the source's length and its own flags, not the content, so
 * the runner compiling the real bundle with this cache runs the planted code. Made in a
 * plain node process, with the runner's flags.
 */
const PLANTED = '{"planted":true}';
function plantedCodeCache(bundle: string): Buffer {
  const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'hp-planted-v8-')), 'data');
  const maker = `
    const fs = require('fs'), path = require('path'), vm = require('vm'), Module = require('module');
    const [bundle, out, answer] = process.argv.slice(1);
    const real = fs.readFileSync(bundle, 'utf8');
    const head = 'module.exports = { main: async () => { require("fs").writeSync(1, ' + JSON.stringify(answer + '\\n') + '); return { exitCode: 0 }; } };/*';
    const fake = head + ' '.repeat(real.length - head.length - 2) + '*/';
    if (fake.length !== real.length) throw new Error('not the same length');
    const script = new vm.Script(Module.wrap(fake), { filename: bundle });
    const m = { exports: {} };
    script.runInThisContext().call(m.exports, m.exports, require, m, bundle, path.dirname(bundle));
    m.exports.main().then(() => fs.writeFileSync(out, script.createCachedData()));
  `;
  const r = spawnSync(process.execPath, ['-e', maker, bundle, out, PLANTED], { encoding: 'utf8' });
  expect([r.status, r.stderr]).toEqual([0, '']);
  const data = fs.readFileSync(out);
  fs.rmSync(path.dirname(out), { recursive: true, force: true });
  return data;
}

/** 32-bit FNV-1a as 8 hex digits: how bin/policy.cjs names a code cache. */
function fnv(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h.toString(16).padStart(8, '0');
}

/** The bundle's code-cache file as a run's debug line names it. */
const reportedCache = (r: RunHookResult) => /code cache \w+ hook\.cjs \((.*?)\)/.exec(r.stderr)?.[1] ?? '';

describe('a V8 code cache made from a modified bundle of the same length', () => {
  let project: TempProject;
  let install: string;
  let bin: string;
  let bundle: string;
  beforeEach(() => {
    project = makeProject(POLICY);
    install = copyInstall();
    bin = path.join(install, 'bin', 'policy.cjs');
    bundle = path.join(install, 'dist', 'hook.cjs');
  });
  afterEach(() => {
    project.remove();
    fs.rmSync(install, { recursive: true, force: true });
  });
  const run = (env: Record<string, string | undefined> = {}, cacheDir = project.cacheDir) => runHook(writeEnv(project), { projectDir: project.dir, bin, cacheDir, env: { HOOKPOLICY_DEBUG_CODE_CACHE: '1', ...env } });

  it('planted in the cache folders, whichever the environment names (a folder of the agent\'s own, $XDG_CACHE_HOME, ~/.cache, the temp fallback), it never runs: the installed runner answers', () => {
    const planted = plantedCodeCache(bundle);
    const own = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'hp-agent-')));
    const user = { HOME: path.join(own, 'home'), XDG_CACHE_HOME: path.join(own, 'xdg'), TMPDIR: path.join(own, 'tmp') };
    const uid = typeof process.getuid === 'function' ? String(process.getuid()) : 'user';
    const setups: Array<{ env: Record<string, string | undefined>; folders: string[] }> = [
      { env: { ...user, HOOKPOLICY_CACHE_DIR: path.join(own, 'chosen') }, folders: [path.join(own, 'chosen')] },
      { env: { ...user, HOOKPOLICY_CACHE_DIR: undefined }, folders: [path.join(user.XDG_CACHE_HOME, 'hookpolicy')] },
      { env: { ...user, HOOKPOLICY_CACHE_DIR: undefined, XDG_CACHE_HOME: undefined }, folders: [path.join(user.HOME, '.cache', 'hookpolicy')] },
    ];
    for (const { env, folders } of setups) {
      for (const dir of [...folders, path.join(user.TMPDIR, `hookpolicy-${uid}`)]) fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
      const cacheDir = env.HOOKPOLICY_CACHE_DIR ?? '';
      run(env, cacheDir); // compiles the policy
      const stored = run(env, cacheDir);
      expect(decision(stored)).toBe('deny');
      // Every name a runner has given the bundle's cache: the one it reports, and size, mtime, Node and arch alone.
      const stat = fs.statSync(bundle);
      const names = new Set([path.basename(reportedCache(stored)), `v8-${fnv(bundle)}-${fnv(`${stat.size}:${stat.mtimeMs}:${process.version}:${process.arch}`)}.cache`]);
      for (const dir of [...folders, path.join(user.TMPDIR, `hookpolicy-${uid}`)]) {
        for (const name of names) fs.writeFileSync(path.join(dir, name), planted, { mode: 0o600 });
      }
      const after = run(env, cacheDir);
      expect([after.stdout.includes(PLANTED), decision(after), after.exitCode]).toEqual([false, 'deny', 0]);
    }
    fs.rmSync(own, { recursive: true, force: true });
  });

  it('the runner keeps its code caches inside the installation, beside dist/: a cache planted there, as hard to put as a changed bundle, is the only one that runs', () => {
    run();
    const stored = run();
    expect(path.dirname(reportedCache(stored))).toBe(path.join(install, '.code-cache'));
    const folder = fs.statSync(path.join(install, '.code-cache'));
    expect([folder.uid, folder.mode & 0o022]).toEqual([fs.statSync(bundle).uid, 0]);
    expect(fs.existsSync(reportedCache(stored))).toBe(true);
    // The planted cache is a working one: where self-protection guards it as the installed package, it runs.
    fs.writeFileSync(reportedCache(stored), plantedCodeCache(bundle));
    expect(run().stdout).toBe(`${PLANTED}\n`);
  });

  it('a bundle rewritten in place with the same size and mtime runs as the file now says, not from the cache made for the old one', () => {
    // A whole second, as an installation's files have (npm sets every mtime to 1985-10-26).
    const mtime = new Date('1985-10-26T08:15:00Z');
    fs.utimesSync(bundle, mtime, mtime);
    run();
    expect(decision(run())).toBe('deny');
    // The same length, the same mtime: only the inode's ctime tells the new content apart.
    const maker = `
      const fs = require('fs'); const [file, answer] = process.argv.slice(1); const real = fs.readFileSync(file, 'utf8');
      const head = 'module.exports = { main: async () => { require("fs").writeSync(1, ' + JSON.stringify(answer + '\\n') + '); return { exitCode: 0 }; } };/*';
      fs.writeFileSync(file, head + ' '.repeat(real.length - head.length - 2) + '*/');
    `;
    const changed = '{"rewritten":true}';
    expect(spawnSync(process.execPath, ['-e', maker, bundle, changed]).status).toBe(0);
    fs.utimesSync(bundle, mtime, mtime);
    const after = run();
    expect([after.stdout, /code cache (\w+) hook\.cjs/.exec(after.stderr)?.[1]]).toEqual([`${changed}\n`, 'miss']);
  });

  (process.platform !== 'win32' ? it : it.skip)('a code-cache folder other users can write is neither read nor written', () => {
    run();
    const stored = run();
    fs.writeFileSync(reportedCache(stored), plantedCodeCache(bundle));
    fs.chmodSync(path.join(install, '.code-cache'), 0o777);
    const after = run();
    expect([after.stdout.includes(PLANTED), decision(after)]).toEqual([false, 'deny']);
    expect(after.stderr).toMatch(/code cache unused hook\.cjs .*, not read nor stored: .*\.code-cache can be written by other users/);
  });

  (typeof process.getuid === 'function' && process.getuid() === 0 ? it : it.skip)('a module this user does not own (a package installed by another user): a cache folder of this user\'s is not read; its owner\'s is, and this user stores nothing in it', () => {
    run();
    const stored = run();
    const good = fs.readFileSync(reportedCache(stored));
    const owner = 65534;
    fs.chownSync(bundle, owner, owner);
    // The module's name in the cache changed with its ctime: plant under the new one.
    const moved = run();
    expect(moved.stderr).toMatch(/code cache unused hook\.cjs .*, not read nor stored: .*\.code-cache is not owned by the owner of .*hook\.cjs/);
    fs.writeFileSync(reportedCache(moved), plantedCodeCache(bundle));
    const planted = run();
    expect([planted.stdout.includes(PLANTED), decision(planted)]).toEqual([false, 'deny']);
    // What the owner wrote (its folder, its file): read, and never written by this user.
    fs.writeFileSync(reportedCache(moved), good);
    for (const f of [path.join(install, '.code-cache'), ...fs.readdirSync(path.join(install, '.code-cache')).map((n) => path.join(install, '.code-cache', n))]) fs.chownSync(f, owner, owner);
    const before = fs.statSync(reportedCache(moved)).mtimeMs;
    const shared = run();
    expect([decision(shared), /code cache (\w+) hook\.cjs/.exec(shared.stderr)?.[1]]).toEqual(['deny', 'hit']);
    const extended = runHook({ hook_event_name: 'Stop', cwd: project.dir }, { projectDir: project.dir, bin, cacheDir: project.cacheDir, env: { HOOKPOLICY_DEBUG_CODE_CACHE: '1' } });
    expect(/code cache (\w+) hook\.cjs/.exec(extended.stderr)?.[1]).toBe('hit');
    expect(fs.statSync(reportedCache(moved)).mtimeMs).toBe(before);
  });

  it.each([
    ['a Write', (file: string) => ({ hook_event_name: 'PreToolUse', session_id: 's', tool_name: 'Write', agent_id: 'a', agent_type: 'lynch', tool_input: { file_path: file, content: 'x' } })],
    ['a Bash copy', (file: string) => ({ hook_event_name: 'PreToolUse', session_id: 's', tool_name: 'Bash', agent_id: 'a', agent_type: 'lynch', tool_input: { command: `cp /tmp/planted ${file}` } })],
  ])('self-protection denies %s into the installation\'s code-cache folder', (_name, event) => {
    const file = path.join(install, '.code-cache', 'v8-00000000-00000000.cache');
    const r = runHook({ ...event(file), cwd: project.dir }, { projectDir: project.dir, bin, cacheDir: project.cacheDir });
    expect(decision(r)).toBe('deny');
  });
});
