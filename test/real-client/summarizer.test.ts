/**
 * The prose summary by Claude itself, in the real client: a session's Stop records its
 * summary through the hooks Claude Code runs, the runner starts the memory process
 * detached, and the process runs the pinned Claude Code binary as `claude -p` against the
 * scripted model. The prose summary is stored for the session, and the CLI's own session
 * fired no hook: not the project's (it runs outside the project) and not the user's
 * global ones, which do fire for the main session (so a loop would show). The control
 * case shows the pinned client honours the flag the guard relies on.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { EVENT_NAMES } from '../../engine/protocol';
import { POLICY_BIN } from '../support/run-hook';
import { claudeBinary, runClient } from './client';
import { contentText } from './model-server';
import { makeClientProject } from './project';
import { readPayloads, unknownFields } from './payloads';
import { say, tools } from './scenario';
import { describeRealClient, SESSION_TIMEOUT_MS } from './suite';

const PROMPT_MARK = 'Summarize the work of this coding session';
const JOURNAL = '.claude/hookpolicy/memory/journal.jsonl';

const policy = (binary: string) => `version: 1
settings:
  memory:
    summarizer: { command: ${JSON.stringify(binary)}, timeout_ms: 60000 }
rules:
  - id: observe-writes
    on: PostToolUse
    tools: Write
    record: { kind: file-change, importance: 0.7, text: "Write {{paths}}", fields: { paths: "{{paths}}" } }
  - id: summary-at-stop
    on: Stop
    let:
      digest: { summary: session }
    record: { kind: summary, importance: 1.0, text: "{{digest}}" }
`;

/** A capture hook for every event, as a user's own global hooks (~/.claude/settings.json). */
function userHooks(homeDir: string, payloadDir: string): void {
  const command = `cat > "$(mktemp -p '${payloadDir}' payload-XXXXXX.json)"`;
  const hooks = Object.fromEntries(EVENT_NAMES.filter((e) => e !== 'WorktreeCreate').map((e) => [e, [{ hooks: [{ type: 'command', command }] }]]));
  fs.mkdirSync(path.join(homeDir, '.claude'), { recursive: true });
  fs.writeFileSync(path.join(homeDir, '.claude', 'settings.json'), JSON.stringify({ hooks }, null, 2));
}

interface StoredRecord {
  kind: string;
  text: string;
  session: string | null;
  fields: Record<string, string>;
}

describeRealClient('prose summaries by Claude itself', () => {
  it('Stop records the summary; the memory process runs claude -p, stores its prose, and no hook fires in its session', () => {
    const binary = claudeBinary().path!;
    const project = makeClientProject({ policy: policy(binary) });
    const userPayloads = path.join(project.root, 'user-payloads');
    fs.mkdirSync(userPayloads);
    userHooks(project.homeDir, userPayloads);

    const session = runClient({
      projectDir: project.projectDir,
      homeDir: project.homeDir,
      prompt: 'Write the JWT middleware.',
      scenario: { main: [tools({ name: 'Write', input: { file_path: path.join(project.projectDir, 'src/auth/jwt.ts'), content: 'export const jwt = 1;\n' } }), say('done')] },
      // The memory process talks to the scripted model after the client has exited.
      linger: { file: path.join(project.projectDir, JOURNAL), until: ['"source":"claude-cli"', '"kind":"summary-error"'], timeoutMs: 90_000 },
    });
    expect(session.exitCode).toBe(0);

    const payloads = [...readPayloads(project.payloadDir), ...readPayloads(userPayloads)];
    expect(unknownFields(payloads)).toEqual([]);
    const main = readPayloads(project.payloadDir).find((p) => p.hook_event_name === 'SessionStart')?.session_id as string;
    // The user's global hooks are live: they fired for the main session...
    expect(readPayloads(userPayloads).map((p) => p.hook_event_name)).toEqual(expect.arrayContaining(['SessionStart', 'UserPromptSubmit', 'PostToolUse', 'Stop']));
    // ...and no hook, the project's or the user's, fired in any other session: the CLI's.
    expect([...new Set(payloads.map((p) => p.session_id))]).toEqual([main]);

    const list = spawnSync(process.execPath, [POLICY_BIN, 'memory', 'list', '--json'], {
      cwd: project.projectDir, encoding: 'utf8', env: { PATH: process.env.PATH ?? '', CLAUDE_PROJECT_DIR: project.projectDir },
    });
    expect(list.stderr).toBe('');
    const records = (JSON.parse(list.stdout) as StoredRecord[]).reverse();
    expect(records.map((r) => [r.kind, r.session])).toEqual([['file-change', main], ['summary', main], ['summary', main]]);
    const [, deterministic, prose] = records;
    expect(deterministic.text).toBe('1 file changed (src/auth/jwt.ts)');
    // The scripted model answers a request without tools with this text.
    expect(prose).toMatchObject({ text: 'Scripted summary.', fields: { source: 'claude-cli', model: 'haiku', observations: '1' } });

    // The model was asked once, with the seed's prompt and the session's observation.
    const asked = session.requests.filter((r) => (r.body?.messages ?? []).some((m) => contentText(m.content).includes(PROMPT_MARK)));
    expect(asked).toHaveLength(1);
    const text = (asked[0].body?.messages ?? []).map((m) => contentText(m.content)).join('\n');
    expect(text).toMatch(/\] file-change: Write src\/auth\/jwt\.ts/);
    expect(asked[0].body?.tools ?? []).toEqual([]);
  }, SESSION_TIMEOUT_MS + 90_000);

  it('control: the pinned client runs no hook, of the project or the user, under --settings {"disableAllHooks":true}', () => {
    const project = makeClientProject({ policy: 'version: 1\nrules: []\n', noInit: true });
    userHooks(project.homeDir, project.payloadDir);
    const run = (args: string[]) => runClient({ projectDir: project.projectDir, homeDir: project.homeDir, prompt: 'Say hi.', scenario: { main: [say('hi')] }, args });
    expect(run(['--settings', '{"disableAllHooks":true}']).exitCode).toBe(0);
    expect(readPayloads(project.payloadDir)).toEqual([]);
    expect(run([]).exitCode).toBe(0);
    expect(readPayloads(project.payloadDir).length).toBeGreaterThan(0);
  }, 2 * SESSION_TIMEOUT_MS);

  it('second guard: a session under the memory process\'s marker, hooks and all, records nothing and starts nothing', () => {
    const project = makeClientProject({ policy: policy(claudeBinary().path!) });
    const session = runClient({
      projectDir: project.projectDir,
      homeDir: project.homeDir,
      prompt: 'Write the JWT middleware.',
      scenario: { main: [tools({ name: 'Write', input: { file_path: path.join(project.projectDir, 'src/auth/jwt.ts'), content: 'x\n' } }), say('done')] },
      env: { HOOKPOLICY_SUMMARIZER: '1' },
    });
    expect(session.exitCode).toBe(0);
    // The hooks ran (the runner among them)...
    expect(readPayloads(project.payloadDir).map((p) => p.hook_event_name)).toEqual(expect.arrayContaining(['PostToolUse', 'Stop']));
    // ...and under the marker it appended nothing, so no process was started either.
    expect(project.exists(JOURNAL)).toBe(false);
    expect(session.requests.filter((r) => (r.body?.messages ?? []).some((m) => contentText(m.content).includes(PROMPT_MARK)))).toEqual([]);
  }, SESSION_TIMEOUT_MS);
});
