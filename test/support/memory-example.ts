/**
 * The project docs/commands/memory.md and docs/commands/stats.md show: a policy that logs
 * decisions, a memory journal of two sessions (as the runner appends it) and a decision
 * log. Fixed times, so the commands print the same text every run.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { JournalRecord } from '../../engine/host/memory/journal';

export const EXAMPLE_POLICY = `version: 1
settings:
  log: { file: .claude/decisions.jsonl }
  # The examples are dated January 2026: kept for ten years, not the default 90 days.
  memory: { retention_days: 3650 }
rules: []
`;

const r = (at: string, session: string, agent: string | null, event: string, rule: string, kind: string, importance: number, text: string, fields: Record<string, string> = {}): JournalRecord =>
  ({ at: `2026-01-${at}Z`, session, agent, event, rule, kind, importance, text, fields });

/** The journal, in the order the runner appended it. */
export const EXAMPLE_RECORDS: JournalRecord[] = [
  r('14T09:12:04.112', 'a1f3', null, 'PostToolUse', 'observe-writes', 'file-change', 0.7, 'Write src/auth/jwt.ts', { tool: 'Write', paths: 'src/auth/jwt.ts' }),
  r('14T09:12:04.112', 'a1f3', null, 'PostToolUse', 'metrics', 'metric', 0.1, 'Write 15 ms', { tool: 'Write', duration_ms: '15', success: 'true' }),
  r('14T09:20:40.530', 'a1f3', null, 'PostToolUse', 'observe-tests', 'test', 0.9, 'npm test: 2 failed (jwt.test.ts)', { command: 'npm test', success: 'false' }),
  r('14T09:20:40.530', 'a1f3', null, 'PostToolUse', 'metrics', 'metric', 0.1, 'Bash 8210 ms', { tool: 'Bash', duration_ms: '8210', success: 'true' }),
  r('14T09:31:02.004', 'a1f3', null, 'SessionEnd', 'session-summary', 'summary', 0.8, 'JWT authentication middleware: 1 file changed (src/auth/jwt.ts); 1 test run, 1 failed'),
  r('15T10:02:19.871', 'b7c2', 'murdock', 'PostToolUse', 'observe-tests', 'test', 0.9, 'npm test -- auth: 14 passed', { command: 'npm test -- auth', success: 'true' }),
  r('15T10:02:19.871', 'b7c2', 'murdock', 'PostToolUse', 'metrics', 'metric', 0.1, 'Bash 6120 ms', { tool: 'Bash', duration_ms: '6120', success: 'true' }),
  r('15T10:04:55.300', 'b7c2', 'murdock', 'PostToolUseFailure', 'metrics', 'metric', 0.1, 'Bash 310 ms', { tool: 'Bash', duration_ms: '310', success: 'false' }),
  r('15T10:05:12.018', 'b7c2', 'ba', 'PostToolUse', 'metrics', 'metric', 0.1, 'Edit 22 ms', { tool: 'Edit', duration_ms: '22', success: 'true' }),
];

const decision = (time: string, session: string, outcome: string, rules: string[], durationMs: number, event = 'PreToolUse') =>
  JSON.stringify({ time: `2026-01-${time}Z`, session_id: session, event, tool: event === 'PreToolUse' ? 'Bash' : null, agent: null, outcome, rules, reason: null, paths: [], policy: ['.claude/policies.yaml'], duration_ms: durationMs });

/** The decision log beside it. */
export const EXAMPLE_DECISIONS = [
  decision('14T09:15:00.000', 'a1f3', 'deny', ['no-env-writes'], 3.4),
  decision('14T09:18:00.000', 'a1f3', 'ask', ['ask-migrations'], 2.1),
  decision('15T10:03:00.000', 'b7c2', 'deny', ['no-env-writes'], 4.75),
  decision('15T10:06:00.000', 'b7c2', 'none', ['remind-tests'], 1.2, 'Stop'),
].join('\n') + '\n';

/** The fail-open counter's lines for the example project (`project` is filled in): one fail-open, one fail-closed. */
export const EXAMPLE_FAIL_OPENS = [
  { time: '2026-01-14T09:40:12.500Z', session_id: 'a1f3', event: 'PreToolUse', tool: 'Bash', code: 'deadline-exceeded', message: 'evaluating the event took longer than deadline_ms (2000 ms)', on_error: 'closed' },
  { time: '2026-01-15T10:07:31.250Z', session_id: 'b7c2', event: 'PreToolUse', tool: 'Write', code: 'schema-type', message: 'settings.deadline_ms must be a whole number', on_error: 'open' },
];

/** The cache folder (HOOKPOLICY_CACHE_DIR) memoryExample makes beside the project's files, with the fail-open counter in it. */
export function exampleCacheDir(dir: string): string {
  return path.join(dir, '.hookpolicy-cache');
}

/**
 * A fresh example project (real path); `records` default to the whole example journal.
 * @example const dir = memoryExample(); runCli(['memory', 'list'], { cwd: dir })
 */
export function memoryExample(records: JournalRecord[] = EXAMPLE_RECORDS): string {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'hp-memory-example-')));
  const store = path.join(dir, '.claude', 'hookpolicy', 'memory');
  fs.mkdirSync(store, { recursive: true, mode: 0o700 });
  fs.chmodSync(store, 0o700);
  fs.writeFileSync(path.join(dir, '.claude', 'policies.yaml'), EXAMPLE_POLICY);
  fs.writeFileSync(path.join(dir, '.claude', 'decisions.jsonl'), EXAMPLE_DECISIONS);
  fs.writeFileSync(path.join(store, 'journal.jsonl'), records.map((x) => `${JSON.stringify(x)}\n`).join(''));
  fs.mkdirSync(exampleCacheDir(dir), { mode: 0o700 });
  fs.writeFileSync(path.join(exampleCacheDir(dir), 'fail-opens.jsonl'), EXAMPLE_FAIL_OPENS.map((x) => `${JSON.stringify({ ...x, project: dir })}\n`).join(''));
  return dir;
}
