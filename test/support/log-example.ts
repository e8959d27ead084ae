/**
 * The project docs/commands/log.md shows: a policy that logs decisions and a chained
 * decision log of two sessions, as the runner writes it (fixed times, so the commands
 * print the same text and the same head every run).
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { GENESIS, lineHash } from '../../engine/decision-log/chain';

export const LOG_EXAMPLE_POLICY = `version: 1
settings:
  log: { file: .claude/decisions.jsonl }
rules: []
`;

const record = (time: string, session: string, event: string, tool: string | null, agent: string | null, outcome: string, rules: string[], reason: string | null, paths: string[], durationMs: number) =>
  ({ time: `2026-01-${time}Z`, session_id: session, event, tool, agent, outcome, rules, reason, paths, policy: ['.claude/policies.yaml'], duration_ms: durationMs });

/** The records, oldest first, before the chain is added. */
export const LOG_EXAMPLE_RECORDS = [
  record('14T09:15:00.000', 'a1f3', 'PreToolUse', 'Write', null, 'deny', ['no-env-writes'], '.env holds secrets: use .env.example.', ['.env'], 3.4),
  record('14T09:18:00.000', 'a1f3', 'PreToolUse', 'Bash', null, 'ask', ['ask-migrations'], 'Migrations change the shared database: confirm.', ['db/migrations/004.sql'], 2.1),
  record('15T10:03:00.000', 'b7c2', 'PreToolUse', 'Edit', 'lynch', 'deny', ['reviewer-writes-nothing'], 'lynch is the reviewer and writes no files.', ['lib/env.ts'], 4.75),
  record('15T10:04:10.000', 'b7c2', 'PreToolUse', 'Bash', 'murdock', 'allow', ['tests-may-run'], 'Tests may always run.', [], 1.9),
  record('15T10:05:30.000', 'b7c2', 'PreToolUse', 'Write', 'murdock', 'deny', ['no-env-writes'], '.env holds secrets: use .env.example.', ['.env.local'], 3.1),
  record('15T10:06:00.000', 'b7c2', 'Stop', null, null, 'none', ['remind-tests'], null, [], 1.2),
];

/**
 * The records as chained log lines (each with `prev`), as the runner appends them.
 * @example chainLines([{ time: '…' }])[0] // '{"time":"…","prev":"000…0"}'
 */
export function chainLines(records: readonly object[], start = GENESIS): string[] {
  let prev = start;
  return records.map((r) => {
    const line = JSON.stringify({ ...r, prev });
    prev = lineHash(Buffer.from(line));
    return line;
  });
}

/**
 * A fresh example project (real path) with the chained log; `lines` default to the
 * example's. Beside it, `decisions.jsonl.last` as the runner leaves it after the last line
 * (the log's inode, size and ctime, and that line's hash), unless there are no lines.
 * @example const dir = logExample(); runCli(['log'], { cwd: dir })
 */
export function logExample(lines: string[] = chainLines(LOG_EXAMPLE_RECORDS)): string {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'hp-log-example-')));
  fs.mkdirSync(path.join(dir, '.claude'));
  fs.writeFileSync(path.join(dir, '.claude', 'policies.yaml'), LOG_EXAMPLE_POLICY);
  const log = path.join(dir, '.claude', 'decisions.jsonl');
  fs.writeFileSync(log, lines.map((l) => `${l}\n`).join(''));
  if (lines.length > 0) {
    const st = fs.statSync(log, { bigint: true });
    const stamp = [st.ino, st.size, st.ctimeNs].map((n) => String(n).padStart(20, '0')).join(' ');
    fs.writeFileSync(`${log}.last`, `${stamp} ${lineHash(Buffer.from(lines[lines.length - 1]))}\n`);
  }
  return dir;
}
