/**
 * `policy hook --host codex|gemini` as each host runs it: the built runner, the host's own
 * event on stdin, the answer in the host's shape, and the decision log in the project.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { makeProject, REPO_ROOT, type TempProject } from '../support/run-hook';
import { runCli } from '../support/run-cli';

const POLICY = `version: 1
settings:
  log: { file: .claude/decisions.jsonl, record: [deny, ask, block, error] }
agents: { main: lead, roles: { reviewer: [lynch] } }
rules:
  - id: no-pwned
    on: PreToolUse
    tools: Bash|Write|Edit
    paths: { deny: ["PWNED*"] }
    deny: "No PWNED files."
  - id: env-asks
    on: PreToolUse
    tools: Write|Edit
    paths: { deny: [".env"] }
    ask: "Touching .env?"
  - id: reviewer-writes-nothing
    on: PreToolUse
    tools: Write|Edit|Bash
    agents: reviewer
    deny: "{{agent}} writes nothing."
  - id: tests-first
    on: Stop
    match: { stop_hook_active: false }
    block: "Run the tests first."
`;

let project: TempProject;
beforeAll(() => {
  project = makeProject(POLICY);
});
afterAll(() => project.remove());

const codex = (fields: Record<string, unknown>) => ({
  session_id: 's1', turn_id: 't1', transcript_path: null, cwd: project.dir, model: 'm', permission_mode: 'default', tool_use_id: 'call_1', ...fields,
});
const gemini = (fields: Record<string, unknown>) => ({ session_id: 's2', transcript_path: '/t.jsonl', cwd: project.dir, timestamp: '2026-11-28T00:00:00Z', ...fields });

describe('policy hook --host codex', () => {
  const run = (event: unknown) => project.run(event, { args: ['--host', 'codex'] });

  it('denies a Bash write the paths rule forbids, as Codex reads a deny', () => {
    const r = run(codex({ hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'touch PWNED.txt' } }));
    expect(r.json).toEqual({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'No PWNED files.' } });
    expect(r.exitCode).toBe(0);
  });

  it('keeps per-agent lanes: a subagent carries agent_type', () => {
    const r = run(codex({ hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'touch notes.txt' }, agent_id: 'a1', agent_type: 'lynch' }));
    expect((r.json as { hookSpecificOutput: { permissionDecisionReason: string } }).hookSpecificOutput.permissionDecisionReason).toBe('lynch writes nothing.');
    expect(run(codex({ hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'touch notes.txt' } })).stdout).toBe('');
  });

  it('judges every file of a patch, and denies the ask Codex cannot show', () => {
    const patch = '*** Begin Patch\n*** Add File: ok.txt\n+fine\n*** Update File: .env\n@@\n-A=1\n+A=2\n*** End Patch';
    const r = run(codex({ hook_event_name: 'PreToolUse', tool_name: 'apply_patch', tool_input: { command: patch } }));
    expect(r.json).toEqual({
      systemMessage: 'hookpolicy: rule env-asks: Codex CLI cannot ask on PreToolUse; denied instead',
      hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'Touching .env?' },
    });
    const last = project.readJsonl('.claude/decisions.jsonl').at(-1);
    expect(last).toMatchObject({ event: 'PreToolUse', outcome: 'ask', rules: ['env-asks'], paths: ['.env'] });
  });

  it('guards the runner\'s own entry: a patch to .codex/config.toml is denied', () => {
    const patch = '*** Begin Patch\n*** Update File: .codex/config.toml\n@@\n-[[hooks.PreToolUse]]\n+\n*** End Patch';
    const r = run(codex({ hook_event_name: 'PreToolUse', tool_name: 'apply_patch', tool_input: { command: patch } }));
    expect((r.json as { hookSpecificOutput: { permissionDecisionReason: string } }).hookSpecificOutput.permissionDecisionReason).toMatch(/^\.codex\/config\.toml is or holds one of hookpolicy's own files/);
  });

  it('blocks Stop', () => {
    expect(run(codex({ hook_event_name: 'Stop', stop_hook_active: false, last_assistant_message: 'done' })).json).toEqual({ decision: 'block', reason: 'Run the tests first.' });
  });
});

describe('policy hook --host gemini', () => {
  const run = (event: unknown) => project.run(event, { args: ['--host', 'gemini'] });

  it('denies a run_shell_command write, as Gemini reads a deny, and says which lane it cannot apply', () => {
    const r = run(gemini({ hook_event_name: 'BeforeTool', tool_name: 'run_shell_command', tool_input: { command: 'touch PWNED.txt' } }));
    const out = r.json as Record<string, string>;
    expect(out.decision).toBe('deny');
    expect(out.reason).toBe('No PWNED files.');
    expect(out.systemMessage).toContain('rule "reviewer-writes-nothing" names agents (lynch), and Gemini CLI names no acting agent');
  });

  it('denies the ask on write_file of .env (Gemini\'s own ask hangs a non-interactive session), and retries AfterAgent with the reason', () => {
    expect(run(gemini({ hook_event_name: 'BeforeTool', tool_name: 'write_file', tool_input: { file_path: '.env', content: 'x' } })).json).toMatchObject({ decision: 'deny', reason: 'Touching .env?' });
    expect(run(gemini({ hook_event_name: 'AfterAgent', prompt: 'go', prompt_response: 'done', stop_hook_active: false })).json).toEqual({ decision: 'deny', reason: 'Run the tests first.' });
  });

  it('answers nothing to the model hooks, which no rule names', () => {
    const r = run(gemini({ hook_event_name: 'BeforeModel', llm_request: {} }));
    expect([r.stdout, r.stderr, r.exitCode]).toEqual(['', '', 0]);
  });

  it('fails on a host event it cannot read as the policy says, visibly', () => {
    const r = run('[1, 2]');
    expect(r.stderr).toContain('event-malformed');
  });
});

describe('policy test with a host', () => {
  it('runs each case as its host sends it, and compares the answer in the host\'s shape', () => {
    const r = runCli(['test', path.join('fixtures', 'hosts', 'hosts.test.yaml')], { cwd: REPO_ROOT });
    expect(r.stdout).toContain('5 passed, 0 failed');
    expect(r.code).toBe(0);
  });

  it('passes the example of docs/test-format.md\'s Hosts', () => {
    const doc = fs.readFileSync(path.join(REPO_ROOT, 'docs', 'test-format.md'), 'utf8');
    const example = /## Hosts[\s\S]*?```yaml\n([\s\S]*?)```/.exec(doc)?.[1] ?? '';
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hosts-doc-'));
    fs.copyFileSync(path.join(REPO_ROOT, 'fixtures', 'hosts', 'policies.yaml'), path.join(dir, 'policies.yaml'));
    fs.writeFileSync(path.join(dir, 'example.test.yaml'), example);
    const r = runCli(['test', 'example.test.yaml'], { cwd: dir });
    fs.rmSync(dir, { recursive: true, force: true });
    expect(r.stdout).toContain('2 passed, 0 failed');
  });
});

describe('policy explain with a host', () => {
  it('reads the host\'s event as the runner does, and shows the answer in the host\'s shape', () => {
    const patch = '*** Begin Patch\n*** Add File: ok.txt\n+fine\n*** Update File: .env\n@@\n-A=1\n+A=2\n*** End Patch';
    project.write('codex-event.json', JSON.stringify(codex({ hook_event_name: 'PreToolUse', tool_name: 'apply_patch', tool_input: { command: patch } })));
    const r = runCli(['explain', 'codex-event.json', '--host', 'codex', '--json'], { cwd: project.dir, env: { CLAUDE_PROJECT_DIR: project.dir, HOOKPOLICY_CACHE_DIR: project.cacheDir } });
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out).toMatchObject({ host: 'codex', hostEvent: 'PreToolUse', readAs: ['PreToolUse Write ok.txt', 'PreToolUse Edit .env'] });
    expect(JSON.parse(out.output.stdout).hookSpecificOutput.permissionDecision).toBe('deny');

    project.write('gemini-event.json', JSON.stringify(gemini({ hook_event_name: 'BeforeModel', llm_request: {} })));
    const none = runCli(['explain', 'gemini-event.json', '--host', 'gemini'], { cwd: project.dir, env: { CLAUDE_PROJECT_DIR: project.dir, HOOKPOLICY_CACHE_DIR: project.cacheDir } });
    expect(none.stdout).toBe("Gemini CLI's BeforeModel has no counterpart the rules name: the runner answers nothing.\n");
  });
});
