/**
 * No secret kept (issue 31): a command holding sixteen common token formats, `az login -p`,
 * a Vault token and a Telegram bot URL, denied and logged, and the output of `printenv`
 * recorded by the memory pack, leave none of them anywhere on disk: not in the decision
 * log, the webhook's spool, the OTLP exporter's spool, nor the memory journal. Through the
 * built runner.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { COMMON_TOKENS, LOG_LEAKS } from '../support/secret-tokens';
import { makeProject } from '../support/run-hook';

const POLICY = `version: 1
include: [memory]
settings:
  log:
    file: .claude/policy-decisions.jsonl
    record: [deny]
    webhook: { url: "http://127.0.0.1:9/decisions", body: { summary: "{{reason}}", cmd: "{{command}}" } }
    otlp: { endpoint: "http://127.0.0.1:9" }
rules:
  - id: no-deploy
    on: PreToolUse
    tools: Bash
    command: ['\\bdeploy\\b']
    deny: "Not from here: {{command}}"
`;

function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesUnder(path.join(dir, e.name)) : [path.join(dir, e.name)]));
}

test('no secret reaches the decision log, the webhook, OTLP or the memory store', () => {
  const project = makeProject(POLICY);
  try {
    const all = [...COMMON_TOKENS, ...LOG_LEAKS];
    const command = `${all.map(([, text]) => text).join(' && ')} && ./deploy`;
    const base = { session_id: 's-secrets', cwd: project.dir, tool_name: 'Bash', tool_use_id: 'toolu_1' };
    const denied = project.run({ ...base, hook_event_name: 'PreToolUse', tool_input: { command } });
    expect((denied.json as { hookSpecificOutput: { permissionDecision: string } }).hookSpecificOutput.permissionDecision).toBe('deny');
    // As a command prints them, each on its line. A word the privacy filter knows (api_key) would drop the
    // record whole, so it is renamed: the format must be found, not the name.
    const printed = all.map(([, text]) => text.replace(/api_key/gi, 'CRED')).join('\n');
    const recorded = project.run({ ...base, hook_event_name: 'PostToolUse', tool_input: { command: 'cat notes.txt' }, tool_response: { stdout: printed, stderr: '', interrupted: false, isImage: false } });
    expect(recorded.exitCode).toBe(0);
    const written = [...filesUnder(project.dir), ...filesUnder(project.cacheDir)].filter((f) => !f.endsWith('policies.yaml'));
    const kinds = written.map((f) => path.basename(f));
    // What was written: the log, the journal, one spooled item each for the webhook and OTLP.
    expect(kinds).toEqual(expect.arrayContaining(['policy-decisions.jsonl', 'journal.jsonl']));
    // One record queued for the webhook (its sender may be sending it) and one for the OTLP exporter.
    expect(written.filter((f) => /webhook-spool[/\\].*\.rec/.test(f))).toHaveLength(1);
    expect(written.filter((f) => /otlp-outbox[/\\].*\.rec/.test(f))).toHaveLength(1);
    const text = written.map((f) => fs.readFileSync(f, 'latin1')).join('\n');
    expect(text).toContain('[REDACTED]');
    for (const [name, , secret] of all) expect([name, text.includes(secret)]).toEqual([name, false]);
  } finally {
    project.remove();
  }
});
