/**
 * Throwaway projects for `policy report`: a policy that logs decisions, a decision log
 * written as given, a cache folder of its own (the fail-open counter's), and the CLI run
 * in them as a user would.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runCli, type CliRun } from './run-cli';

export const REPORT_POLICY = 'version: 1\nsettings:\n  log: { file: .claude/decisions.jsonl }\nrules: []\n';

/**
 * A fresh project (real path) whose decision log holds `log` as written.
 * @example const dir = reportProject(lines.join('\n') + '\n'); policyReport(dir, [])
 */
export function reportProject(log: string | null, policy = REPORT_POLICY): string {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'hp-report-')));
  fs.mkdirSync(path.join(dir, '.claude'));
  fs.mkdirSync(path.join(dir, '.cache'), { mode: 0o700 });
  fs.writeFileSync(path.join(dir, '.claude', 'policies.yaml'), policy);
  if (log !== null) fs.writeFileSync(path.join(dir, '.claude', 'decisions.jsonl'), log);
  return dir;
}

/** `policy report ARGS` in `dir`, the project's own cache and temp folders in its environment. */
export function policyReport(dir: string, args: string[], env: Record<string, string> = {}): CliRun {
  return runCli(['report', ...args], { cwd: dir, env: { CLAUDE_PROJECT_DIR: dir, HOOKPOLICY_CACHE_DIR: path.join(dir, '.cache'), TMPDIR: path.join(dir, '.cache'), ...env } });
}

/**
 * A decision record line as the runner writes it, with `fields` over a PreToolUse Bash default.
 * @example decisionLine('2026-01-14T09:15:00.000Z', 'deny', { rules: ['no-env-writes'] })
 */
export function decisionLine(time: string, outcome: string, fields: Record<string, unknown> = {}): string {
  return JSON.stringify({ time, session_id: 's1', event: 'PreToolUse', tool: 'Bash', agent: null, outcome, rules: [], reason: null, paths: [], policy: ['.claude/policies.yaml'], ...fields });
}

/**
 * The rows of the first table of a page section, as text (tags stripped, entities decoded,
 * empty cells left out): what a reader sees in it.
 * @example sectionTable(html, 'rules')[0] // ['rule', 'deny', 'ask', 'block', 'allow', 'none', 'total']
 */
export function sectionTable(html: string, id: string): string[][] {
  const section = new RegExp(`<section id="${id}">([\\s\\S]*?)</section>`).exec(html)?.[1] ?? '';
  const table = /<table[^>]*>([\s\S]*?)<\/table>/.exec(section)?.[1] ?? '';
  return [...table.matchAll(/<tr[^>]*>([\s\S]*?)<\/tr>/g)].map((row) =>
    [...row[1].matchAll(/<t[hd][^>]*>([\s\S]*?)<\/t[hd]>/g)].map((c) => decode(c[1].replace(/<svg[\s\S]*?<\/svg>/g, '').replace(/<[^>]+>/g, ''))).filter((c) => c !== ''));
}

function decode(html: string): string {
  return html.replace(/&(lt|gt|quot|#39|amp);/g, (_m, e: string) => ({ lt: '<', gt: '>', quot: '"', '#39': "'", amp: '&' })[e] as string);
}
