/**
 * The interactive screen, in default permission mode, driven in tmux: what the person at
 * the permission dialog sees of a rule's `ask` and `warn`. The decision log proves the
 * runner answered; the screen shows what Claude Code made of the answer.
 */
import * as path from 'node:path';
import { runScreenClient } from './client';
import { makeClientProject } from './project';
import { say, tools } from './scenario';
import { describeRealClient, SESSION_TIMEOUT_MS } from './suite';

const POLICY = `version: 1
settings:
  log: { file: .claude/decisions.jsonl }
rules:
  - id: ask-first
    on: PreToolUse
    tools: Write
    paths: { deny: ["asked/**"] }
    ask: "ASK-REASON-MARKER"
  - id: warn-first
    on: PreToolUse
    tools: Write
    paths: { deny: ["warned/**"] }
    warn: "WARN-REASON-MARKER"
`;

const READY = 'manual mode on';
const DIALOG = 'Do you want to create';

function session(file: string, answer: '1' | '3') {
  const project = makeClientProject({ policy: POLICY });
  const scenario = { main: [tools({ name: 'Write', input: { file_path: path.join(project.projectDir, file), content: 'x\n' } }), say('Done.')] };
  const outcome = runScreenClient({
    projectDir: project.projectDir,
    homeDir: project.homeDir,
    scenario,
    steps: [
      { waitFor: READY },
      { keys: ['Write the file.', 'Enter'] },
      { waitFor: DIALOG },
      { capture: 'dialog' },
      { keys: [answer] },
      { waitFor: answer === '1' ? 'Done.' : 'Rejected' },
      { capture: 'after' },
    ],
  });
  if (outcome.stuck) throw new Error(`screen never showed "${outcome.stuck.waitFor}":\n${outcome.stuck.screen}`);
  const decisions = (project.read('.claude/decisions.jsonl') ?? '').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as { outcome: string; rules: string[] });
  return { project, outcome, decisions };
}

describeRealClient('the interactive screen', () => {
  it('ask: the dialog is Claude Code\'s own; the rule\'s reason is not shown', () => {
    const { project, outcome, decisions } = session('asked/a.txt', '3');
    expect(decisions).toEqual([expect.objectContaining({ outcome: 'ask', rules: ['ask-first'] })]);
    expect(outcome.captures.dialog).toContain(DIALOG);
    expect(outcome.captures.dialog).not.toContain('ASK-REASON-MARKER');
    expect(outcome.captures.after).not.toContain('ASK-REASON-MARKER');
    expect(project.exists('asked/a.txt')).toBe(false);
  }, SESSION_TIMEOUT_MS);

  it('warn, then the user rejects the call at the dialog: the warning is never shown', () => {
    const { project, outcome, decisions } = session('warned/w.txt', '3');
    expect(decisions).toEqual([expect.objectContaining({ outcome: 'none', rules: ['warn-first'] })]);
    expect(outcome.captures.dialog).not.toContain('WARN-REASON-MARKER');
    expect(outcome.captures.after).not.toContain('WARN-REASON-MARKER');
    expect(project.exists('warned/w.txt')).toBe(false);
  }, SESSION_TIMEOUT_MS);

  it('warn, then the user accepts: the warning appears under the tool, after the dialog', () => {
    const { project, outcome } = session('warned/w.txt', '1');
    expect(outcome.captures.dialog).not.toContain('WARN-REASON-MARKER');
    expect(outcome.captures.after).toContain('WARN-REASON-MARKER');
    expect(project.exists('warned/w.txt')).toBe(true);
  }, SESSION_TIMEOUT_MS);
});
