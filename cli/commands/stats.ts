/**
 * `policy stats`: what the hooks measured and decided. Per tool and per agent from the
 * store's `metric` records (count, failures, durations), per rule from the decision log
 * (settings.log.file), and the fail-open counter (engine/host/fail-open/). docs/commands/stats.md.
 */
import * as path from 'path';
import type { Command } from 'commander';
import { aggregateMetrics, type MetricsAggregate } from '../../engine/memory/metrics';
import { ruleStats, type RuleStats } from '../../engine/host/decision-log-stats';
import { readFailOpens } from '../../engine/host/fail-open';
import { formatFailOpens, formatStats, type FailOpenStats, type StatsReport } from '../formatters/stats';
import { projectRootOf } from './init';
import { collect, commandStore, timeAgo, withIndex, type StoreCommandOptions } from '../memory-access';
import { usageErrorsExit2 } from './explain';

interface StatsOptions extends StoreCommandOptions {
  session?: string;
  since?: number;
}

/** Registers `policy stats [--session ID] [--since WHEN] [--json] [--config F]... [--project-dir D]`. */
export function register(program: Command): void {
  program
    .command('stats')
    .description('per tool, per agent (metric records in the memory store) and per rule (the decision log): calls, failures, durations, outcomes')
    .option('--session <id>', 'one session only')
    .option('--since <when>', 'from a duration back from now (30m, 12h, 7d) or a date (2026-01-15)', timeAgo(Date.now()))
    .option('--json', 'print JSON instead of text')
    .option('-c, --config <file>', 'policy file (repeatable; default: as the runner finds it)', collect, [])
    .option('--project-dir <dir>', 'project root (default: $CLAUDE_PROJECT_DIR, else the current folder)')
    .exitOverride(usageErrorsExit2)
    .action((options: StatsOptions) => {
      let opened: ReturnType<typeof commandStore>;
      try {
        opened = commandStore(options, 'stats');
      } catch (e) {
        // A policy that does not build is what fails a guard open: its count is shown all the same.
        const failOpens = failOpenStats(projectRootOf(options), options);
        process.stdout.write(options.json ? `${JSON.stringify({ metrics: null, rules: null, failOpens }, null, 2)}\n` : formatFailOpens(failOpens));
        throw e;
      }
      const { projectRoot, policy, store } = opened;
      const filter = { ...(options.session !== undefined ? { session: options.session } : {}), ...(options.since !== undefined ? { sinceMs: options.since } : {}) };
      const report: StatsReport = { metrics: null, rules: null, failOpens: failOpenStats(projectRoot, options) };
      report.metrics = withIndex(store, 'stats', (index): MetricsAggregate | null => (index ? aggregateMetrics([...index.each({ kind: 'metric', ...filter })]) : null));
      if (!report.metrics) report.metricsNote = 'the memory store is empty';
      const logFile = policy?.settings.log.file ?? null;
      const rules: RuleStats | null = logFile ? ruleStats(path.resolve(projectRoot, logFile), filter) : null;
      report.rules = rules;
      if (!rules) report.rulesNote = logFile ? `${logFile} does not exist yet` : 'the policy sets no settings.log.file';
      process.stdout.write(options.json ? `${JSON.stringify(report, null, 2)}\n` : formatStats(report));
    });
}

/** This project's fail-opens (and fail-closes) from the per-user counter, under the same filters. */
function failOpenStats(projectRoot: string, options: StatsOptions): FailOpenStats {
  const read = readFailOpens({ env: process.env, projectRoot, ...(options.since !== undefined ? { since: options.since } : {}) });
  const keep = (r: { session_id: string | null }) => options.session === undefined || r.session_id === options.session;
  const records = read.records.filter(keep);
  const last = records[records.length - 1] ?? null;
  const failClosed = options.session === undefined ? read.failClosed : read.closed.filter(keep).length;
  return {
    count: records.length, last: last && { time: last.time, code: last.code, event: last.event, tool: last.tool, message: last.message }, failClosed,
    ...(read.problems.length > 0 ? { problems: read.problems } : {}),
  };
}
