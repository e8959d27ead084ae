/**
 * The memory store through the built runner, as Claude Code runs it: recording appends
 * (and opens no database), the answer never changes whatever happens to the store, and
 * the records come back through the store-reading lets in later events and sessions.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { makeProject, type TempProject } from '../support/run-hook';

const STORE = '.claude/hookpolicy/memory';
const POLICY = `version: 1
settings:
  log: { file: .claude/decisions.jsonl }
rules:
  - id: observe-writes
    on: PostToolUse
    tools: Write
    record: { kind: file-change, importance: 0.7, text: "Write {{paths}}", fields: { paths: "{{paths}}" } }
  - id: observe-commands
    on: PostToolUse
    tools: Bash
    record: { kind: command, text: "{{command}}", fields: { command: "{{command}}" } }
  - id: no-rm
    on: PreToolUse
    tools: Bash
    command: ['^rm ']
    deny: "no rm"
    record: { kind: denied, importance: 1, text: "{{command}}" }
  - id: session-summary
    on: SessionEnd
    let:
      done: { summary: session }
    record: { kind: summary, importance: 0.8, text: "{{done}}" }
  - id: recall
    on: SessionStart
    let:
      earlier: { summaries: 3, budget_tokens: 200 }
    context: "Earlier sessions:\\n{{earlier}}"
  - id: related
    on: UserPromptSubmit
    let:
      found: { search: "{{prompt}}", limit: 3, min_relevance: 0.5 }
    context: "Related:\\n{{found}}"
`;

const post = (session: string, tool: string, input: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  ({ hook_event_name: 'PostToolUse', session_id: session, tool_name: tool, tool_input: input, tool_response: {}, ...extra });

function journal(p: TempProject): Array<Record<string, unknown>> {
  return p.readJsonl(`${STORE}/journal.jsonl`);
}

describe('recording through the runner', () => {
  let p: TempProject;
  beforeEach(() => {
    p = makeProject(POLICY);
  });
  afterEach(() => p.remove());

  it('appends the record with the session, the agent, the event and the time, says nothing, and opens no database', () => {
    const before = Date.now();
    const r = p.run(post('s1', 'Bash', { command: 'npm test' }, { agent_id: 'a1', agent_type: 'murdock' }));
    expect([r.exitCode, r.stdout, r.stderr]).toEqual([0, '', '']);
    const [line] = journal(p);
    expect(line).toEqual({ at: expect.any(String), session: 's1', agent: 'murdock', event: 'PostToolUse', rule: 'observe-commands', kind: 'command', importance: 0.5, text: 'npm test', fields: { command: 'npm test' } });
    expect(Date.parse(line.at as string)).toBeGreaterThanOrEqual(before - 1000);
    expect(fs.existsSync(p.file(`${STORE}/index.db`))).toBe(false);
  });

  it('a rule that denies and records does both', () => {
    const r = p.run({ hook_event_name: 'PreToolUse', session_id: 's1', tool_name: 'Bash', tool_input: { command: 'rm -rf build' } });
    expect(r.json).toMatchObject({ hookSpecificOutput: { permissionDecision: 'deny', permissionDecisionReason: 'no rm' } });
    expect(journal(p)).toEqual([expect.objectContaining({ rule: 'no-rm', kind: 'denied', importance: 1, text: 'rm -rf build' })]);
  });

  it('a failed append changes no answer: a memory-error warning on stderr and in the logged decision', () => {
    fs.mkdirSync(path.dirname(p.file(STORE)), { recursive: true });
    fs.writeFileSync(p.file(STORE), 'a file where the store folder should be');
    const r = p.run({ hook_event_name: 'PreToolUse', session_id: 's1', tool_name: 'Bash', tool_input: { command: 'rm -rf build' } });
    expect(r.json).toMatchObject({ hookSpecificOutput: { permissionDecision: 'deny', permissionDecisionReason: 'no rm' } });
    expect(r.stderr).toMatch(/^hookpolicy: .*memory\/journal\.jsonl: warning memory-error: cannot append 1 record\(s\) to the memory journal: .* is not a folder\n$/);
    const [logged] = p.readJsonl('.claude/decisions.jsonl');
    expect(logged).toMatchObject({ outcome: 'deny', rules: ['no-rm'], errors: [expect.stringContaining('memory-error')] });
    // The handler metric: the runner's own time for the event, a positive number of ms.
    expect(typeof logged.duration_ms === 'number' && logged.duration_ms > 0 && logged.duration_ms < 60_000).toBe(true);
  });

  it('records nothing, and makes no folder, with settings.memory.store: false', () => {
    p.write('.claude/policies.yaml', POLICY.replace('settings:\n', 'settings:\n  memory: { store: false }\n'));
    const r = p.run(post('s1', 'Bash', { command: 'ls' }));
    expect([r.exitCode, r.stdout]).toEqual([0, '']);
    expect(fs.existsSync(p.file('.claude/hookpolicy'))).toBe(false);
  });

  it('records in the folder settings.memory.store names', () => {
    p.write('.claude/policies.yaml', POLICY.replace('settings:\n', 'settings:\n  memory: { store: var/memory }\n'));
    p.run(post('s1', 'Bash', { command: 'ls' }));
    expect(p.readJsonl('var/memory/journal.jsonl')).toEqual([expect.objectContaining({ text: 'ls' })]);
  });
});

describe('recall through the runner', () => {
  let p: TempProject;
  beforeAll(() => {
    p = makeProject(POLICY);
    p.run(post('s1', 'Write', { file_path: p.file('src/auth/jwt.ts'), content: 'x' }));
    p.run(post('s1', 'Bash', { command: 'npm test -- jwt' }));
    p.run({ hook_event_name: 'SessionEnd', session_id: 's1', reason: 'other' });
  });
  afterAll(() => p.remove());

  it('SessionEnd stored the session\'s deterministic summary', () => {
    expect(journal(p).at(-1)).toMatchObject({ session: 's1', event: 'SessionEnd', kind: 'summary', text: '1 file changed (src/auth/jwt.ts); 1 command (npm test -- jwt)' });
  });

  it('the next session starts with it, in the seed\'s format', () => {
    const r = p.run({ hook_event_name: 'SessionStart', session_id: 's2', source: 'startup' });
    const month = new Date().getUTCMonth() + 1;
    const day = new Date().getUTCDate();
    expect(r.json).toEqual({ hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: `Earlier sessions:\n- [${month}/${day}] 1 file changed (src/auth/jwt.ts); 1 command (npm test -- jwt)` } });
    expect(fs.existsSync(p.file(`${STORE}/index.db`))).toBe(true);
  });

  it('a prompt finds related records, with their relevance and ids', () => {
    const r = p.run({ hook_event_name: 'UserPromptSubmit', session_id: 's2', prompt: 'the jwt tests' });
    const context = (r.json as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput.additionalContext;
    expect(context.split('\n')[0]).toBe('Related:');
    expect(context).toMatch(/^- npm test -- jwt \(\d+\/\d+, relevance: 1\.00\) #2$/m);
  });

  it('a store folder swapped for a link: the reading rule does not apply, and a memory-error warning says why', () => {
    const planted = p.file('planted');
    fs.mkdirSync(planted, { mode: 0o700 });
    fs.renameSync(p.file(STORE), p.file('store-moved'));
    fs.symlinkSync(planted, p.file(STORE));
    try {
      const read = p.run({ hook_event_name: 'SessionStart', session_id: 's4', source: 'startup' });
      expect([read.exitCode, read.stdout]).toEqual([0, '']);
      expect(read.stderr).toMatch(/^hookpolicy: .*\/\.claude\/hookpolicy\/memory: warning memory-error: a rule could not read the memory store: .* is a symbolic link; the memory store does not follow one \(a rule that denies, asks or blocks fails per on_error; any other does not apply\)\n/);
      expect(fs.readdirSync(planted)).toEqual([]);
    } finally {
      fs.rmSync(p.file(STORE));
      fs.renameSync(p.file('store-moved'), p.file(STORE));
    }
  });

  it('without better-sqlite3: recording still appends; a reading rule fails visibly with the fix', () => {
    const env = { HOOKPOLICY_NO_SQLITE: '1' };
    const before = journal(p).length;
    const recorded = p.run(post('s3', 'Bash', { command: 'make' }), { env });
    expect([recorded.exitCode, recorded.stdout, recorded.stderr]).toEqual([0, '', '']);
    expect(journal(p)).toHaveLength(before + 1);
    const read = p.run({ hook_event_name: 'SessionStart', session_id: 's3', source: 'startup' }, { env });
    expect(read.exitCode).toBe(0);
    expect(read.stderr).toContain('warning memory-unavailable: the memory store cannot be read: better-sqlite3 is not installed or not built');
    expect(read.stderr).toContain('npm install-scripts approve better-sqlite3');
    // And once it is back, the record appended meanwhile is there.
    const after = p.run({ hook_event_name: 'UserPromptSubmit', session_id: 's3', prompt: 'make' });
    expect((after.json as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput.additionalContext).toMatch(/^- make \(.*#\d+$/m);
  });
});

describe('a rule that denies counts what it cannot read: on_error decides, never "nothing counted"', () => {
  const guard = (onError: string) => `version: 1
settings:
  on_error: ${onError}
rules:
  - id: count-failures
    on: PostToolUseFailure
    tools: Bash
    record: { kind: test-fail, text: "{{command}}" }
  - id: no-publish-after-failures
    on: PreToolUse
    tools: Bash
    command: ['^npm publish']
    let: { fails: { count: test-fail } }
    when: "$fails >= 3"
    deny: "{{fails}} test runs failed in this session: fix them before you publish"
`;
  const publish = { hook_event_name: 'PreToolUse', session_id: 's1', tool_name: 'Bash', tool_input: { command: 'npm publish' } };
  const failed = { hook_event_name: 'PostToolUseFailure', session_id: 's1', tool_name: 'Bash', tool_input: { command: 'npm test' }, error: 'exit 1' };
  const permission = (r: { json: unknown }) => (r.json as { hookSpecificOutput?: { permissionDecision?: string } } | null)?.hookSpecificOutput?.permissionDecision;
  const FACT_ERROR = /error fact-error: rule "no-publish-after-failures": let fails: the memory store cannot be read: /;

  /** Runs `check` with the store folder swapped for a link to an empty folder planted in the project. */
  function withPlantedStore(p: TempProject, check: () => void): void {
    const planted = p.file('planted');
    fs.mkdirSync(planted, { mode: 0o700, recursive: true });
    fs.renameSync(p.file(STORE), p.file('store-moved'));
    fs.symlinkSync(planted, p.file(STORE));
    try {
      check();
      expect(fs.readdirSync(planted)).toEqual([]);
    } finally {
      fs.rmSync(p.file(STORE));
      fs.renameSync(p.file('store-moved'), p.file(STORE));
    }
  }

  it('on_error: closed: the call is refused while the store cannot be read, and answered by the count again once it can', () => {
    const p = makeProject(guard('closed'));
    try {
      p.run(failed);
      expect(journal(p)).toHaveLength(1);
      const counted1 = p.run(publish);
      expect([counted1.exitCode, counted1.stdout]).toEqual([0, '']);
      withPlantedStore(p, () => {
        const refused = p.run(publish);
        expect([refused.exitCode, permission(refused)]).toEqual([0, 'deny']);
        expect(refused.stderr).toMatch(FACT_ERROR);
        expect(refused.stderr).toMatch(/is a symbolic link; the memory store does not follow one \(failing closed\)/);
        expect(refused.stderr).toContain('warning memory-error: a rule could not read the memory store');
      });
      const unbuilt = p.run(publish, { env: { HOOKPOLICY_NO_SQLITE: '1' } });
      expect([unbuilt.exitCode, permission(unbuilt)]).toEqual([0, 'deny']);
      expect(unbuilt.stderr).toContain('error fact-error: rule "no-publish-after-failures": let fails: the memory store cannot be read: better-sqlite3 is not installed or not built (HOOKPOLICY_NO_SQLITE=1); records are still kept in the journal (failing closed)');
      expect(unbuilt.stderr).toContain('npm install-scripts approve better-sqlite3');
      expect(p.run(publish).stdout).toBe('');
      p.run(failed);
      p.run(failed);
      const counted = p.run(publish);
      expect([permission(counted), (counted.json as { hookSpecificOutput: { permissionDecisionReason: string } }).hookSpecificOutput.permissionDecisionReason])
        .toEqual(['deny', '3 test runs failed in this session: fix them before you publish']);
    } finally {
      p.remove();
    }
  });

  it('on_error: open: the call goes through, and the error is shown', () => {
    const p = makeProject(guard('open'));
    try {
      p.run(failed);
      withPlantedStore(p, () => {
        const through = p.run(publish);
        expect([through.exitCode, permission(through)]).toEqual([0, undefined]);
        expect(through.stderr).toMatch(FACT_ERROR);
        expect(through.stderr).toContain('(failing open)');
        expect((through.json as { systemMessage: string }).systemMessage).toMatch(FACT_ERROR);
      });
    } finally {
      p.remove();
    }
  });
});
