/**
 * The ai-team pack end to end: the built runner, spawned as Claude Code spawns it, against a
 * temp project whose .claude/policies.yaml includes the pack.
 */
import { loadEvent, makeProject, packMessage, TempProject } from '../../support/run-hook';

const LOG = '.claude/policy-decisions.jsonl';

/** One event and what the runner must answer: a denial by one rule, or no opinion (null). */
interface Row {
  name: string;
  /** A fixture under fixtures/events/ai-team/. */
  fixture: string;
  /** Fields replacing the fixture's; `tool_input` replaces the whole input. Values may use <root>. */
  set?: Record<string, unknown>;
  /** Fixture fields to drop (e.g. agent_type to fall back on teammate_name). */
  drop?: string[];
  deny: { rule: string; agent: string; path?: string } | null;
}

const rows: Row[] = [
  // lynch: reviewer, writes nothing
  { name: 'lynch (native) Write', fixture: 'lynch-write-code', deny: { rule: 'ateam-reviewer-writes-nothing', agent: 'lynch', path: 'lib/env.ts' } },
  { name: 'ai-team:lynch (legacy) Edit', fixture: 'lynch-legacy-edit', deny: { rule: 'ateam-reviewer-writes-nothing', agent: 'lynch', path: 'lib/env.ts' } },
  { name: 'lynch NotebookEdit (notebook_path)', fixture: 'lynch-notebook-edit', deny: { rule: 'ateam-reviewer-writes-nothing', agent: 'lynch', path: 'notebooks/analysis.ipynb' } },
  { name: 'lynch Write outside the project', fixture: 'lynch-write-code', set: { tool_input: { file_path: '/tmp/review.md', content: 'x' } }, deny: { rule: 'ateam-reviewer-writes-nothing', agent: 'lynch', path: '/tmp/review.md' } },
  { name: 'lynch Read', fixture: 'lynch-read', deny: null },
  { name: 'lynch as teammate_name only', fixture: 'lynch-write-code', drop: ['agent_type', 'agent_id'], set: { teammate_name: 'lynch', team_name: 'session-5f3a9c1e' }, deny: { rule: 'ateam-reviewer-writes-nothing', agent: 'lynch', path: 'lib/env.ts' } },
  // sosa
  { name: 'ai-team:sosa MultiEdit', fixture: 'sosa-multiedit', deny: { rule: 'ateam-sosa-writes-nothing', agent: 'sosa', path: 'src/cart.ts' } },
  { name: 'sosa Write', fixture: 'ba-write-impl', set: { agent_type: 'sosa' }, deny: { rule: 'ateam-sosa-writes-nothing', agent: 'sosa', path: 'src/cart.ts' } },
  // amy: no project writes
  { name: 'amy Edit of a project test file', fixture: 'amy-edit-test', deny: { rule: 'ateam-investigator-no-project-writes', agent: 'amy', path: '__tests__/middleware.test.ts' } },
  { name: 'amy Write of a project dotfile', fixture: 'ba-write-impl', set: { agent_type: 'amy', tool_input: { file_path: '<root>/.env.example', content: 'A=1\n' } }, deny: { rule: 'ateam-investigator-no-project-writes', agent: 'amy', path: '.env.example' } },
  { name: 'amy Write outside the project', fixture: 'amy-write-outside-project', deny: null },
  // murdock: tests only
  { name: 'murdock (native) Write of src/cart.test.ts', fixture: 'murdock-write-test', deny: null },
  { name: 'murdock Write of tests/e2e/checkout.ts', fixture: 'murdock-write-tests-dir', deny: null },
  { name: 'murdock Write of a .spec. file', fixture: 'murdock-write-test', set: { tool_input: { file_path: '<root>/src/cart.spec.tsx', content: 'x' } }, deny: null },
  { name: 'murdock Write under __tests__/', fixture: 'murdock-write-test', set: { tool_input: { file_path: '<root>/src/__tests__/cart.ts', content: 'x' } }, deny: null },
  { name: 'murdock Write under a nested test/', fixture: 'murdock-write-test', set: { tool_input: { file_path: '<root>/packages/api/test/helpers.ts', content: 'x' } }, deny: null },
  { name: 'ai-team:murdock (legacy) Write of src/cart.ts', fixture: 'murdock-legacy-write-impl', deny: { rule: 'ateam-tester-writes-tests-only', agent: 'murdock', path: 'src/cart.ts' } },
  { name: 'murdock (teammate_name fallback) Edit of src/cart.ts', fixture: 'murdock-teammate-write-impl', deny: { rule: 'ateam-tester-writes-tests-only', agent: 'murdock', path: 'src/cart.ts' } },
  { name: 'murdock NotebookEdit of a notebook', fixture: 'murdock-notebook-edit', deny: { rule: 'ateam-tester-writes-tests-only', agent: 'murdock', path: 'notebooks/analysis.ipynb' } },
  { name: 'murdock relative path resolved against cwd', fixture: 'murdock-write-test', set: { cwd: '<root>/src', tool_input: { file_path: 'cart.ts', content: 'x' } }, deny: { rule: 'ateam-tester-writes-tests-only', agent: 'murdock', path: 'src/cart.ts' } },
  { name: 'murdock Write outside the project', fixture: 'murdock-write-test', set: { tool_input: { file_path: '/tmp/cart.test.ts', content: 'x' } }, deny: { rule: 'ateam-tester-writes-tests-only', agent: 'murdock', path: '/tmp/cart.test.ts' } },
  // ba: no tests
  { name: 'ba Write of src/cart.ts', fixture: 'ba-write-impl', deny: null },
  { name: 'ai-team:ba Edit of src/cart.spec.ts', fixture: 'ba-edit-spec', deny: { rule: 'ateam-implementer-no-test-writes', agent: 'ba', path: 'src/cart.spec.ts' } },
  { name: 'ba Write under tests/', fixture: 'ba-write-impl', set: { tool_input: { file_path: '<root>/tests/e2e/checkout.ts', content: 'x' } }, deny: { rule: 'ateam-implementer-no-test-writes', agent: 'ba', path: 'tests/e2e/checkout.ts' } },
  // hannibal: the main session
  { name: 'hannibal Write of mission/PRD-0008.md', fixture: 'hannibal-write-mission', deny: null },
  { name: 'hannibal Write of briefings/b1.md', fixture: 'hannibal-write-mission', set: { tool_input: { file_path: '<root>/briefings/b1.md', content: 'x' } }, deny: null },
  { name: 'hannibal Write of ateam.config.json', fixture: 'hannibal-write-config', deny: null },
  { name: 'hannibal Edit of .env.example', fixture: 'hannibal-edit-env-example', deny: { rule: 'ateam-orchestrator-mission-files-only', agent: 'hannibal', path: '.env.example' } },
  { name: 'hannibal Write of src/app.ts', fixture: 'hannibal-write-mission', set: { tool_input: { file_path: '<root>/src/app.ts', content: 'x' } }, deny: { rule: 'ateam-orchestrator-mission-files-only', agent: 'hannibal', path: 'src/app.ts' } },
  { name: 'hannibal Read of src/app.ts', fixture: 'lynch-read', drop: ['agent_type', 'agent_id'], deny: null },
  // board tools
  { name: 'ba board_claim', fixture: 'ba-board-claim', deny: { rule: 'ateam-workers-no-board-claim', agent: 'ba' } },
  { name: 'amy board_move', fixture: 'amy-board-move', deny: { rule: 'ateam-workers-no-board-claim', agent: 'amy' } },
  { name: 'ai-team:murdock board_claim', fixture: 'ba-board-claim', set: { agent_type: 'ai-team:murdock' }, deny: { rule: 'ateam-workers-no-board-claim', agent: 'murdock' } },
  { name: 'lynch board_move', fixture: 'amy-board-move', set: { agent_type: 'lynch' }, deny: { rule: 'ateam-workers-no-board-claim', agent: 'lynch' } },
  { name: 'hannibal board_move', fixture: 'hannibal-board-move', deny: null },
  { name: 'sosa board_claim (not a worker)', fixture: 'ba-board-claim', set: { agent_type: 'sosa' }, deny: null },
  { name: 'ba agent_start', fixture: 'ba-board-claim', set: { tool_name: 'mcp__plugin_ai-team_ateam__agent_start' }, deny: null },
  // playwright
  { name: 'lynch mcp__playwright__browser_navigate', fixture: 'lynch-playwright', deny: { rule: 'ateam-reviewer-no-browser', agent: 'lynch' } },
  { name: 'ai-team:lynch mcp__playwright__browser_click', fixture: 'lynch-playwright', set: { agent_type: 'ai-team:lynch', tool_name: 'mcp__playwright__browser_click', tool_input: { element: 'Checkout', ref: 'e12' } }, deny: { rule: 'ateam-reviewer-no-browser', agent: 'lynch' } },
  { name: 'murdock mcp__playwright__browser_navigate', fixture: 'lynch-playwright', set: { agent_type: 'murdock' }, deny: null },
  // agents the pack does not know
  { name: 'Explore Write', fixture: 'explore-write', deny: null },
  { name: 'Plan Edit of src/cart.ts', fixture: 'murdock-teammate-write-impl', drop: ['teammate_name', 'team_name'], set: { agent_type: 'Plan' }, deny: null },
  { name: 'general-purpose Write of a test file', fixture: 'ba-edit-spec', set: { agent_type: 'general-purpose' }, deny: null },
  { name: 'ai-team:unknown-agent Write', fixture: 'ba-write-impl', set: { agent_type: 'ai-team:face' }, deny: null },
];

function eventFor(row: Row, project: TempProject): Record<string, unknown> {
  const set = JSON.parse(JSON.stringify(row.set ?? {}).split('<root>').join(project.dir)) as Record<string, unknown>;
  const event = loadEvent('ai-team', row.fixture, project.dir, set);
  for (const key of row.drop ?? []) delete event[key];
  return event;
}

function denyMessage(row: Row, event: Record<string, unknown>): string {
  return packMessage('ai-team', row.deny!.rule, {
    agent: row.deny!.agent,
    path: row.deny!.path ?? '',
    tool: String(event.tool_name),
  });
}

describe('ai-team pack', () => {
  let project: TempProject;
  beforeAll(() => {
    project = makeProject('version: 1\ninclude: [ai-team]\n');
  });
  afterAll(() => project.remove());

  test.each(rows)('$name', (row) => {
    const event = eventFor(row, project);
    const before = project.readJsonl(LOG).length;
    const result = project.run(event);

    expect(result.exitCode).toBe(0);
    expect(result.stderr).toBe('');
    const log = project.readJsonl(LOG).slice(before);
    if (row.deny === null) {
      expect(result.stdout).toBe('');
      expect(log).toEqual([]);
      return;
    }
    const reason = denyMessage(row, event);
    if (row.deny.path) expect(reason).toContain(row.deny.path);
    expect(result.json).toEqual({
      hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: reason },
    });
    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({
      event: 'PreToolUse',
      tool: event.tool_name,
      agent: row.deny.agent,
      outcome: 'deny',
      rules: [row.deny.rule],
      reason,
      session_id: event.session_id,
    });
  });
});

describe('ai-team bypass (ATEAM_ENFORCEMENT)', () => {
  let project: TempProject;
  beforeAll(() => {
    project = makeProject('version: 1\ninclude: [ai-team]\n');
  });
  afterAll(() => project.remove());

  test.each([
    ['lynch-write-code'],
    ['hannibal-edit-env-example'],
    ['ba-board-claim'],
  ])('ATEAM_ENFORCEMENT=off: %s gets no opinion and the bypass is logged', (fixture) => {
    const event = loadEvent('ai-team', fixture, project.dir);
    const before = project.readJsonl(LOG).length;
    const result = project.run(event, { env: { ATEAM_ENFORCEMENT: 'off' } });
    expect(result).toMatchObject({ stdout: '', exitCode: 0 });
    const log = project.readJsonl(LOG).slice(before);
    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({
      event: 'PreToolUse',
      tool: event.tool_name,
      outcome: 'none',
      bypass: { env: 'ATEAM_ENFORCEMENT', value: 'off' },
    });
  });

  test.each([['on'], ['0'], ['false'], ['OFF'], ['']])('ATEAM_ENFORCEMENT=%p does not bypass', (value) => {
    const event = loadEvent('ai-team', 'lynch-write-code', project.dir);
    const result = project.run(event, { env: { ATEAM_ENFORCEMENT: value } });
    expect(result.exitCode).toBe(0);
    expect(result.json).toMatchObject({ hookSpecificOutput: { permissionDecision: 'deny' } });
  });
});

describe('ai-team extended by the project', () => {
  test('a rule after the include adds to the pack; the pack still decides first', () => {
    const project = makeProject(
      [
        'version: 1',
        'include: [ai-team]',
        'rules:',
        '  - id: ba-no-migrations',
        '    on: PreToolUse',
        '    tools: Write|Edit',
        '    agents: ba',
        '    paths: { deny: ["db/migrations/**"] }',
        '    deny: "ba may not edit {{path}}; ask Hannibal for a migration."',
        '',
      ].join('\n'),
    );
    try {
      const event = loadEvent('ai-team', 'ba-write-impl', project.dir, {
        tool_input: { file_path: `${project.dir}/db/migrations/001.sql`, content: 'x' },
      });
      const result = project.run(event);
      expect(result.json).toEqual({
        hookSpecificOutput: {
          hookEventName: 'PreToolUse',
          permissionDecision: 'deny',
          permissionDecisionReason: 'ba may not edit db/migrations/001.sql; ask Hannibal for a migration.',
        },
      });
      // The pack's own rules still apply next to the project's.
      const lynch = project.run(loadEvent('ai-team', 'lynch-write-code', project.dir));
      expect(lynch.json).toMatchObject({ hookSpecificOutput: { permissionDecision: 'deny' } });
    } finally {
      project.remove();
    }
  });

  test('roles in the project are merged with the pack: a second reviewer gets the reviewer rules', () => {
    const project = makeProject('version: 1\ninclude: [ai-team]\nagents:\n  roles: { reviewer: [decker] }\n');
    try {
      const decker = project.run(loadEvent('ai-team', 'lynch-write-code', project.dir, { agent_type: 'ai-team:decker' }));
      expect(decker.json).toEqual({
        hookSpecificOutput: {
          hookEventName: 'PreToolUse',
          permissionDecision: 'deny',
          permissionDecisionReason: packMessage('ai-team', 'ateam-reviewer-writes-nothing', { agent: 'decker', path: 'lib/env.ts' }),
        },
      });
      const lynch = project.run(loadEvent('ai-team', 'lynch-write-code', project.dir));
      expect(lynch.json).toMatchObject({ hookSpecificOutput: { permissionDecision: 'deny' } });
    } finally {
      project.remove();
    }
  });

  test('main renamed by the project: the new main session is the orchestrator once it joins the role', () => {
    const project = makeProject('version: 1\ninclude: [ai-team]\nagents:\n  main: lead\n  roles: { orchestrator: [lead] }\n');
    try {
      const event = loadEvent('ai-team', 'hannibal-edit-env-example', project.dir);
      expect(project.run(event).json).toEqual({
        hookSpecificOutput: {
          hookEventName: 'PreToolUse',
          permissionDecision: 'deny',
          permissionDecisionReason: packMessage('ai-team', 'ateam-orchestrator-mission-files-only', { agent: 'lead', path: '.env.example' }),
        },
      });
    } finally {
      project.remove();
    }
  });
});
