/**
 * `policy stats`: what the hooks measured and decided. Per tool and per agent from the
 * store's `metric` records (count, failures, durations), per rule from the decision log
 * (settings.log.file). docs/commands/stats.md.
 */
import * as path from 'path';
import type { Command } from 'commander';
import { aggregateMetrics, type MetricsAggregate } from '../../engine/memory/metrics';
import { ruleStats, type RuleStats } from '../../engine/host/decision-log-stats';
import { formatStats, type StatsReport } from '../formatters/stats';
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
      const { projectRoot, policy, store } = commandStore(options, 'stats');
      const filter = { ...(options.session !== undefined ? { session: options.session } : {}), ...(options.since !== undefined ? { sinceMs: options.since } : {}) };
      const report: StatsReport = { metrics: null, rules: null };
      report.metrics = withIndex(store, 'stats', (index): MetricsAggregate | null => (index ? aggregateMetrics([...index.each({ kind: 'metric', ...filter })]) : null));
      if (!report.metrics) report.metricsNote = 'the memory store is empty';
      const logFile = policy?.settings.log.file ?? null;
      const rules: RuleStats | null = logFile ? ruleStats(path.resolve(projectRoot, logFile), filter) : null;
      report.rules = rules;
      if (!rules) report.rulesNote = logFile ? `${logFile} does not exist yet` : 'the policy sets no settings.log.file';
      process.stdout.write(options.json ? `${JSON.stringify(report, null, 2)}\n` : formatStats(report));
    });
}
