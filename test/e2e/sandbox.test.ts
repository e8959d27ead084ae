/**
 * `unparsable: sandbox` end to end: the built runner answers a lane agent's unreadable
 * command with the sandboxed command line (updatedInput), and that command line, run by
 * bash as Claude Code's Bash tool runs it, keeps what the agent's lane allows and discards
 * the rest, on disk. Runs where this machine can make user namespaces (else skipped, said).
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { copyInstall, standaloneModules } from '../support/install';
import { makeProject, REPO_ROOT, type TempProject } from '../support/run-hook';

const POLICY = 'version: 1\ninclude: [ai-team]\n';
const probe = spawnSync('unshare', ['--user', '--map-root-user', '--mount', '--pid', '--fork', '--mount-proc', '--', 'true'], { encoding: 'utf8' });
const why = process.platform !== 'linux' ? `not Linux (${process.platform})` : probe.status !== 0 ? `unshare cannot make namespaces here: ${(probe.stderr || probe.error?.message || '').trim()}` : null;
if (why) process.stderr.write(`\nsandbox e2e SKIPPED: ${why}\n\n`);
const describeSandbox = why ? describe.skip : describe;

function bashEvent(project: TempProject, agent: string | null, command: string): Record<string, unknown> {
  return {
    session_id: 'sess-sandbox', transcript_path: path.join(project.dir, 't.jsonl'), cwd: project.dir, hook_event_name: 'PreToolUse',
    permission_mode: 'bypassPermissions', ...(agent ? { agent_type: agent, agent_id: `a${agent}-1` } : {}),
    tool_name: 'Bash', tool_input: { command, description: 'run it' }, tool_use_id: 'toolu_01',
  };
}

/** The command Claude Code runs in place of the agent's (updatedInput.command), or null when the hook answered otherwise. */
function sandboxedCommand(project: TempProject, agent: string | null, command: string): string | null {
  const answer = project.run(bashEvent(project, agent, command));
  const out = answer.json as { hookSpecificOutput?: { updatedInput?: { command?: string; description?: string }; permissionDecision?: string } } | null;
  if (!out?.hookSpecificOutput?.updatedInput) return null;
  expect(out.hookSpecificOutput.permissionDecision).toBeUndefined();
  expect(out.hookSpecificOutput.updatedInput.description).toBe('run it');
  return out.hookSpecificOutput.updatedInput.command ?? null;
}

function runAsBashTool(project: TempProject, command: string, env: Record<string, string> = {}) {
  return spawnSync('bash', ['-c', command], { cwd: project.dir, encoding: 'utf8', env: { ...process.env, HOOKPOLICY_CACHE_DIR: project.cacheDir, ...env }, timeout: 60_000 });
}

const SCRIPT = [
  'echo "new test" > tests/new.test.ts',
  'echo "changed" >> tests/old.test.ts',
  'echo "hacked" > src/app.ts',
  'echo "new" > src/extra.ts',
  'rm src/gone.ts',
  'echo "version: 1" > .claude/policies.yaml',
  'mkdir -p coverage && echo lcov > coverage/lcov.info',
  'git add tests/new.test.ts && git -c user.email=m@x -c user.name=murdock commit -qm "a test"',
  '(sleep 2; echo late > tests/late.test.ts) &',
  'cat src/app.ts',
  'exit 3',
].join('\n');

describeSandbox('the sandbox of unparsable: sandbox', () => {
  let project: TempProject;
  beforeEach(() => {
    project = makeProject(POLICY, {
      'src/app.ts': 'export const app = 1;\n', 'src/gone.ts': 'x\n', 'tests/old.test.ts': 'old\n', 'run.sh': SCRIPT,
    });
    spawnSync('git', ['init', '-q'], { cwd: project.dir });
    spawnSync('git', ['-c', 'user.email=t@x', '-c', 'user.name=t', 'commit', '-qm', 'init', '--allow-empty'], { cwd: project.dir });
  });
  afterEach(() => project.remove());

  test('murdock\'s script keeps its tests; what it wrote outside his lane is discarded, its commit with it, said and logged', () => {
    const command = sandboxedCommand(project, 'murdock', 'sh ./run.sh');
    expect(command).toMatch(/^'.*node.*' '.*\/dist\/sandbox\.cjs' run \S+ 'sh \.\/run\.sh'$/);
    const run = runAsBashTool(project, command!);
    // The command saw its own writes, and its exit code comes back.
    expect(run.stdout).toBe('hacked\n');
    expect(run.status).toBe(3);
    const read = (rel: string) => (fs.existsSync(project.file(rel)) ? fs.readFileSync(project.file(rel), 'utf8') : null);
    expect(read('tests/new.test.ts')).toBe('new test\n');
    expect(read('tests/old.test.ts')).toBe('old\nchanged\n');
    expect(read('coverage/lcov.info')).toBe('lcov\n');
    expect(read('src/app.ts')).toBe('export const app = 1;\n');
    expect(read('src/extra.ts')).toBeNull();
    expect(read('src/gone.ts')).toBe('x\n');
    expect(read('.claude/policies.yaml')).toBe(POLICY);
    // A process the command left behind was stopped with it: it wrote nothing later.
    expect(read('tests/late.test.ts')).toBeNull();
    // Its commit went with the refused files: HEAD and the index never describe files the project was not given.
    const log = spawnSync('git', ['log', '--format=%s'], { cwd: project.dir, encoding: 'utf8' }).stdout;
    expect(log.split('\n')[0]).toBe('init');
    expect(spawnSync('git', ['status', '--short'], { cwd: project.dir, encoding: 'utf8' }).stdout).not.toContain('A  tests/new.test.ts');
    expect(run.stderr).toContain('hookpolicy sandbox: this command ran in a sandbox; what it wrote that you may not write was discarded (');
    for (const p of ['.claude/policies.yaml', 'src/app.ts', 'src/extra.ts', 'src/gone.ts']) expect(run.stderr).toContain(p);
    expect(run.stderr).toContain('murdock is the tester and writes test files only');
    const records = project.readJsonl('.claude/policy-decisions.jsonl');
    expect(records.at(-1)).toMatchObject({ event: 'PreToolUse', tool: 'Bash', agent: 'murdock', outcome: 'deny', command: 'sh ./run.sh' });
    expect((records.at(-1)!.paths as string[]).sort()).toEqual(['.claude/policies.yaml', 'src/app.ts', 'src/extra.ts', 'src/gone.ts']);
  });

  test('murdock\'s commit of his tests is kept, git\'s bookkeeping with it', () => {
    project.write('commit.sh', 'echo t > tests/c.test.ts && git add tests/c.test.ts && git -c user.email=m@x -c user.name=murdock commit -qm "c test"\n');
    const run = runAsBashTool(project, sandboxedCommand(project, 'murdock', 'sh ./commit.sh')!);
    expect(run.status).toBe(0);
    expect(run.stderr).toBe('');
    expect(spawnSync('git', ['log', '--format=%s', '-1'], { cwd: project.dir, encoding: 'utf8' }).stdout).toBe('c test\n');
    expect(spawnSync('git', ['status', '--short', 'tests/c.test.ts'], { cwd: project.dir, encoding: 'utf8' }).stdout).toBe('');
  });

  test('ba\'s lane keeps the implementation and discards the tests', () => {
    const run = runAsBashTool(project, sandboxedCommand(project, 'ba', 'sh ./run.sh')!);
    expect(run.status).toBe(3);
    expect(fs.readFileSync(project.file('src/app.ts'), 'utf8')).toBe('hacked\n');
    expect(fs.existsSync(project.file('src/gone.ts'))).toBe(false);
    expect(fs.existsSync(project.file('tests/new.test.ts'))).toBe(false);
    expect(fs.readFileSync(project.file('tests/old.test.ts'), 'utf8')).toBe('old\n');
    expect(run.stderr).toContain('ba is the implementer and does not change tests');
    // ba may write the project's files, but not hookpolicy's: self-protection judges sandboxed writes too
    expect(fs.readFileSync(project.file('.claude/policies.yaml'), 'utf8')).toBe(POLICY);
    expect(run.stderr).toMatch(/\.claude\/policies\.yaml.*hookpolicy/s);

  });

  test('an agent the pack does not name, and the main session\'s mission command, are not sandboxed', () => {
    expect(project.run(bashEvent(project, 'Explore', 'sh ./run.sh')).json).toBeNull();
    // hannibal: known writes only, in his lane
    expect(project.run(bashEvent(project, null, 'git log > mission/log.txt')).json).toBeNull();
  });

  test('the command cannot reach the real project: not through the overlay\'s lower folder, not by unmounting the overlay', () => {
    project.write('escape.sh', [
      'lower=$(grep -o "/[^ ]*hookpolicy-sandbox-[^ ]*/lower" /proc/self/mountinfo | head -1)',
      'echo "lower=$lower"',
      'echo pwned > "$lower/src/app.ts" || echo "lower: refused"',
      'unshare -Urm sh -c "mount -o remount,bind,rw $lower && echo pwned > $lower/src/app.ts; umount $PWD; echo pwned > $PWD/src/app.ts" || true',
      'umount "$PWD" || echo "overlay: refused"',
    ].join('\n'));
    const run = runAsBashTool(project, sandboxedCommand(project, 'murdock', 'sh ./escape.sh')!);
    expect(run.stdout).toMatch(/lower=\/.*hookpolicy-sandbox-.*\/lower\n/);
    expect(run.stdout).toContain('lower: refused');
    expect(run.stdout).toContain('overlay: refused');
    expect(fs.readFileSync(project.file('src/app.ts'), 'utf8')).toBe('export const app = 1;\n');
    expect(run.stderr).toContain('src/app.ts');
  });

  // As root, the same again as a user who is not: the command runs as that user, inside.
  const nobody = process.getuid?.() === 0 && spawnSync('setpriv', ['--version']).status === 0;
  (nobody ? test : test.skip)('as an unprivileged user, the command runs as that user and the lane holds', () => {
    const cache = fs.mkdtempSync(path.join(os.tmpdir(), 'hp-cache-nobody-'));
    try {
      project.write('uid.sh', 'id -u > tests/uid.txt; echo x > src/app.ts\n');
      for (const dir of [project.dir, cache]) spawnSync('chown', ['-R', '65534:65534', dir]);
      // That user's git configuration (its HOME), never this user's.
      fs.writeFileSync(path.join(cache, '.gitconfig'), `[safe]\n\tdirectory = ${project.dir}\n`);
      spawnSync('chown', ['65534:65534', path.join(cache, '.gitconfig')]);
      // The install it runs where that user can reach it (a fresh clone may sit in a 0700 temp folder).
      const install = copyInstall();
      standaloneModules(install);
      fs.chmodSync(install, 0o755);
      const command = sandboxedCommand(project, 'murdock', 'sh ./uid.sh')?.split(REPO_ROOT).join(install);
      const run = spawnSync('setpriv', ['--reuid=65534', '--regid=65534', '--clear-groups', 'bash', '-c', command!], {
        cwd: project.dir, encoding: 'utf8', env: { ...process.env, HOME: cache, HOOKPOLICY_CACHE_DIR: cache }, timeout: 60_000,
      });
      expect(run.status).toBe(0);
      expect(fs.readFileSync(project.file('tests/uid.txt'), 'utf8')).toBe('65534\n');
      expect(fs.statSync(project.file('tests/uid.txt')).uid).toBe(65534);
      expect(fs.readFileSync(project.file('src/app.ts'), 'utf8')).toBe('export const app = 1;\n');
      expect(run.stderr).toContain('src/app.ts');
    } finally {
      fs.rmSync(cache, { recursive: true, force: true });
    }
  });

  test('another host, which runs no updatedInput, gets no sandbox: the rule asks (Codex takes that as a deny)', () => {
    const answer = project.run({ ...bashEvent(project, 'murdock', 'sh ./run.sh'), turn_id: 't1', model: 'm' }, { args: ['--host', 'codex'] }).json as { hookSpecificOutput: Record<string, unknown> };
    expect(answer.hookSpecificOutput.updatedInput).toBeUndefined();
    expect(answer.hookSpecificOutput.permissionDecision).toBe('deny');
  });

  test('where the sandbox failed to start, the command does not run, and the hook asks for a day', () => {
    const bin = fs.mkdtempSync(path.join(os.tmpdir(), 'hp-fake-unshare-'));
    try {
      fs.writeFileSync(path.join(bin, 'unshare'), '#!/bin/sh\necho "unshare: unprivileged user namespaces are restricted" >&2\nexit 1\n', { mode: 0o755 });
      const run = runAsBashTool(project, sandboxedCommand(project, 'murdock', 'sh ./run.sh')!, { PATH: `${bin}:${process.env.PATH}` });
      expect(run.status).toBe(1);
      expect(run.stdout).toBe('');
      expect(run.stderr).toContain('the sandbox could not start');
      expect(run.stderr).toContain('so the command did not run');
      expect(fs.readFileSync(project.file('src/app.ts'), 'utf8')).toBe('export const app = 1;\n');
      const asked = project.run(bashEvent(project, 'murdock', 'sh ./run.sh')).json as { hookSpecificOutput: { permissionDecision: string } };
      expect(asked.hookSpecificOutput.permissionDecision).toBe('ask');
    } finally {
      fs.rmSync(bin, { recursive: true, force: true });
    }
  });
});
