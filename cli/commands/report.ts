/**
 * `policy report`: the decision log as one self-contained HTML page for people (decisions
 * over time, per agent, rule and tool, the paths and commands denied most often,
 * fail-opens and errors). The log is found as `policy stats` finds it (the policy's
 * settings.log.file) unless --file names one. docs/commands/report.md.
 */
import * as crypto from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import { CommanderError, type Command } from 'commander';
import { reportAggregator, type ReportData } from '../../engine/report/aggregate';
import { renderReport, type FailOpenCounts } from '../../engine/report/html';
import { discoverPolicyFiles } from '../../engine/host/discover';
import { readFailOpens } from '../../engine/host/fail-open';
import { readLogLines } from '../../engine/host/log-lines';
import { collect, fail, timeAgo, wholeNumber } from '../memory-access';
import { loadPolicyForCommand, reportDiagnostics, usageErrorsExit2 } from './explain';
import { projectRootOf } from './init';

/** Where the page goes without --out: a file to open in a browser, not HTML on a terminal. */
export const DEFAULT_REPORT_FILE = 'hookpolicy-report.html';

interface ReportCommandOptions {
  out: string;
  file?: string;
  since?: number;
  until?: number;
  top: number;
  config: string[];
  projectDir?: string;
}

/** Registers `policy report [--out FILE] [--file LOG] [--since WHEN] [--until WHEN] [--top N] [--config F]... [--project-dir D]`. */
export function register(program: Command): void {
  const now = Date.now();
  program
    .command('report')
    .description('one self-contained HTML page of the decision log: decisions over time, per agent, rule and tool, the paths and commands denied most often, fail-opens and errors')
    .option('-o, --out <file>', `where to write the page; - prints it to stdout`, DEFAULT_REPORT_FILE)
    .option('--file <log>', "the decision log (default: the policy's settings.log.file)")
    .option('--since <when>', 'from a duration back from now (30m, 12h, 7d) or a date (2026-01-15)', timeAgo(now))
    .option('--until <when>', 'before a duration back from now or a date (2026-01-16: up to the end of the 15th)', timeAgo(now))
    .option('--top <n>', 'rows per table', wholeNumber(1, 1000), 25)
    .option('-c, --config <file>', 'policy file, for settings.log.file (repeatable; default: as the runner finds it)', collect, [])
    .option('--project-dir <dir>', 'project root (default: $CLAUDE_PROJECT_DIR, else the current folder)')
    .exitOverride(usageErrorsExit2)
    .action((options: ReportCommandOptions) => {
      if (options.since !== undefined && options.until !== undefined && options.until <= options.since) fail('report', '--until must be later than --since');
      const projectRoot = projectRootOf(options);
      const log = logLocation(options, projectRoot);
      const aggregator = reportAggregator({ sinceMs: options.since, untilMs: options.until, top: options.top });
      try {
        readLogLines(log.file, (line) => aggregator.add(line), () => aggregator.addGarbled());
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        fail('report', code === 'ENOENT' ? `${log.shown} does not exist yet` : `cannot read ${log.shown}: ${(e as Error).message}`);
      }
      const data = aggregator.result();
      const html = renderReport(data, {
        project: path.basename(projectRoot),
        logFile: log.shown,
        generatedAt: new Date().toISOString(),
        sinceMs: options.since,
        untilMs: options.until,
        failOpen: failOpenCounts(projectRoot, options.since, options.until),
      });
      if (options.out === '-') {
        process.stdout.write(html);
        return;
      }
      writeReplacing(options.out, html);
      process.stdout.write(`${summaryLine(options.out, data)}\n`);
    });
}

/**
 * What `policy report` prints after writing the page.
 * @example summaryLine('hookpolicy-report.html', data) // 'wrote hookpolicy-report.html: 4 decisions from 2026-01-14 09:15 to 2026-01-15 10:06 UTC'
 */
export function summaryLine(out: string, data: ReportData): string {
  const span = data.first && data.last ? ` from ${data.first.slice(0, 10)} ${data.first.slice(11, 16)} to ${data.last.slice(0, 10)} ${data.last.slice(11, 16)} UTC` : '';
  const garbled = data.garbled > 0 ? `, ${data.garbled} garbled ${data.garbled === 1 ? 'line' : 'lines'} skipped` : '';
  return `wrote ${out}: ${data.decisions} ${data.decisions === 1 ? 'decision' : 'decisions'}${span}${garbled}`;
}

/** The log to read: --file (from the current folder), else the policy's settings.log.file (from the project root). */
function logLocation(options: ReportCommandOptions, projectRoot: string): { file: string; shown: string } {
  if (options.file !== undefined) return { file: path.resolve(options.file), shown: options.file };
  const found = discoverPolicyFiles({ configs: options.config, env: process.env, projectRoot });
  if (found.length === 0 && options.config.length === 0) fail('report', `no policy file in ${projectRoot} to name the decision log; pass --file LOG`);
  const loaded = loadPolicyForCommand(options.config, projectRoot, process.env);
  reportDiagnostics(loaded.diagnostics);
  const logFile = loaded.policy?.settings.log.file;
  if (!logFile) fail('report', 'the policy sets no settings.log.file; pass --file LOG');
  return { file: path.resolve(projectRoot, logFile), shown: logFile };
}

/** The fail-open counter of this project over the period; null when it cannot be read. */
function failOpenCounts(projectRoot: string, sinceMs?: number, untilMs?: number): FailOpenCounts | null {
  try {
    const counter = readFailOpens({ env: process.env, projectRoot, ...(sinceMs !== undefined ? { since: sinceMs } : {}) });
    const before = <T extends { time: string }>(records: readonly T[]) => (untilMs === undefined ? [...records] : records.filter((r) => Date.parse(r.time) < untilMs));
    const open = before(counter.records);
    const codes = new Map<string, number>();
    for (const r of open) codes.set(r.code, (codes.get(r.code) ?? 0) + 1);
    const closed = untilMs === undefined ? counter.failClosed : before(counter.closed).length;
    return {
      total: open.length,
      failClosed: closed,
      byCode: [...codes].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([key, value]) => ({ key, value })),
      latest: open.slice(-10).reverse().map((r) => ({ time: r.time, event: r.event, tool: r.tool, code: r.code, message: r.message })),
      problems: counter.problems,
      files: counter.files.length,
    };
  } catch {
    return null;
  }
}

/**
 * Writes `file` whole through a new temporary file beside it, then renames it over: a
 * symlink planted at the report's path is replaced, never followed.
 */
function writeReplacing(file: string, text: string): void {
  const target = path.resolve(file);
  const temp = path.join(path.dirname(target), `.${path.basename(target)}.${crypto.randomBytes(6).toString('hex')}.tmp`);
  try {
    fs.writeFileSync(temp, text, { flag: 'wx', mode: 0o644 });
    fs.renameSync(temp, target);
  } catch (e) {
    try {
      fs.unlinkSync(temp);
    } catch {
      // Not made, or already renamed.
    }
    if (e instanceof CommanderError) throw e;
    fail('report', `cannot write ${file}: ${(e as Error).message}`);
  }
}
