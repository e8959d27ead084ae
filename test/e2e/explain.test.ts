/**
 * `policy explain` through the built bin: the report for a deny, a rule that does not
 * match, a require rule, --json, stdin and load errors.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import { makeProject, POLICY_BIN, type TempProject } from '../support/run-hook';

const POLICY = `version: 1
rules:
  - id: no-env-writes
    on: PreToolUse
    tools: Write|Edit
    paths: { deny: ["**/.env"] }
    deny: "{{path}} holds secrets."
  - id: only-tests
    on: PreToolUse
    tools: Write
    paths: { allow: ["**/*.test.ts"] }
    ask: "{{path}} is not a test."
  - id: no-rm-rf
    on: PreToolUse
    tools: Bash
    command: ['\\brm\\s+-rf\\b']
    deny: "No rm -rf."
  - id: notes-before-stop
    on: Stop
    require:
      - { file: "notes/*.md", min_bytes: 50 }
      - { file: "SUMMARY.md" }
    block: "Write notes first: {{unmet}}"
`;

let p: TempProject;
beforeAll(() => {
  p = makeProject(POLICY, { 'notes/a.md': 'short' });
});
afterAll(() => p.remove());

function explain(args: string[], input?: string) {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('CLAUDE_') && !k.startsWith('HOOKPOLICY_') && k !== 'POLICY_CONFIG') env[k] = v;
  const r = spawnSync(process.execPath, [POLICY_BIN, 'explain', ...args], { cwd: p.dir, env, input, encoding: 'utf8', timeout: 60000 });
  return { stdout: r.stdout, stderr: r.stderr, code: r.status };
}

function eventFile(name: string, event: Record<string, unknown>): string {
  return p.write(`events/${name}.json`, JSON.stringify({ cwd: p.dir, ...event }));
}

describe('policy explain', () => {
  it('a deny: the rule that fired, the one that did not, the decision with file:line and the exact output', () => {
    const file = eventFile('deny', { hook_event_name: 'PreToolUse', tool_name: 'Write', tool_input: { file_path: p.file('.env'), content: 'X=1' } });
    const r = explain([file]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe([
      'Event: PreToolUse, tool Write, agent (none)',
      'Rules considered: 2; not considered for this event and tool: 2',
      '  no-env-writes (.claude/policies.yaml:3:5): fired: deny',
      '    paths: .env',
      '    message: .env holds secrets.',
      '  only-tests (.claude/policies.yaml:8:5): fired: ask',
      '    paths: .env',
      '    message: .env is not a test.',
      '',
      'Decision: deny',
      '  decided by no-env-writes (.claude/policies.yaml:3:5): .env holds secrets.',
      '',
      'Output (what `policy hook` writes):',
      '  exit code: 0',
      '  stdout: {"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":".env holds secrets."}}',
      '  stderr: (empty)',
      '',
    ].join('\n'));
  });

  it('no match: the first condition that failed, with its detail', () => {
    const file = eventFile('nomatch', { hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls -la' } });
    const r = explain([file]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Rules considered: 1; not considered for this event and tool: 3\n');
    expect(r.stdout).toContain('  no-rm-rf (.claude/policies.yaml:13:5): no match\n    command: the command matches none of /\\brm\\s+-rf\\b/\n');
    expect(r.stdout).toContain('Decision: none\n');
    expect(r.stdout).toContain('  stdout: (empty)\n');
  });

  it('a require rule: each requirement with the file found and its size', () => {
    const file = eventFile('stop', { hook_event_name: 'Stop', stop_hook_active: false });
    const r = explain([file]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain([
      '  notes-before-stop (.claude/policies.yaml:18:5): fired: block',
      '    require notes/*.md (>= 50 bytes): found notes/a.md, 5 bytes: unmet',
      '    require SUMMARY.md (>= 1 bytes): missing: unmet',
    ].join('\n'));
    expect(r.stdout).toContain('Decision: block\n');
  });

  it('--json: one object with event, agent, tool, decision, rules and output; the event may come on stdin', () => {
    const event = { hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'rm -rf build' }, cwd: p.dir };
    const r = explain(['-', '--json'], JSON.stringify(event));
    expect(r.code).toBe(0);
    const json = JSON.parse(r.stdout);
    expect(Object.keys(json)).toEqual(['event', 'agent', 'tool', 'decision', 'rules', 'notConsidered', 'output']);
    expect(json).toMatchObject({ event: 'PreToolUse', agent: null, tool: 'Bash', notConsidered: 3 });
    expect(json.decision.outcome).toBe('deny');
    expect(json.decision.decidedBy).toEqual([
      { id: 'no-rm-rf', outcome: 'deny', message: 'No rm -rf.', source: { file: p.file('.claude/policies.yaml'), line: 13, column: 5 } },
    ]);
    expect(json.rules).toEqual([{ id: 'no-rm-rf', source: { file: p.file('.claude/policies.yaml'), line: 13, column: 5 }, status: 'fired' }]);
    expect(json.output).toEqual({
      stdout: '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"No rm -rf."}}\n',
      stderr: '',
      exitCode: 0,
    });
  });

  it('exits 2 with file:line:col when the policy does not load', () => {
    const broken = makeProject('version: 1\nrules:\n  - id: a\n    on: PreToolUse\n    denny: "x"\n');
    try {
      const file = broken.write('e.json', JSON.stringify({ hook_event_name: 'Stop' }));
      const env: NodeJS.ProcessEnv = { ...process.env, CLAUDE_PROJECT_DIR: broken.dir };
      const r = spawnSync(process.execPath, [POLICY_BIN, 'explain', file], { cwd: broken.dir, env, encoding: 'utf8' });
      expect(r.status).toBe(2);
      expect(r.stderr).toMatch(/\.claude\/policies\.yaml:5:5: error schema-unknown-key/);
      expect(r.stdout).toBe('');
    } finally {
      broken.remove();
    }
  });

  it('exits 2 on an event that is not a hook event', () => {
    const file = p.write('events/bad.json', '[1, 2]');
    const r = explain([file]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('error event-malformed');
    expect(fs.existsSync(file)).toBe(true);
  });

  it('exits 2 on a usage error', () => {
    expect(explain([]).code).toBe(2);
    expect(explain(['x.json', '--bogus']).code).toBe(2);
  });
});
