/**
 * The memory and metrics packs in the real client: a first session's Write, Bash and the
 * metrics of each are recorded through the hooks Claude Code runs; the next session starts
 * with the first one's summary in the model's context, and a typed prompt about the same
 * work shows the user a notice of related memory that the model is not given. A subagent
 * spawned again is told what changed in the global context since its first spawn (dia).
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { POLICY_BIN } from '../support/run-hook';
import { runClient } from './client';
import { userSightings } from './observe';
import { makeClientProject, type ClientProject } from './project';
import { readPayloads, unknownFields } from './payloads';
import { say, tools } from './scenario';
import { describeRealClient, SESSION_TIMEOUT_MS } from './suite';
import { modelSaw, requestsOf, requestText } from './transcript';

const POLICY = 'version: 1\ninclude: [memory, metrics]\n';

interface StoredRecord {
  kind: string;
  text: string;
  session: string | null;
  event: string;
}

function stored(project: ClientProject, ...args: string[]): StoredRecord[] {
  const run = spawnSync(process.execPath, [POLICY_BIN, 'memory', 'list', '--json', '--limit', '200', ...args], {
    cwd: project.projectDir, encoding: 'utf8', env: { PATH: process.env.PATH ?? '', CLAUDE_PROJECT_DIR: project.projectDir },
  });
  expect(run.stderr).toBe('');
  return JSON.parse(run.stdout) as StoredRecord[];
}

describeRealClient('memory across sessions and spawns', () => {
  it('records the first session and reminds the second one', () => {
    const project = makeClientProject({ policy: POLICY });
    expect(project.exists('.claude/commands/mem-search.md')).toBe(true);

    const first = runClient({
      projectDir: project.projectDir,
      homeDir: project.homeDir,
      prompt: 'Write the JWT middleware.',
      scenario: {
        main: [
          tools({ name: 'Write', input: { file_path: path.join(project.projectDir, 'src/auth/jwt.ts'), content: 'export const jwt = 1;\n' } }),
          tools({ name: 'Bash', input: { command: 'echo middleware-built', description: 'build' } }),
          say('done'),
        ],
      },
    });
    expect(first.exitCode).toBe(0);
    expect(unknownFields(readPayloads(project.payloadDir))).toEqual([]);
    const firstSession = readPayloads(project.payloadDir).find((p) => p.hook_event_name === 'SessionStart')?.session_id as string;
    const records = stored(project, '--session', firstSession);
    expect(records.filter((r) => r.kind === 'file-change').map((r) => r.text)).toEqual(['Write src/auth/jwt.ts']);
    expect(records.filter((r) => r.kind === 'command').map((r) => r.text)).toEqual(['$ echo middleware-built\nmiddleware-built']);
    expect(records.filter((r) => r.kind === 'metric').length).toBe(2);
    // Under -p Claude Code may end without SessionEnd; the summary comes from it when it fires.
    expect(records.filter((r) => r.kind === 'summary').map((r) => r.event)).toEqual(
      readPayloads(project.payloadDir).some((p) => p.hook_event_name === 'SessionEnd') ? ['SessionEnd'] : [],
    );
    if (!records.some((r) => r.kind === 'summary')) {
      // The summary SessionEnd would have stored, by the same runner Claude Code runs.
      const end = spawnSync(process.execPath, [POLICY_BIN, 'hook'], {
        cwd: project.projectDir,
        input: JSON.stringify({ hook_event_name: 'SessionEnd', session_id: firstSession, cwd: project.projectDir, transcript_path: '', reason: 'other' }),
        encoding: 'utf8',
        env: { PATH: process.env.PATH ?? '', CLAUDE_PROJECT_DIR: project.projectDir },
      });
      expect({ status: end.status, stdout: end.stdout }).toEqual({ status: 0, stdout: '' });
    }

    const second = runClient({
      projectDir: project.projectDir,
      homeDir: project.homeDir,
      prompt: 'The JWT middleware needs an expiry check.',
      scenario: { main: [say('noted')] },
    });
    expect(second.exitCode).toBe(0);
    expect(modelSaw(second.requests, '📝 이전 세션 컨텍스트:')).toBe(true);
    expect(modelSaw(second.requests, 'src/auth/jwt.ts')).toBe(true);
    // The notice is the user's: shown in the stream, never in what the model read.
    expect(userSightings(second.messages, '관련 메모리 발견').length).toBeGreaterThan(0);
    expect(modelSaw(second.requests, '관련 메모리 발견')).toBe(false);
  }, 2 * SESSION_TIMEOUT_MS);

  it('dia: a subagent is told the active team and the whole context first, what changed when spawned again', () => {
    const gc = (version: string, scope: string) => `version: ${version}\n\n## Scope\n${scope}\n\n## Team\nlead: main\n\n## Risks\nnone yet\n\n## API\nPOST /login\n`;
    const project = makeClientProject({
      policy: 'version: 1\ninclude: [dia]\n',
      files: {
        '.claude/agents/researcher.md': '---\nname: researcher\ndescription: Researches.\ntools: Read\n---\nYou research.\n',
        '.agent/teams/t1/global-context.md': gc('GC-v1', 'LDAP login'),
      },
    });
    // The active team (seed 000): the newest ~/.claude/teams/*/config.json.
    fs.mkdirSync(path.join(project.homeDir, '.claude', 'teams', 't1'), { recursive: true });
    fs.writeFileSync(path.join(project.homeDir, '.claude', 'teams', 't1', 'config.json'), '{"name":"t1"}');
    const spawn = (marker: string) => tools({ name: 'Agent', input: { description: 'research', prompt: `${marker}: look around`, subagent_type: 'researcher' } });
    const session = runClient({
      projectDir: project.projectDir,
      homeDir: project.homeDir,
      prompt: 'Research twice.',
      scenario: {
        // The subagents run in the background: the global context changes only once the
        // first one has finished (its notification starts the main session's next turn).
        main: [
          spawn('SUBAGENT-R1'),
          say('Waiting for the first.'),
          tools({ name: 'Write', input: { file_path: path.join(project.projectDir, '.agent/teams/t1/global-context.md'), content: gc('GC-v2', 'LDAP login and logout') } }),
          spawn('SUBAGENT-R2'),
          say('Waiting for the second.'),
          say('Both finished.'),
        ],
        subagents: [
          { marker: 'SUBAGENT-R1', turns: [say('Looked.')] },
          { marker: 'SUBAGENT-R2', turns: [say('Looked again.')] },
        ],
      },
    });
    expect(session.exitCode).toBe(0);
    const seenBy = (marker: string) => requestsOf(session.requests, marker).map(requestText).join('\n');
    expect(seenBy('SUBAGENT-R1')).toContain('[DIA-HOOK] Active team: t1. Current GC: GC-v1. Verify your injected context version matches.');
    expect(seenBy('SUBAGENT-R1')).toContain('[CONTEXT-UPDATE] GC-v1 (full context)');
    expect(seenBy('SUBAGENT-R2')).toContain('Current GC: GC-v2');
    expect(seenBy('SUBAGENT-R2')).toContain('[CONTEXT-UPDATE] GC-v1 → GC-v2');
    expect(seenBy('SUBAGENT-R2')).toContain('- CHANGED: (top).version: GC-v1 → GC-v2');
    expect(seenBy('SUBAGENT-R2')).toContain('- CHANGED: Scope');
  }, SESSION_TIMEOUT_MS);
});
