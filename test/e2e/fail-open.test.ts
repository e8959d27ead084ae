/**
 * The fail-open counter through the built runner (issue 16, point 6): an answer given
 * without judging the event is one line of the per-user counter in the cache folder, even
 * when the policy cannot be read; the project's decision log gets a `fail_open` record when
 * a policy built before names one; `policy stats` shows the count, broken policy or not.
 * And the confined agent can neither hide the counter nor hang the runner through it.
 */
import { spawn } from 'node:child_process';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ensureBuilt } from '../support/hook-process';
import { startSink } from '../support/http-sink';
import { runCli } from '../support/run-cli';
import { makeProject, POLICY_BIN, REPO_ROOT, type TempProject } from '../support/run-hook';

beforeAll(() => ensureBuilt(), 120_000);

const GOOD = 'version: 1\nsettings:\n  on_error: open\n  log: { file: .claude/decisions.jsonl }\nrules: []\n';
// An agents error breaks the whole policy (a settings typo leaves out only that setting).
const BROKEN = 'version: 1\nsettings:\n  on_error: open\n  log: { file: .claude/decisions.jsonl }\nagents: { roles: { a: [b], b: [a] } }\nrules: []\n';
const bash = (command: string, session = 's1') => ({ hook_event_name: 'PreToolUse', session_id: session, tool_name: 'Bash', tool_input: { command } });

const made: TempProject[] = [];
afterAll(() => made.forEach((p) => p.remove()));
function project(policy: string): TempProject {
  const p = makeProject(policy);
  made.push(p);
  return p;
}

function counter(p: TempProject): Array<Record<string, unknown>> {
  const file = path.join(p.cacheDir, 'fail-opens.jsonl');
  return fs.existsSync(file) ? fs.readFileSync(file, 'utf8').split('\n').filter((l) => l !== '').map((l) => JSON.parse(l)) : [];
}

function stats(p: TempProject, args: string[] = []) {
  return runCli(['stats', ...args], { cwd: p.dir, env: { CLAUDE_PROJECT_DIR: p.dir, HOOKPOLICY_CACHE_DIR: p.cacheDir, HOME: p.dir } });
}

describe('the fail-open counter', () => {
  it('a broken policy with on_error open: exit 0, the call allowed, one line in the counter, shown by policy stats', () => {
    const p = project(BROKEN);
    const r = p.run(bash('ls'));
    expect(r.exitCode).toBe(0);
    expect(r.json).toEqual({ systemMessage: expect.stringContaining('failing open') });
    expect(counter(p)).toEqual([{
      time: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/), project: p.dir, session_id: 's1', event: 'PreToolUse', tool: 'Bash',
      code: 'role-cycle', message: 'Roles include each other: a -> b -> a', on_error: 'open',
    }]);
    const shown = stats(p);
    expect(shown.code).toBe(2);
    expect(shown.stdout).toMatch(/^Fail-opens: 1 \(last: \S+Z, role-cycle\); fail-closed: 0\n$/);
    const json = JSON.parse(stats(p, ['--json']).stdout);
    expect(json.failOpens).toEqual({ count: 1, failClosed: 0, last: { time: expect.any(String), code: 'role-cycle', event: 'PreToolUse', tool: 'Bash', message: 'Roles include each other: a -> b -> a' } });
  });

  it('a policy that built before: the project\'s own decision log gets a fail_open record; stats counts per project and --session', () => {
    const p = project(GOOD);
    expect(p.run(bash('ls')).exitCode).toBe(0);
    p.write('.claude/policies.yaml', BROKEN);
    expect(p.run(bash('ls', 's2')).exitCode).toBe(0);
    expect(p.readJsonl('.claude/decisions.jsonl')).toEqual([expect.objectContaining({
      session_id: 's2', event: 'PreToolUse', tool: 'Bash', outcome: 'none', rules: [], fail_open: true,
      errors: [expect.stringContaining('error role-cycle: Roles include each other: a -> b -> a')],
    })]);
    p.write('.claude/policies.yaml', GOOD);
    const text = stats(p).stdout;
    expect(text).toMatch(/\n\nFail-opens: 1 \(last: \S+Z, role-cycle\); fail-closed: 0\n$/);
    expect(stats(p, ['--session', 's1']).stdout).toMatch(/\nFail-opens: 0; fail-closed: 0\n$/);
    // Another project's fail-opens in the same cache folder are not this one's.
    const other = project(BROKEN);
    other.run(bash('ls'));
    expect(runCli(['stats'], { cwd: p.dir, env: { CLAUDE_PROJECT_DIR: p.dir, HOOKPOLICY_CACHE_DIR: other.cacheDir, HOME: p.dir } }).stdout).toMatch(/Fail-opens: 0;/);
  });

  it('a policy that built before with a webhook: the team\'s endpoint gets the fail_open record too', async () => {
    const sink = await startSink();
    try {
      const withHook = GOOD.replace('  log: { file: .claude/decisions.jsonl }\n', `  log:\n    file: .claude/decisions.jsonl\n    webhook: { url: "${sink.url}" }\n`);
      const p = project(withHook);
      expect(p.run(bash('ls')).exitCode).toBe(0);
      p.write('.claude/policies.yaml', withHook.replace('rules: []\n', 'agents: { roles: { a: [b], b: [a] } }\nrules: []\n'));
      expect(p.run(bash('ls', 's9')).exitCode).toBe(0);
      const [request] = await sink.waitFor(1, 5000);
      expect(JSON.parse(request.body)).toMatchObject({ session_id: 's9', outcome: 'none', fail_open: true, errors: [expect.stringContaining('role-cycle')] });
    } finally {
      await sink.close();
    }
  }, 15_000);

  it.each([
    ['an expression that throws', `  - id: r\n    on: PreToolUse\n    when: "$contains(tool_input, 'x')"\n    deny: x\n`, 'expression-error'],
    ['a broken rule that could have judged the event', "  - id: r\n    on: PreToolUse\n    tools: Bash\n    command: ['rm (-rf']\n    deny: x\n", 'invalid-regex'],
  ])('a judged event left partly unchecked by %s: counted, and its log record says fail_open', (_name, rule, code) => {
    const p = project(GOOD.replace('rules: []\n', `rules:\n${rule}`));
    const r = p.run(bash('ls'));
    expect([r.exitCode, r.json]).toEqual([0, { systemMessage: expect.stringContaining('failing open') }]);
    expect(counter(p).map((l) => [l.code, l.on_error])).toEqual([[code, 'open']]);
    expect(p.readJsonl('.claude/decisions.jsonl')).toEqual([expect.objectContaining({ outcome: 'none', fail_open: true })]);
  });

  it('an unchecked rule beside one that denies: the call was stopped, nothing is counted', () => {
    const p = project(GOOD.replace('rules: []\n', `rules:\n  - id: r\n    on: PreToolUse\n    when: "$contains(tool_input, 'x')"\n    deny: x\n  - { id: no-ls, on: PreToolUse, tools: Bash, deny: "no" }\n`));
    p.run(bash('ls'));
    expect(counter(p)).toEqual([]);
  });

  it('on_error closed counts as fail-closed; an event that cannot be blocked counts as neither', () => {
    const p = project(BROKEN.replace('on_error: open', 'on_error: closed'));
    const r = p.run(bash('ls'));
    expect((r.json as { hookSpecificOutput: { permissionDecision: string } }).hookSpecificOutput.permissionDecision).toBe('deny');
    p.run({ hook_event_name: 'SessionStart', session_id: 's1', source: 'startup' });
    expect(counter(p).map((l) => [l.event, l.on_error])).toEqual([['PreToolUse', 'closed']]);
    expect(stats(p).stdout).toBe('Fail-opens: 0; fail-closed: 1\n');
  });

  it('no policy and a malformed event are fail-opens too', () => {
    const p = project(GOOD);
    fs.rmSync(p.file('.claude/policies.yaml'));
    expect(p.run(bash('ls')).exitCode).toBe(0);
    expect(p.run('{"not":"an event"}').exitCode).toBe(0);
    expect(counter(p).map((l) => [l.code, l.event])).toEqual([['no-policy', 'PreToolUse'], ['event-malformed', null]]);
  });

  it('a burst of 40 runners at once: 40 whole lines', async () => {
    const p = project(BROKEN);
    p.run(bash('warm'));
    fs.rmSync(path.join(p.cacheDir, 'fail-opens.jsonl'));
    const env = { ...process.env, CLAUDE_PROJECT_DIR: p.dir, HOOKPOLICY_CACHE_DIR: p.cacheDir };
    await Promise.all(Array.from({ length: 40 }, (_, i) => new Promise<void>((resolve, reject) => {
      const child = spawn(process.execPath, [POLICY_BIN, 'hook'], { cwd: p.dir, env, stdio: ['pipe', 'ignore', 'ignore'] });
      child.on('error', reject);
      child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`runner ${i} exited ${code}`))));
      child.stdin.end(JSON.stringify(bash(`echo ${i}`, `burst-${i}`)));
    })));
    const lines = counter(p);
    expect(lines).toHaveLength(40);
    expect(new Set(lines.map((l) => l.session_id)).size).toBe(40);
  }, 60_000);

  (process.platform !== 'win32' ? it : it.skip)('a FIFO planted where the counter is: the runner neither hangs nor writes into it, sets it aside, and counts', () => {
    const p = project(BROKEN);
    fs.mkdirSync(p.cacheDir, { recursive: true });
    execFileSync('mkfifo', [path.join(p.cacheDir, 'fail-opens.jsonl')]);
    const started = Date.now();
    const r = p.run(bash('ls'), { timeoutMs: 10_000 });
    expect(r.exitCode).toBe(0);
    expect(Date.now() - started).toBeLessThan(8000);
    expect(r.stderr).not.toContain('cannot count a fail-open');
    const aside = fs.readdirSync(p.cacheDir).filter((n) => n.startsWith('fail-opens.jsonl.set-aside-'));
    expect(aside.map((n) => fs.lstatSync(path.join(p.cacheDir, n)).isFIFO())).toEqual([true]);
    expect(stats(p).stdout).toMatch(/^Fail-opens: 1 \(last: \S+, role-cycle\); fail-closed: 0\n$/);
  });
});

describe('self-protection guards the counter', () => {
  const guarded = 'version: 1\nsettings:\n  log: { file: .claude/decisions.jsonl }\nrules: []\n';
  const decisionOf = (p: TempProject, event: Record<string, unknown>) =>
    (p.run({ ...event, cwd: p.dir }).json as { hookSpecificOutput?: { permissionDecision?: string } } | null)?.hookSpecificOutput?.permissionDecision;

  it.each([
    ['rm', (f: string) => bash(`rm -f ${f}`)],
    ['a truncating redirect', (f: string) => bash(`: > ${f}`)],
    ['mv', (f: string) => bash(`mv ${f} /tmp/gone`)],
    ['a symlink over it', (f: string) => bash(`ln -sf /dev/null ${f}`)],
    ['Write', (f: string) => ({ hook_event_name: 'PreToolUse', session_id: 's1', tool_name: 'Write', tool_input: { file_path: f, content: '' } })],
  ])('denies the agent\'s %s of the counter file', (_name, event) => {
    const p = project(guarded);
    expect(decisionOf(p, event(path.join(p.cacheDir, 'fail-opens.jsonl')))).toBe('deny');
  });
});

describe('a FIFO in the cache folder (docs/operations.md, Fail-open counter)', () => {
  // A FIFO where the runner reads a view would hold it until Claude Code's hook timeout: unanswered, uncounted.
  it('denies the agent\'s mkfifo where the runner will read a compiled policy\'s view', () => {
    const p = project('version: 1\nrules: []\n');
    const event = { ...bash(`mkfifo ${path.join(p.cacheDir, 'planted.view.0.json')}`), cwd: p.dir };
    expect((p.run(event).json as { hookSpecificOutput?: { permissionDecision?: string } } | null)?.hookSpecificOutput?.permissionDecision).toBe('deny');
  });
});

describe('readFailOpens (through the CLI\'s own reader)', () => {
  it('policy stats --since leaves older lines out', () => {
    const p = project(GOOD);
    fs.writeFileSync(path.join(p.cacheDir, 'fail-opens.jsonl'), `${JSON.stringify({ time: '2020-01-01T00:00:00.000Z', project: p.dir, session_id: 'old', event: 'PreToolUse', tool: 'Bash', code: 'no-policy', message: 'x', on_error: 'open' })}\nnot json\n`);
    expect(stats(p).stdout).toMatch(/Fail-opens: 1 \(last: 2020-01-01T00:00:00.000Z, no-policy\)/);
    expect(stats(p, ['--since', '2021-01-01']).stdout).toMatch(/Fail-opens: 0;/);
  });
});

describe('docs/operations.md, Fail-open counter', () => {
  const doc = fs.readFileSync(path.join(REPO_ROOT, 'docs', 'operations.md'), 'utf8');
  const section = doc.slice(doc.indexOf('\n## Fail-open counter\n')).split(/\n## (?!Fail-open)/)[0];
  const [counterLine, logLine] = [...section.matchAll(/```json\n([\s\S]*?)```/g)].map((m) => JSON.parse(m[1]) as Record<string, unknown>);

  it('shows a counter line and a decision-log record with the fields the runner writes', () => {
    const p = project(GOOD);
    p.run(bash('ls'));
    p.write('.claude/policies.yaml', BROKEN);
    p.run({ hook_event_name: 'PreToolUse', session_id: 'b7c2', tool_name: 'Write', tool_input: { file_path: p.file('src/a.ts'), content: 'x' } });
    const written = counter(p)[0];
    expect(Object.keys(counterLine).sort()).toEqual(Object.keys(written).sort());
    expect(counterLine).toMatchObject({ on_error: 'open', code: 'role-cycle', message: written.message });
    const logged = p.readJsonl('.claude/decisions.jsonl')[0];
    // prev: the hash chain's link, which the docs' single line leaves out.
    expect(Object.keys(logLine).sort()).toEqual(Object.keys(logged).filter((k) => k !== 'prev').sort());
    expect(logLine).toMatchObject({ fail_open: true, outcome: 'none', rules: [] });
  });
});
