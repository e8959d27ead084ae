/**
 * A stand-in for the Claude Code CLI, for the summarizer's tests: an executable that
 * writes what it was started with (arguments, folder, the environment variables that
 * matter, the prompt on stdin) to $FAKE_CLAUDE_LOG and answers as `claude -p
 * --output-format json` does. $FAKE_CLAUDE_MODE: ok (default), error (is_error), exit
 * (exit 1 with a message on stderr), slow (never answers).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

export interface FakeClaudeRun {
  argv: string[];
  cwd: string;
  marker: string | null;
  projectDir: string | null;
  prompt: string;
}

const SOURCE = `
const fs = require('fs');
const chunks = [];
process.stdin.on('data', (c) => chunks.push(c));
process.stdin.on('end', () => {
  const prompt = Buffer.concat(chunks).toString('utf8');
  const log = process.env.FAKE_CLAUDE_LOG;
  if (log) fs.appendFileSync(log, JSON.stringify({ argv: process.argv.slice(2), cwd: process.cwd(), marker: process.env.HOOKPOLICY_SUMMARIZER ?? null, projectDir: process.env.CLAUDE_PROJECT_DIR ?? null, prompt }) + '\\n');
  const mode = process.env.FAKE_CLAUDE_MODE || 'ok';
  const text = process.env.FAKE_CLAUDE_SUMMARY || 'Prose summary from the CLI.';
  if (mode === 'slow') { setTimeout(() => {}, 1e9); return; }
  if (mode === 'exit') { process.stderr.write('error: unknown option --tools\\n'); process.exit(1); }
  process.stdout.write(JSON.stringify({ type: 'result', subtype: mode === 'error' ? 'error_during_execution' : 'success', is_error: mode === 'error', result: mode === 'error' ? 'Invalid API key' : text, session_id: 'fake' }) + '\\n');
});
`;

/**
 * Writes the fake CLI as `<dir>/<name>` (executable) and returns its path.
 * @example const bin = writeFakeClaude(tmp); // tmp/claude
 */
export function writeFakeClaude(dir: string, name = 'claude'): string {
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, name);
  fs.writeFileSync(file, `#!${process.execPath}\n${SOURCE}`, { mode: 0o755 });
  return file;
}

/** The runs the fake logged, oldest first ([] when none). */
export function fakeClaudeRuns(log: string): FakeClaudeRun[] {
  if (!fs.existsSync(log)) return [];
  return fs.readFileSync(log, 'utf8').split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l) as FakeClaudeRun);
}
