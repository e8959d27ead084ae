/**
 * The dia pack end to end: L1/L2 notes before TeammateIdle and TaskCompleted, and the
 * global-context version injected at SubagentStart.
 */
import { loadEvent, makeProject, packMessage, TempProject } from '../../support/run-hook';

const POLICY = 'version: 1\ninclude: [dia]\n';
const TEAM = 'session-5f3a9c1e';
const TEAM_DIR = `.agent/teams/${TEAM}`;
const bytes = (n: number): string => 'x'.repeat(n);

describe('dia: L1/L2 notes before going idle or completing a task', () => {
  let project: TempProject;
  beforeAll(() => {
    project = makeProject(POLICY, {
      // Nested one level deeper: the notes are searched recursively below the team folder.
      [`${TEAM_DIR}/phase-2/researcher-1/L1-index.yaml`]: bytes(60),
      [`${TEAM_DIR}/phase-2/researcher-1/L2-summary.md`]: bytes(150),
      [`${TEAM_DIR}/implementer-1/L1-index.yaml`]: bytes(60),
      [`${TEAM_DIR}/implementer-1/L2-summary.md`]: bytes(40),
      // Exactly at the minimum sizes.
      [`${TEAM_DIR}/edge-ok/L1-index.yaml`]: bytes(50),
      [`${TEAM_DIR}/edge-ok/L2-summary.md`]: bytes(100),
      // One byte short of each.
      [`${TEAM_DIR}/edge-short/L1-index.yaml`]: bytes(49),
      [`${TEAM_DIR}/edge-short/L2-summary.md`]: bytes(99),
      // The notes of another teammate's folder do not count.
      [`${TEAM_DIR}/researcher-10/L1-index.yaml`]: bytes(60),
      [`${TEAM_DIR}/researcher-10/L2-summary.md`]: bytes(150),
      // Names with glob characters are names: their own notes count, nobody else's.
      [`${TEAM_DIR}/tester(1)/L1-index.yaml`]: bytes(60),
      [`${TEAM_DIR}/tester(1)/L2-summary.md`]: bytes(150),
      // The same teammate in another team does not count either.
      ['.agent/teams/session-0b7d2e44/tester-1/L1-index.yaml']: bytes(60),
      ['.agent/teams/session-0b7d2e44/tester-1/L2-summary.md']: bytes(150),
    });
  });
  afterAll(() => project.remove());

  const l1Missing = `L1-index.yaml missing under ${TEAM_DIR} (needs >= 50 bytes)`;
  const l2Missing = `L2-summary.md missing under ${TEAM_DIR} (needs >= 100 bytes)`;

  interface Row {
    name: string;
    fixture: string;
    set?: Record<string, unknown>;
    drop?: string[];
    /** The {{unmet}} text of a block, or null for no opinion. */
    unmet: string | null;
  }

  const rows: Row[] = [
    { name: 'TeammateIdle, notes complete (nested folder)', fixture: 'teammate-idle-complete', unmet: null },
    { name: 'TeammateIdle, notes exactly at the minimum sizes', fixture: 'teammate-idle-complete', set: { teammate_name: 'edge-ok' }, unmet: null },
    { name: 'TeammateIdle, L2 too short', fixture: 'teammate-idle-short-l2', unmet: `${TEAM_DIR}/implementer-1/L2-summary.md is 40 bytes (needs >= 100)` },
    {
      name: 'TeammateIdle, both one byte short',
      fixture: 'teammate-idle-complete',
      set: { teammate_name: 'edge-short' },
      unmet: `${TEAM_DIR}/edge-short/L1-index.yaml is 49 bytes (needs >= 50); ${TEAM_DIR}/edge-short/L2-summary.md is 99 bytes (needs >= 100)`,
    },
    { name: 'TeammateIdle, no folder for the teammate', fixture: 'teammate-idle-complete', set: { teammate_name: 'tester-1' }, unmet: `${l1Missing}; ${l2Missing}` },
    { name: 'TeammateIdle, name is a prefix of another folder', fixture: 'teammate-idle-complete', set: { teammate_name: 'researcher' }, unmet: `${l1Missing}; ${l2Missing}` },
    { name: 'TeammateIdle, no team_name', fixture: 'teammate-idle-no-team', unmet: null },
    { name: 'TeammateIdle, empty team_name', fixture: 'teammate-idle-complete', set: { team_name: '', teammate_name: 'tester-1' }, unmet: null },
    { name: 'TeammateIdle, no teammate_name', fixture: 'teammate-idle-complete', drop: ['teammate_name'], unmet: null },
    { name: 'TeammateIdle, team folder absent', fixture: 'teammate-idle-unknown-team', unmet: null },
    { name: 'TeammateIdle, tester(1) with its notes (a name, not a glob group)', fixture: 'teammate-idle-complete', set: { teammate_name: 'tester(1)' }, unmet: null },
    { name: 'TeammateIdle, * does not pass on everyone\'s notes', fixture: 'teammate-idle-complete', set: { teammate_name: '*' }, unmet: `${l1Missing}; ${l2Missing}` },
    { name: 'TeammateIdle, researcher-? does not pass on researcher-1\'s notes', fixture: 'teammate-idle-complete', set: { teammate_name: 'researcher-?' }, unmet: `${l1Missing}; ${l2Missing}` },
    { name: 'TeammateIdle, {researcher-1,x} does not pass on researcher-1\'s notes', fixture: 'teammate-idle-complete', set: { teammate_name: '{researcher-1,x}' }, unmet: `${l1Missing}; ${l2Missing}` },
    { name: 'TaskCompleted, notes missing', fixture: 'task-completed-missing', unmet: `${l1Missing}; ${l2Missing}` },
    { name: 'TaskCompleted, L2 too short', fixture: 'task-completed-missing', set: { teammate_name: 'implementer-1' }, unmet: `${TEAM_DIR}/implementer-1/L2-summary.md is 40 bytes (needs >= 100)` },
    { name: 'TaskCompleted, notes complete', fixture: 'task-completed-missing', set: { teammate_name: 'researcher-1' }, unmet: null },
    { name: 'TaskCompleted by the lead (no teammate_name)', fixture: 'task-completed-missing', drop: ['teammate_name'], unmet: null },
    { name: 'TaskCompleted outside a team (no team_name)', fixture: 'task-completed-missing', drop: ['team_name'], unmet: null },
  ];

  test.each(rows)('$name', (row) => {
    const event = loadEvent('dia', row.fixture, project.dir, row.set);
    for (const key of row.drop ?? []) delete event[key];
    const result = project.run(event);

    expect(result.stdout).toBe('');
    if (row.unmet === null) {
      expect(result.exitCode).toBe(0);
      expect(result.stderr).toBe('');
      return;
    }
    const idle = event.hook_event_name === 'TeammateIdle';
    const message = packMessage('dia', idle ? 'dia-l1-l2-before-idle' : 'dia-l1-l2-before-task-completed', {
      teammate_name: String(event.teammate_name),
      team_name: TEAM,
      unmet: row.unmet,
      task_subject: String(event.task_subject ?? ''),
    });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toBe(`${message}\n`);
    // What the teammate must be told: who, which files, their minimum sizes, and where.
    expect(result.stderr).toContain(String(event.teammate_name));
    expect(result.stderr).toMatch(/L1-index\.yaml \(at least 50 bytes\)/);
    expect(result.stderr).toMatch(/L2-summary\.md \(at least 100 bytes\)/);
    expect(result.stderr).toContain(`${TEAM_DIR}/`);
    if (!idle) expect(result.stderr).toContain(`'${String(event.task_subject)}'`);
  });
});

describe('dia: global-context version at SubagentStart', () => {
  const HOUR = 3600 * 1000;
  const gc = (version: string): string => `# Global context\nteam: shop\nversion: ${version}\n\n## Scope\n...\n`;

  test('names the team and version of the newest global-context.md, and follows the newest', () => {
    const now = Date.now();
    const project = makeProject(POLICY);
    try {
      project.write('.agent/teams/session-0b7d2e44/global-context.md', gc('GC-v3'), now - 2 * HOUR);
      project.write(`${TEAM_DIR}/global-context.md`, gc('GC-v5'), now - HOUR);
      const event = loadEvent('dia', 'subagent-start', project.dir);

      const first = project.run(event);
      expect(first.exitCode).toBe(0);
      expect(first.stderr).toBe('');
      expect(first.json).toEqual({
        hookSpecificOutput: {
          hookEventName: 'SubagentStart',
          additionalContext: packMessage('dia', 'dia-global-context-version', {
            'gc.dir': TEAM,
            gc: 'GC-v5',
            'gc.path': `${TEAM_DIR}/global-context.md`,
          }),
        },
      });
      expect((first.json as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput.additionalContext)
        .toContain(`Active team: ${TEAM}. Current global context: GC-v5`);

      // The other team's file becomes the newest.
      project.write('.agent/teams/session-0b7d2e44/global-context.md', gc('GC-v4'), now);
      const second = project.run(event);
      expect(second.exitCode).toBe(0);
      expect((second.json as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput.additionalContext)
        .toContain('Active team: session-0b7d2e44. Current global context: GC-v4');
    } finally {
      project.remove();
    }
  });

  test('no global-context.md: no output, exit 0', () => {
    const project = makeProject(POLICY, { [`${TEAM_DIR}/researcher-1/L1-index.yaml`]: bytes(60) });
    try {
      const result = project.run(loadEvent('dia', 'subagent-start', project.dir));
      expect(result).toMatchObject({ stdout: '', stderr: '', exitCode: 0 });
    } finally {
      project.remove();
    }
  });

  test('a global-context.md without a version: line: no output, exit 0', () => {
    const project = makeProject(POLICY, { [`${TEAM_DIR}/global-context.md`]: '# Global context\nteam: shop\n' });
    try {
      const result = project.run(loadEvent('dia', 'subagent-start', project.dir));
      expect(result).toMatchObject({ stdout: '', stderr: '', exitCode: 0 });
    } finally {
      project.remove();
    }
  });
});

describe('dia: the global-context delta, through a real memory store', () => {
  test('the second spawn of an agent is told what changed since its first; another agent is not', () => {
    const project = makeProject(POLICY, { [`${TEAM_DIR}/global-context.md`]: 'version: GC-v1\n\n## Scope\nLDAP login\n\n## Risks\nnone yet\n' });
    const spawn = (agent: string) => project.run({ ...loadEvent('dia', 'subagent-start', project.dir), session_id: 's-delta', agent_type: agent, agent_id: `${agent}-1` });
    const context = (run: ReturnType<typeof spawn>) => (run.json as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput.additionalContext;
    try {
      const first = spawn('researcher');
      expect(first.exitCode).toBe(0);
      expect(context(first)).not.toContain('[CONTEXT-UPDATE]');
      project.write(`${TEAM_DIR}/global-context.md`, 'version: GC-v2\n\n## Scope\nLDAP login and logout\n\n## API\nPOST /login\n', Date.now() + 1000);
      const second = spawn('researcher');
      expect(second.exitCode).toBe(0);
      expect(context(second)).toContain('Current global context: GC-v2');
      expect(context(second)).toContain(
        `[CONTEXT-UPDATE] ${TEAM_DIR}/global-context.md changed since you last saw it (GC-v1). Delta:\n- CHANGED: (top)\n  version: GC-v2\n- CHANGED: Scope\n  LDAP login and logout\n- ADDED: API\n  POST /login\n- REMOVED: Risks`,
      );
      // Seen now: the same version again gives no delta; an agent never spawned before gets none either.
      expect(context(spawn('researcher'))).not.toContain('[CONTEXT-UPDATE]');
      expect(context(spawn('implementer'))).not.toContain('[CONTEXT-UPDATE]');
    } finally {
      project.remove();
    }
  });
});
