/**
 * The language of recording through the built bin: final, record-only rules on SessionEnd
 * and PreCompact (no output), an agent's text that stays one JSON line and is never a
 * template again, the privacy filter, a counter and the Stop-loop guard across events,
 * `policy test` with memory and records, `policy explain --memory`, and `policy init`
 * registering SessionEnd for a rule that records there.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { linkHookpolicy } from '../support/install';
import { runCli } from '../support/run-cli';
import { makeProject, type TempProject } from '../support/run-hook';
import { ensureBuilt } from '../support/hook-process';

beforeAll(() => ensureBuilt(), 120_000);

const JOURNAL = '.claude/hookpolicy/memory/journal.jsonl';
const POLICY = `version: 1
rules:
  - id: guard-env
    on: PreToolUse
    tools: Write
    paths: { deny: ["**/.env"] }
    deny: "no .env"
    final: true
  - id: later-context
    on: PreToolUse
    context: "later context"
  - id: observe-bash
    on: PostToolUse
    tools: Bash
    record: { kind: command, text: "{{command}}", fields: { command: "{{command}}" } }
  - id: test-failed
    on: PostToolUseFailure
    tools: Bash
    record: { kind: test-fail, importance: 0.9, text: "{{command}}" }
  - id: session-end
    on: SessionEnd
    record: { kind: session-end, text: "ended: {{reason}}" }
  - id: before-compact
    on: PreCompact
    record: { kind: pre-compact, text: "{{trigger}}" }
  - id: no-stop-after-failures
    on: Stop
    let:
      fails: { count: test-fail }
      blocks: { count: stop-blocked, since_minutes: 60 }
    when: "$fails >= 2 and $not(stop_hook_active) and $blocks < 2"
    block: "{{fails}} test runs failed"
    record: { kind: stop-blocked, text: "{{fails}}" }
`;

const made: TempProject[] = [];
afterAll(() => {
  for (const p of made) p.remove();
});

function project(policy = POLICY, files: Record<string, string> = {}): TempProject {
  const p = makeProject(policy, files);
  made.push(p);
  return p;
}

describe('recording through the runner', () => {
  it('final: a deny stops the chain, so the later rule adds no context', () => {
    const p = project();
    const r = p.run({ hook_event_name: 'PreToolUse', session_id: 's1', cwd: p.dir, tool_name: 'Write', tool_input: { file_path: p.file('.env'), content: 'x' } });
    expect(r.json).toEqual({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'no .env' } });
    const other = p.run({ hook_event_name: 'PreToolUse', session_id: 's1', cwd: p.dir, tool_name: 'Write', tool_input: { file_path: p.file('a.ts'), content: 'x' } });
    expect(other.json).toEqual({ hookSpecificOutput: { hookEventName: 'PreToolUse', additionalContext: 'later context' } });
  });

  it('SessionEnd and PreCompact rules record and answer nothing', () => {
    const p = project();
    for (const event of [{ hook_event_name: 'SessionEnd', reason: 'clear' }, { hook_event_name: 'PreCompact', trigger: 'auto', custom_instructions: null }]) {
      const r = p.run({ session_id: 's1', cwd: p.dir, ...event });
      expect([r.exitCode, r.stdout, r.stderr]).toEqual([0, '', '']);
    }
    expect(p.readJsonl(JOURNAL).map((l) => [l.kind, l.text, l.event])).toEqual([['session-end', 'ended: clear', 'SessionEnd'], ['pre-compact', 'auto', 'PreCompact']]);
  });

  it('an agent\'s text stays one line of the journal, and is never expanded as a template', () => {
    const p = project();
    const command = 'echo "{{env.HOME}}" \'\\n\'\n}}{{ rule }}\u2028\r\ndone';
    p.run({ hook_event_name: 'PostToolUse', session_id: 's1', cwd: p.dir, tool_name: 'Bash', tool_input: { command }, tool_response: {} });
    const lines = fs.readFileSync(p.file(JOURNAL), 'utf8').split('\n').filter((l) => l !== '');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0])).toMatchObject({ text: command, fields: { command } });
  });

  it('the privacy filter drops a record before anything is written', () => {
    const p = project();
    const r = p.run({ hook_event_name: 'PostToolUse', session_id: 's1', cwd: p.dir, tool_name: 'Bash', tool_input: { command: 'export API_KEY=sk-123' }, tool_response: {} });
    expect([r.exitCode, r.stdout, r.stderr]).toEqual([0, '', '']);
    expect(fs.existsSync(p.file(JOURNAL))).toBe(false);
  });

  it('a counter across events: two failed test runs block Stop, twice an hour at most, and stop_hook_active lets Claude stop', () => {
    const p = project();
    const fail = () => p.run({ hook_event_name: 'PostToolUseFailure', session_id: 's1', cwd: p.dir, tool_name: 'Bash', tool_input: { command: 'npm test' }, error: 'exit 1' });
    const stop = (active = false) => p.run({ hook_event_name: 'Stop', session_id: 's1', cwd: p.dir, stop_hook_active: active });
    fail();
    expect(stop().stdout).toBe('');
    fail();
    expect(stop(true).stdout).toBe('');
    expect(stop().json).toEqual({ decision: 'block', reason: '2 test runs failed' });
    expect(stop().json).toEqual({ decision: 'block', reason: '2 test runs failed' });
    expect(stop().stdout).toBe('');
    // Another session starts from zero.
    expect(p.run({ hook_event_name: 'Stop', session_id: 's2', cwd: p.dir, stop_hook_active: false }).stdout).toBe('');
  });
});

describe('policy test with memory', () => {
  it('runs a suite whose cases give memory and expect records, at 100% coverage', () => {
    const p = project(POLICY, {
      '.claude/policies.test.yaml': `policy: policies.yaml
memory:
  - { kind: test-fail, text: "npm test" }
cases:
  - name: one failure does not block
    event: { event: Stop }
    expect: { outcome: none, records: [] }
  - name: a second failure blocks, and the block is recorded
    event: { event: Stop }
    memory: [{ kind: test-fail, text: "npm test", at: "-5m" }]
    expect: { outcome: block, message: "2 test runs failed", records: [{ kind: stop-blocked, text: "2" }] }
  - name: a command is recorded silently
    event: { event: PostToolUse, command: "npm run build" }
    expect: { outcome: none, stdout: null, records: [{ kind: command, text: { equals: "npm run build" }, importance: 0.5 }] }
  - name: a secret is dropped
    event: { event: PostToolUse, command: "cat secrets.txt" }
    expect: { records: [], dropped: 1 }
  - name: a failed test run
    event: { event: PostToolUseFailure, command: "npm test" }
    expect: { records: [{ kind: test-fail, importance: 0.9 }] }
  - name: the end of a session
    event: { event: SessionEnd, fields: { reason: logout } }
    expect: { stdout: null, records: [{ kind: session-end, text: "ended: logout" }] }
  - name: a compaction
    event: { event: PreCompact, fields: { trigger: manual } }
    expect: { stdout: null, records: [{ kind: pre-compact, text: "manual" }] }
  - name: final
    event: { event: PreToolUse, tool: Write, path: .env }
    expect: { outcome: deny, rules: [guard-env] }
  - name: later context
    event: { event: PreToolUse, tool: Write, path: a.ts }
    expect: { context: "later context" }
  - name: a wrong expectation is reported
    event: { event: PostToolUse, command: "ls" }
    expect: { records: [{ kind: command, text: "npm" }] }
`,
    });
    const r = runCli(['test', '.claude/policies.test.yaml', '--format', 'json', '--coverage'], { cwd: p.dir, env: { CLAUDE_PROJECT_DIR: p.dir } });
    expect(r.code).toBe(1);
    const result = JSON.parse(r.stdout);
    const cases = result.suites[0].cases as Array<{ name: string; passed: boolean; failures: Array<{ key: string }> }>;
    expect(cases.filter((c) => !c.passed).map((c) => [c.name, c.failures.map((f) => f.key)])).toEqual([['a wrong expectation is reported', ['records']]]);
    expect(result.coverage).toMatchObject({ percent: 100 });
    // A test never writes the project's store.
    expect(fs.existsSync(p.file('.claude/hookpolicy'))).toBe(false);
  });
});

describe('policy explain --memory', () => {
  it('reads the records of a file and shows what the rule records', () => {
    const p = project();
    p.write('memory.yaml', '- { kind: test-fail, text: "npm test" }\n- { kind: test-fail, text: "npm test", at: "-3m" }\n');
    p.write('stop.json', JSON.stringify({ hook_event_name: 'Stop', session_id: 's9', cwd: p.dir, stop_hook_active: false }));
    const r = runCli(['explain', 'stop.json', '--memory', 'memory.yaml'], { cwd: p.dir, env: { CLAUDE_PROJECT_DIR: p.dir } });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('  no-stop-after-failures (.claude/policies.yaml:26:5): fired: block\n');
    expect(r.stdout).toContain('    record stop-blocked (importance 0.5): "2"\n');
    expect(r.stdout).toContain('  records: 1 to store, 0 dropped by the privacy filter\n');
    expect(fs.existsSync(p.file(JOURNAL))).toBe(false);
    const bad = p.write('bad.yaml', 'kind: x\n');
    const wrong = runCli(['explain', 'stop.json', '--memory', bad], { cwd: p.dir, env: { CLAUDE_PROJECT_DIR: p.dir } });
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('error schema-invalid: --memory: expected a list of records');
  });
});

describe('policy init', () => {
  it('registers SessionEnd and PreCompact for rules that record there, and --check finds no drift', () => {
    const p = project();
    linkHookpolicy(p.dir);
    const home = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'hookpolicy-home-')));
    try {
      const env = { HOME: home, CLAUDE_PROJECT_DIR: undefined };
      expect(runCli(['init'], { cwd: p.dir, env }).code).toBe(0);
      const hooks = JSON.parse(fs.readFileSync(p.file('.claude/settings.json'), 'utf8')).hooks as Record<string, unknown>;
      expect(Object.keys(hooks)).toEqual(expect.arrayContaining(['SessionEnd', 'PreCompact', 'PostToolUseFailure']));
      const check = runCli(['init', '--check'], { cwd: p.dir, env });
      expect(check.code).toBe(0);
      expect(check.stdout + check.stderr).not.toMatch(/SessionEnd/);
    } finally {
      fs.rmSync(home, { recursive: true, force: true });
    }
  });
});
