/**
 * The decision log of a real session holds what the model was given: a context message
 * whose first word looks like a secret's name (SESSION-...) is logged whole, while a real
 * secret in the same session is redacted.
 */
import * as path from 'node:path';
import { say, tools } from './scenario';
import { describeRealClient, runCase, SESSION_TIMEOUT_MS } from './suite';
import { modelSaw } from './transcript';

const POLICY = `version: 1
settings:
  log: { file: .claude/decisions.jsonl }
rules:
  - id: session-context
    on: SessionStart
    context: "SESSION-CTX-MARKER: read docs/handbook.md before you start"
  - id: no-dotenv
    on: PreToolUse
    tools: Write
    paths: { deny: [".env"] }
    deny: "Do not write {{path}}: {{tool_input.content}}"
`;

describeRealClient('the decision log', () => {
  it('logs the context the model got word for word, and redacts the secret in a denied write', () => {
    const { project, session } = runCase({
      policy: POLICY,
      scenario: (dir) => ({ main: [tools({ name: 'Write', input: { file_path: path.join(dir, '.env'), content: 'DB_PASSWORD=hunter2' } }), say('done')] }),
    });
    expect(modelSaw(session.requests, 'SessionStart hook additional context: SESSION-CTX-MARKER: read docs/handbook.md before you start')).toBe(true);
    const records = (project.read('.claude/decisions.jsonl') ?? '').trim().split('\n').map((l) => JSON.parse(l) as { event: string; contexts?: string[]; reason?: string });
    expect(records.find((r) => r.event === 'SessionStart')?.contexts).toEqual(['SESSION-CTX-MARKER: read docs/handbook.md before you start']);
    const denied = records.find((r) => r.event === 'PreToolUse');
    expect(denied?.reason).toBe('Do not write .env: DB_PASSWORD=[REDACTED]');
    expect(modelSaw(session.requests, 'hunter2')).toBe(true); // the model itself was told; only the log is redacted
  }, SESSION_TIMEOUT_MS);
});
