/**
 * The webhook body in the team API's shape (seed 004: status, agentName, toolName,
 * eventType, summary), and every record listing every path the call touches: through the
 * built runner, its detached sender and a real HTTP server on 127.0.0.1.
 */
import * as fs from 'node:fs';
import { startSink, type HttpSink } from '../support/http-sink';
import { ensureBuilt, makeSandbox, responseProblems, spawnHook, type Sandbox } from '../support/hook-process';

let box: Sandbox | undefined;
let sink: HttpSink | undefined;

beforeAll(() => ensureBuilt(), 120_000);
afterEach(async () => {
  await sink?.close();
  box?.remove();
  sink = undefined;
  box = undefined;
});

/** The ai-team pack, with denials POSTed in the API's shape. */
const teamPolicy = (url: string) => [
  'version: 1',
  'include: [ai-team]',
  'settings:',
  '  log:',
  '    file: logs/decisions.jsonl',
  '    record: [deny, bypass]',
  '    webhook:',
  `      url: "${url}"`,
  '      body:',
  '        status: denied',
  '        agentName: "{{agent}}"',
  '        toolName: "{{tool}}"',
  '        eventType: "{{event}}"',
  '        summary: "{{reason}}"',
  '        details: { rule: "{{rule}}", files: "{{paths}}", session: "{{session}}", attempt: 1 }',
  '',
].join('\n');

function event(b: Sandbox, tool: string, input: Record<string, unknown>, session: string): string {
  return JSON.stringify({ hook_event_name: 'PreToolUse', session_id: session, cwd: b.dir, agent_type: 'ai-team:lynch', tool_name: tool, tool_input: input });
}

function logLines(b: Sandbox): Array<Record<string, unknown>> {
  return fs.readFileSync(b.file('logs/decisions.jsonl'), 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
}

describe('webhook body templates (seed 004)', () => {
  it('a denied Edit and a denied Bash write arrive in the API\'s shape, naming every touched path', async () => {
    sink = await startSink();
    box = makeSandbox({ '.claude/policies.yaml': teamPolicy(sink.url), 'lib/env.ts': 'export {};\n' });
    const opts = { projectDir: box.dir, cacheDir: box.cacheDir };
    const edit = await spawnHook(event(box, 'Edit', { file_path: `${box.dir}/lib/env.ts`, old_string: 'export', new_string: 'x' }, 's-edit'), opts);
    const bash = await spawnHook(event(box, 'Bash', { command: 'echo x > lib/env.ts && cp lib/env.ts docs/copy.ts' }, 's-bash'), opts);
    for (const r of [edit, bash]) {
      expect(responseProblems(r)).toEqual([]);
      expect(r.stderr).toBe('');
    }
    const reason = (r: { stdout: string }) => (JSON.parse(r.stdout) as { hookSpecificOutput: { permissionDecisionReason: string } }).hookSpecificOutput.permissionDecisionReason;
    expect(reason(edit)).toContain('Do not edit lib/env.ts');

    const bodies = (await sink.waitFor(2, 10_000)).map((r) => JSON.parse(r.body) as { details: { session: string } });
    bodies.sort((a, b) => a.details.session.localeCompare(b.details.session));
    expect(bodies).toEqual([
      {
        status: 'denied', agentName: 'lynch', toolName: 'Bash', eventType: 'PreToolUse', summary: reason(bash),
        details: { rule: 'ateam-reviewer-writes-nothing', files: 'lib/env.ts, docs/copy.ts', session: 's-bash', attempt: 1 },
      },
      {
        status: 'denied', agentName: 'lynch', toolName: 'Edit', eventType: 'PreToolUse', summary: reason(edit),
        details: { rule: 'ateam-reviewer-writes-nothing', files: 'lib/env.ts', session: 's-edit', attempt: 1 },
      },
    ]);
    // The log line keeps the record's own shape, with the same paths.
    expect(logLines(box).map((l) => [l.session_id, l.outcome, l.paths])).toEqual([
      ['s-edit', 'deny', ['lib/env.ts']],
      ['s-bash', 'deny', ['lib/env.ts', 'docs/copy.ts']],
    ]);
  }, 30_000);

  it('a bypassed Bash write is recorded with the files it writes, in the log line and the webhook record', async () => {
    sink = await startSink();
    box = makeSandbox({
      '.claude/policies.yaml': [
        'version: 1',
        'include: [ai-team]',
        'settings:',
        '  log: { file: logs/decisions.jsonl, record: [deny, bypass], webhook: { url: "' + sink.url + '" } }',
        '',
      ].join('\n'),
    });
    const r = await spawnHook(event(box, 'Bash', { command: 'echo x > src/app.ts; tee -a README.md < notes.txt' }, 's-off'),
      { projectDir: box.dir, cacheDir: box.cacheDir, env: { ATEAM_ENFORCEMENT: 'off' } });
    expect(r).toMatchObject({ stdout: '', stderr: '', exitCode: 0 });
    const [line] = logLines(box);
    expect([line.outcome, line.bypass, line.paths]).toEqual([
      'none', expect.objectContaining({ env: 'ATEAM_ENFORCEMENT', rules: expect.arrayContaining(['ateam-reviewer-writes-nothing']) }), ['src/app.ts', 'README.md'],
    ]);
    const [posted] = await sink.waitFor(1, 10_000);
    expect((JSON.parse(posted.body) as { paths: string[] }).paths).toEqual(['src/app.ts', 'README.md']);
  }, 30_000);

  it('a secret in the command stays out of the body, even glued to a name by the template', async () => {
    sink = await startSink();
    box = makeSandbox({
      '.claude/policies.yaml': [
        'version: 1',
        'settings:',
        '  log:',
        '    webhook:',
        `      url: "${sink.url}"`,
        '      body: { text: "cmd={{command}}", nested: ["{{command}}"] }',
        'rules:',
        '  - { id: no-lib, on: PreToolUse, tools: Bash, paths: { deny: ["lib/**"] }, deny: "not {{path}}" }',
        '',
      ].join('\n'),
    });
    const r = await spawnHook(JSON.stringify({ hook_event_name: 'PreToolUse', session_id: 's', cwd: box.dir, tool_name: 'Bash', tool_input: { command: 'DB_PASSWORD=hunter2 echo x > lib/a.ts' } }),
      { projectDir: box.dir, cacheDir: box.cacheDir });
    expect(responseProblems(r)).toEqual([]);
    const [posted] = await sink.waitFor(1, 10_000);
    expect(posted.body).not.toContain('hunter2');
    expect(JSON.parse(posted.body)).toEqual({ text: 'cmd=DB_PASSWORD=[REDACTED] echo x > lib/a.ts', nested: ['DB_PASSWORD=[REDACTED] echo x > lib/a.ts'] });
  }, 30_000);
});
