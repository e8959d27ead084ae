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
    // Seed 000's own wording: who, which files, their minimum sizes (idle), and where; the task by its subject.
    const who = String(event.teammate_name);
    expect(result.stderr).toBe(idle
      ? `L1/L2 output files not found or too small for ${who}.\nWrite L1-index.yaml (≥50 bytes) and L2-summary.md (≥100 bytes) before going idle.\nYour output directory should be under ${TEAM_DIR}/.\n`
      : `Cannot complete task '${String(event.task_subject)}': L1/L2 output files not found for ${who}.\nWrite L1-index.yaml and L2-summary.md before marking task as completed.\n`);
  });
});

describe('dia: the active team and its global-context version at SubagentStart', () => {
  const HOUR = 3600 * 1000;
  const gc = (version: string): string => `# Global context\nteam: shop\nversion: ${version}\n\n## Scope\n...\n`;
  const context = (run: { json: unknown }) => (run.json as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput.additionalContext;

  test('the active team is the newest ~/.claude/teams/*/config.json; its version, in seed 000\'s words', () => {
    const now = Date.now();
    const project = makeProject(POLICY);
    try {
      const home = project.file('home');
      project.write(`home/.claude/teams/session-0b7d2e44/config.json`, '{}', now - 2 * HOUR);
      project.write(`home/.claude/teams/${TEAM}/config.json`, '{}', now - HOUR);
      // The other team's global context is the newest file: it is not the active team's.
      project.write(`${TEAM_DIR}/global-context.md`, gc('GC-v5'), now - 3 * HOUR);
      project.write('.agent/teams/session-0b7d2e44/global-context.md', gc('GC-v4'), now);
      const event = loadEvent('dia', 'subagent-start', project.dir);
      const first = project.run(event, { env: { HOME: home } });
      expect(first.exitCode).toBe(0);
      expect(first.stderr).toBe('');
      expect(context(first).split('\n')[0]).toBe(`[DIA-HOOK] Active team: ${TEAM}. Current GC: GC-v5. Verify your injected context version matches.`);
      // The other team's config becomes the newest: it is the active team now.
      project.write('home/.claude/teams/session-0b7d2e44/config.json', '{}', now);
      expect(context(project.run(event, { env: { HOME: home } })).split('\n')[0]).toBe('[DIA-HOOK] Active team: session-0b7d2e44. Current GC: GC-v4. Verify your injected context version matches.');
    } finally {
      project.remove();
    }
  });

  test('no active team: nothing injected, not even an old session\'s global context', () => {
    const project = makeProject(POLICY, { [`${TEAM_DIR}/global-context.md`]: gc('GC-v3') });
    try {
      const result = project.run(loadEvent('dia', 'subagent-start', project.dir), { env: { HOME: project.file('home') } });
      expect(result).toMatchObject({ stdout: '', stderr: '', exitCode: 0 });
    } finally {
      project.remove();
    }
  });

  test('an active team with a global-context.md without a version: line: no output, exit 0', () => {
    const project = makeProject(POLICY, { 'home/.claude/teams/t1/config.json': '{}', '.agent/teams/t1/global-context.md': '# Global context\nteam: shop\n' });
    try {
      const result = project.run(loadEvent('dia', 'subagent-start', project.dir), { env: { HOME: project.file('home') } });
      expect(result).toMatchObject({ stdout: '', stderr: '', exitCode: 0 });
    } finally {
      project.remove();
    }
  });
});

describe('dia: the global-context delta, through a real memory store', () => {
  const context = (run: { json: unknown }) => (run.json as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput.additionalContext;
  test('a first spawn gets the whole context, the next one what changed (old → new), another agent the whole context', () => {
    const project = makeProject(POLICY, {
      'home/.claude/teams/t1/config.json': '{}',
      '.agent/teams/t1/global-context.md': 'version: GC-v1\n\n## Auth\nprovider: ldap\n\n## Scope\nLDAP login\n\n## Risks\nnone yet\n\n## Team\nlead: hannibal\n',
    });
    const home = project.file('home');
    const spawn = (agent: string) => project.run({ ...loadEvent('dia', 'subagent-start', project.dir), session_id: 's-delta', agent_type: agent, agent_id: `${agent}-1` }, { env: { HOME: home } });
    try {
      const first = context(spawn('researcher'));
      expect(first).toContain('[CONTEXT-UPDATE] GC-v1 (full context)\nversion: GC-v1');
      project.write('.agent/teams/t1/global-context.md', 'version: GC-v2\n\n## Auth\nprovider: oidc\n\n## Scope\nLDAP login\n\n## Risks\nnone yet\n\n## Team\nlead: hannibal\n', Date.now() + 1000);
      const second = context(spawn('researcher'));
      expect(second).toContain('Current GC: GC-v2');
      expect(second).toContain('[CONTEXT-UPDATE] GC-v1 → GC-v2\nDelta:\n- CHANGED: (top).version: GC-v1 → GC-v2\n- CHANGED: Auth.provider: ldap → oidc');
      // Seen now: the same version again gives no delta; an agent never spawned before gets the whole context.
      expect(context(spawn('researcher'))).not.toContain('[CONTEXT-UPDATE]');
      expect(context(spawn('implementer'))).toContain('[CONTEXT-UPDATE] GC-v2 (full context)');
    } finally {
      project.remove();
    }
  });
});
