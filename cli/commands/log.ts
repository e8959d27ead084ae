/**
 * `policy log` (the decision log's records, filtered, as a table or JSON lines) and
 * `policy log verify` (its hash chain). The log is the policy's settings.log.file, found
 * as `policy stats` finds it, or --file. docs/commands/log.md.
 */
import * as path from 'path';
import { CommanderError, InvalidArgumentError, type Command } from 'commander';
import { diagnostic, formatDiagnostic } from '../../engine/diagnostics';
import { RECORD_OUTCOMES, type DecisionLogFilter } from '../../engine/decision-log/filter';
import { HASH_PATTERN } from '../../engine/decision-log/chain';
import { discoverPolicyFiles } from '../../engine/host/discover';
import { LogReadError, readDecisionLog, verifyDecisionLog } from '../../engine/host/log-chain';
import { palette, useColor } from '../color';
import { formatChainReport, formatDecisionLog } from '../formatters/log';
import { collect, fail, timeAgo, wholeNumber } from '../memory-access';
import { loadPolicyForCommand, reportDiagnostics, usageErrorsExit2 } from './explain';
import { projectRootOf } from './init';

interface LogFileOptions {
  file?: string;
  config: string[];
  projectDir?: string;
  json?: boolean;
}

interface LogOptions extends LogFileOptions {
  since?: number;
  until?: number;
  agent?: string[];
  rule?: string[];
  outcome?: string[];
  tool?: string[];
  event?: string[];
  session?: string[];
  limit?: number;
}

/** Broken links printed before "... and N more". */
const MAX_BREAKS_SHOWN = 20;

/** Registers `policy log [filters] [--json]` and `policy log verify [--head HASH]`. */
export function register(program: Command): void {
  const now = Date.now();
  const log = withFileOptions(program.command('log')
    .description('the decision log\'s records, filtered by time, agent, rule, outcome, tool, event or session; `log verify` checks its hash chain'))
    .option('--since <when>', 'records at or after a duration back from now (30m, 12h, 7d) or a time (2026-01-15, 2026-01-15T10:00:00Z)', timeAgo(now))
    .option('--until <when>', 'records at or before a duration back from now or a time', timeAgo(now))
    .option('--agent <names>', 'these agents only (repeatable or a comma list; main: the main session)', names('--agent'))
    .option('--rule <ids>', 'records naming one of these rules (repeatable or a comma list)', names('--rule'))
    .option('--outcome <outcomes>', `these outcomes only: ${RECORD_OUTCOMES.join(', ')} (repeatable or a comma list)`, outcomes)
    .option('--tool <names>', 'these tools only (repeatable or a comma list)', names('--tool'))
    .option('--event <names>', 'these hook events only (repeatable or a comma list)', names('--event'))
    .option('--session <ids>', 'these sessions only (repeatable or a comma list)', names('--session'))
    .option('--limit <n>', 'the newest this many matching records', wholeNumber(1, 10_000_000))
    .option('--json', 'the matching records as JSON lines, as logged (verify: one JSON object)')
    .action((options: LogOptions) => {
      const file = logFile(options, 'log');
      if (options.since !== undefined && options.until !== undefined && options.since > options.until) fail('log', '--since is later than --until');
      const read = readOrStop(() => readDecisionLog(file, filterOf(options)), 'log');
      if (!read) fail('log', `${shown(file)} does not exist yet`);
      if (read.skipped.length > 0) {
        const n = read.skipped.length;
        process.stderr.write(`policy log: ${n} line${n === 1 ? ' is' : 's are'} not a decision record (line ${read.skipped.slice(0, 5).join(', ')}${n > 5 ? ', ...' : ''}); policy log verify says more\n`);
      }
      if (options.json) {
        process.stdout.write(read.records.map((r) => `${r.text}\n`).join(''));
        return;
      }
      process.stdout.write(formatDecisionLog(read, shown(file), palette(useColor(process.env, process.stdout.isTTY === true))));
    });

  // --file, --config, --project-dir and --json are log's own options, before or after
  // `verify` (commander gives them to the parent): the subcommand reads them from there.
  log.command('verify')
    .description('check the decision log\'s hash chain: exit 0 intact, 1 broken (each broken link as file:line and why); takes log\'s --file, --config, --project-dir and --json')
    .option('--head <hash>', 'a head hash kept elsewhere earlier (printed by a previous verify): the log must still hold that line', headHash)
    .exitOverride(usageErrorsExit2)
    .action((own: { head?: string }, command: Command) => {
      const options = command.optsWithGlobals<LogOptions & { head?: string }>();
      const filters = FILTER_OPTIONS.filter((o) => options[o] !== undefined);
      if (filters.length > 0) fail('log verify', `verify reads the whole log: it takes no filter (${filters.map((f) => `--${f}`).join(', ')})`);
      const file = logFile(options, 'log verify');
      const report = readOrStop(() => verifyDecisionLog(file, own.head === undefined ? {} : { head: own.head }), 'log verify');
      if (!report) fail('log verify', `${shown(file)} does not exist yet`);
      if (options.json) {
        process.stdout.write(`${JSON.stringify({ file: path.resolve(file), ...report }, null, 2)}\n`);
      } else {
        for (const b of report.breaks.slice(0, MAX_BREAKS_SHOWN)) {
          process.stdout.write(`${formatDiagnostic(diagnostic('log-chain-broken', b.message, { file: shown(file), line: Math.max(1, b.line), column: 1 }))}\n`);
        }
        if (report.breaks.length > MAX_BREAKS_SHOWN) process.stdout.write(`... and ${report.breaks.length - MAX_BREAKS_SHOWN} more broken links\n`);
        process.stdout.write(formatChainReport(report, shown(file)));
      }
      if (report.breaks.length > 0) throw new CommanderError(1, 'policy.exit', '');
    });
}

const FILTER_OPTIONS = ['since', 'until', 'agent', 'rule', 'outcome', 'tool', 'event', 'session', 'limit'] as const;

function withFileOptions(command: Command): Command {
  return command
    .option('--file <file>', 'the log to read (default: the policy\'s settings.log.file)')
    .option('-c, --config <file>', 'policy file, for settings.log.file (repeatable; default: as the runner finds it)', collect, [])
    .option('--project-dir <dir>', 'project root (default: $CLAUDE_PROJECT_DIR, else the current folder)')
    .exitOverride(usageErrorsExit2);
}

/** --file, else the policy's settings.log.file under the project root. */
function logFile(options: LogFileOptions, command: string): string {
  if (options.file !== undefined) return path.resolve(options.file);
  const projectRoot = projectRootOf(options);
  const found = discoverPolicyFiles({ configs: options.config, env: process.env, projectRoot });
  if (found.length === 0 && options.config.length === 0) return fail(command, `no policy file in ${projectRoot}: give the log with --file`);
  const loaded = loadPolicyForCommand(options.config, projectRoot, process.env);
  reportDiagnostics(loaded.diagnostics);
  const logged = loaded.policy?.settings.log.file;
  if (!logged) return fail(command, 'the policy sets no settings.log.file: give the log with --file');
  return path.resolve(projectRoot, logged);
}

function readOrStop<T>(read: () => T, command: string): T {
  try {
    return read();
  } catch (e) {
    if (e instanceof LogReadError) return fail(command, e.message);
    throw e;
  }
}

/** The path as the user reads it: relative to the current folder when under it. */
function shown(file: string): string {
  const relative = path.relative(process.cwd(), file);
  return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative) ? relative : file;
}

function filterOf(o: LogOptions): DecisionLogFilter {
  const filter: DecisionLogFilter = {};
  if (o.since !== undefined) filter.sinceMs = o.since;
  if (o.until !== undefined) filter.untilMs = o.until;
  if (o.agent) filter.agents = o.agent;
  if (o.rule) filter.rules = o.rule;
  if (o.outcome) filter.outcomes = o.outcome;
  if (o.tool) filter.tools = o.tool;
  if (o.event) filter.events = o.event;
  if (o.session) filter.sessions = o.session;
  if (o.limit !== undefined) filter.limit = o.limit;
  return filter;
}

/** commander's parser for a repeatable option that also takes comma lists. */
function names(option: string): (value: string, previous: string[] | undefined) => string[] {
  return (value, previous) => {
    const items = value.split(',').map((s) => s.trim());
    if (items.some((s) => s === '')) throw new InvalidArgumentError(`${option} takes names, one or a comma list (a,b), none empty`);
    return [...(previous ?? []), ...items];
  };
}

function outcomes(value: string, previous: string[] | undefined): string[] {
  const items = names('--outcome')(value, undefined);
  const bad = items.filter((o) => !(RECORD_OUTCOMES as readonly string[]).includes(o));
  if (bad.length > 0) throw new InvalidArgumentError(`${bad.map((b) => `"${b}"`).join(', ')} is not an outcome: one of ${RECORD_OUTCOMES.join(', ')}`);
  return [...(previous ?? []), ...items];
}

function headHash(value: string): string {
  if (!HASH_PATTERN.test(value.toLowerCase())) throw new InvalidArgumentError('a SHA-256 hash, 64 hex digits, as verify prints it after "head"');
  return value.toLowerCase();
}
