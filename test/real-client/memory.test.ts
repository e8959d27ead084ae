/**
 * The memory store in the real client: a recording rule's records reach the journal with
 * the session the client gave, and `/mem-search ID` (the slash command `policy init`
 * writes for a policy that records) shows the model that record in full, through
 * `policy memory show`, allowed for exactly that command.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { say, tools } from './scenario';
import { describeRealClient, runCase, SESSION_TIMEOUT_MS } from './suite';
import { lastUserTexts, modelSaw } from './transcript';

const STORE = '.claude/hookpolicy/memory';
const POLICY = `version: 1
rules:
  - id: observe-commands
    on: PostToolUse
    tools: Bash
    record:
      kind: command
      importance: 0.5
      text: "{{command}}"
      fields: { command: "{{command}}" }
`;

function journal(projectDir: string): Array<Record<string, unknown>> {
  const file = path.join(projectDir, STORE, 'journal.jsonl');
  return fs.existsSync(file) ? fs.readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l)) : [];
}

describeRealClient('the memory store', () => {
  it('a PostToolUse record rule stores the command with the client\'s session id, silently', () => {
    const { project, session, payloads } = runCase({ policy: POLICY, scenario: { main: [tools({ name: 'Bash', input: { command: 'echo remembered-42' } }), say('done')] } });
    const sessionId = payloads.find((p) => p.hook_event_name === 'PostToolUse')?.session_id;
    expect(typeof sessionId).toBe('string');
    expect(journal(project.projectDir)).toEqual([expect.objectContaining({ session: sessionId, agent: null, event: 'PostToolUse', rule: 'observe-commands', kind: 'command', text: 'echo remembered-42' })]);
    // Recording says nothing: no hook output reached the model.
    expect(modelSaw(session.requests, 'observe-commands')).toBe(false);
  }, SESSION_TIMEOUT_MS);

  it('/mem-search ID shows the model the record in full', () => {
    const { project, session } = runCase({
      policy: POLICY,
      prompt: '/mem-search 1',
      scenario: { main: [say('noted')] },
      beforeSession: (p) => {
        expect(p.read('.claude/commands/mem-search.md')).toContain('allowed-tools: Bash(npx --no-install policy memory show:*)');
        const dir = path.join(p.projectDir, STORE);
        fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
        const record = { at: '2026-01-14T09:31:02.004Z', session: 'earlier', agent: null, event: 'SessionEnd', rule: 'session-summary', kind: 'summary', importance: 0.8, text: 'JWT middleware done; refresh tokens still to do', fields: { files: 'src/auth/jwt.ts' } };
        fs.writeFileSync(path.join(dir, 'journal.jsonl'), `${JSON.stringify({ ...record, at: new Date().toISOString() })}\n`);
      },
    });
    expect(project.exists('.claude/commands/mem-search.md')).toBe(true);
    const read = lastUserTexts(session.requests).join('\n');
    expect(read).toContain('#1 summary (importance 0.8)');
    expect(read).toContain('JWT middleware done; refresh tokens still to do');
    expect(read).toContain('src/auth/jwt.ts');
  }, SESSION_TIMEOUT_MS);
});
