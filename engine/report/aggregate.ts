/**
 * The report's numbers from the decision log, line by line: counts by outcome over time,
 * per agent, per rule and per tool, the paths and commands denied most often, errors and
 * bypasses. Pure: lines in, a `ReportData` out; memory grows with distinct keys (each cut
 * to a bounded length), not with lines, except one time and outcome per decision for the
 * timeline.
 */
import { clip } from './escape';
import { OUTCOMES, parseLogLine, UNKNOWN_EVENT, type ReportOutcome, type ReportRecord } from './log-record';
import { timeline, type Timeline } from './timeline';

export type OutcomeCounts = Record<ReportOutcome, number> & { total: number };

/** The first rows of a table, largest first, and what the rest add up to. */
export interface Ranked<T> {
  rows: { key: string; value: T }[];
  /** Keys left out, and their total (decisions, or namings for rules). */
  more: { keys: number; total: number };
}

export interface RecentError extends Pick<ReportRecord, 'time' | 'event' | 'tool' | 'agent' | 'outcome' | 'rules'> {
  /** The first error of the record. */
  message: string;
  /** Answered without judging the event (`fail_open: true`). */
  unjudged: boolean;
  /** How many more errors the record has. */
  others: number;
}

export interface ReportData {
  /** Decision records in the period. */
  decisions: number;
  /** Lines skipped: not JSON, or without a time or a known outcome (blank lines are not counted). */
  garbled: number;
  /** Records outside --since/--until. */
  outside: number;
  /** The earliest and latest record of the period (ISO), null without any. */
  first: string | null;
  last: string | null;
  outcomes: OutcomeCounts;
  timeline: Timeline | null;
  agents: Ranked<OutcomeCounts>;
  /** Each decision counts once for every rule it names. */
  rules: Ranked<OutcomeCounts>;
  tools: Ranked<OutcomeCounts>;
  /** Over the decisions whose outcome is deny. */
  deniedPaths: Ranked<number>;
  deniedCommands: Ranked<number>;
  errors: {
    /** Decisions logged with errors. */
    decisions: number;
    /** Of those, the ones whose outcome let the call through (allow or none): failed open. */
    letThrough: number;
    /** Of those, the ones the runner answered without judging the event at all (`fail_open: true`). */
    unjudged: number;
    /** By diagnostic code (`expression-error`, ...). */
    codes: Ranked<number>;
    messages: Ranked<number>;
    /** The latest, newest first. */
    recent: RecentError[];
  };
  bypasses: { decisions: number; envs: Ranked<number> };
}

export interface ReportOptions {
  /** Records at or after this time (epoch ms). */
  sinceMs?: number;
  /** Records before this time (epoch ms). */
  untilMs?: number;
  /** Rows per table (default 25). */
  top?: number;
  /** Latest error records shown (default 10). */
  recentErrors?: number;
}

/** Keys longer than this are cut before counting: an agent cannot grow the maps without bound per key. */
const KEY_MAX = 400;

export interface ReportAggregator {
  /** One line of the log (without its newline). */
  add(line: string): void;
  /** A line the reader had to drop whole (longer than it reads): counted as garbled. */
  addGarbled(): void;
  result(): ReportData;
}

/**
 * A fresh aggregator over `options`' period.
 * @example const a = reportAggregator({}); a.add(line); a.result().decisions // 1
 */
export function reportAggregator(options: ReportOptions = {}): ReportAggregator {
  const top = options.top ?? 25;
  const recentMax = options.recentErrors ?? 10;
  let decisions = 0;
  let garbled = 0;
  let outside = 0;
  let times = new Float64Array(1024);
  let outcomeIndex = new Uint8Array(1024);
  const outcomes = counts();
  const agents = new Map<string, OutcomeCounts>();
  const rules = new Map<string, OutcomeCounts>();
  const tools = new Map<string, OutcomeCounts>();
  const deniedPaths = new Map<string, number>();
  const deniedCommands = new Map<string, number>();
  const errorCodes = new Map<string, number>();
  const errorMessages = new Map<string, number>();
  const recent: { timeMs: number; error: RecentError }[] = [];
  const bypassEnvs = new Map<string, number>();
  let errorDecisions = 0;
  let letThrough = 0;
  let unjudged = 0;
  let bypasses = 0;

  function addRecord(r: ReportRecord): void {
    if (decisions === times.length) {
      times = grown(times, new Float64Array(times.length * 2));
      outcomeIndex = grown(outcomeIndex, new Uint8Array(outcomeIndex.length * 2));
    }
    times[decisions] = r.timeMs;
    outcomeIndex[decisions] = OUTCOMES.indexOf(r.outcome);
    decisions++;
    bump(outcomes, r.outcome);
    bump(countsOf(agents, r.agent ?? '(main)'), r.outcome);
    bump(countsOf(tools, r.tool ?? toolless(r.event)), r.outcome);
    for (const rule of new Set(r.rules)) bump(countsOf(rules, rule), r.outcome);
    if (r.outcome === 'deny') {
      for (const p of new Set(r.paths)) increment(deniedPaths, p);
      if (r.command !== null) increment(deniedCommands, r.command);
    }
    if (r.errors.length > 0) addErrors(r);
    if (r.bypass) {
      bypasses++;
      increment(bypassEnvs, r.bypass.env);
    }
  }

  function addErrors(r: ReportRecord): void {
    errorDecisions++;
    if (r.outcome === 'allow' || r.outcome === 'none') letThrough++;
    if (r.failOpen) unjudged++;
    for (const e of r.errors) {
      increment(errorCodes, /(?:^|: )(?:error|warning|info) ([a-z0-9-]+): /.exec(e)?.[1] ?? '(no code)');
      increment(errorMessages, e);
    }
    const error: RecentError = { time: r.time, event: r.event, tool: r.tool, agent: r.agent, outcome: r.outcome, rules: r.rules, message: r.errors[0], others: r.errors.length - 1, unjudged: r.failOpen };
    // Kept newest first, at most recentMax: errors are few, and a flood costs recentMax per record.
    const at = recent.findIndex((x) => x.timeMs < r.timeMs);
    if (at === -1 && recent.length >= recentMax) return;
    recent.splice(at === -1 ? recent.length : at, 0, { timeMs: r.timeMs, error });
    if (recent.length > recentMax) recent.pop();
  }

  return {
    add(line) {
      if (line.trim() === '') return;
      const r = parseLogLine(line);
      if (!r) garbled++;
      else if ((options.sinceMs !== undefined && r.timeMs < options.sinceMs) || (options.untilMs !== undefined && r.timeMs >= options.untilMs)) outside++;
      else addRecord(r);
    },
    addGarbled() {
      garbled++;
    },
    result() {
      const spanTimes = times.subarray(0, decisions);
      let first = Infinity;
      let last = -Infinity;
      for (const t of spanTimes) {
        if (t < first) first = t;
        if (t > last) last = t;
      }
      return {
        decisions,
        garbled,
        outside,
        first: decisions > 0 ? new Date(first).toISOString() : null,
        last: decisions > 0 ? new Date(last).toISOString() : null,
        outcomes,
        timeline: decisions > 0 ? timeline(spanTimes, outcomeIndex.subarray(0, decisions), first, last) : null,
        agents: ranked(agents, top, (c) => c.total),
        rules: ranked(rules, top, (c) => c.total),
        tools: ranked(tools, top, (c) => c.total),
        deniedPaths: ranked(deniedPaths, top, (n) => n),
        deniedCommands: ranked(deniedCommands, top, (n) => n),
        errors: {
          decisions: errorDecisions,
          letThrough,
          unjudged,
          codes: ranked(errorCodes, top, (n) => n),
          messages: ranked(errorMessages, top, (n) => n),
          recent: recent.map((x) => x.error),
        },
        bypasses: { decisions: bypasses, envs: ranked(bypassEnvs, top, (n) => n) },
      };
    },
  };
}

/**
 * The report of a whole log's lines.
 * @example aggregateReport(text.split('\n'), { top: 10 }).rules.rows[0].key // 'no-env-writes'
 */
export function aggregateReport(lines: Iterable<string>, options: ReportOptions = {}): ReportData {
  const aggregator = reportAggregator(options);
  for (const line of lines) aggregator.add(line);
  return aggregator.result();
}

/** The tools table's row for an event without a tool: `(Stop)`; `(unreadable)` as the fail-open record names it. */
function toolless(event: string): string {
  if (event === UNKNOWN_EVENT) return '(none)';
  return event.startsWith('(') && event.endsWith(')') ? event : `(${event})`;
}

export function counts(): OutcomeCounts {
  return { deny: 0, ask: 0, block: 0, allow: 0, none: 0, total: 0 };
}

function bump(c: OutcomeCounts, outcome: ReportOutcome): void {
  c[outcome]++;
  c.total++;
}

function countsOf(map: Map<string, OutcomeCounts>, key: string): OutcomeCounts {
  const k = clip(key, KEY_MAX);
  let c = map.get(k);
  if (!c) map.set(k, (c = counts()));
  return c;
}

function increment(map: Map<string, number>, key: string): void {
  const k = clip(key, KEY_MAX);
  map.set(k, (map.get(k) ?? 0) + 1);
}

function grown<T extends Float64Array | Uint8Array>(from: T, to: T): T {
  to.set(from);
  return to;
}

/** The `top` largest entries (ties by key), and the count and total of the others. */
function ranked<T>(map: Map<string, T>, top: number, size: (v: T) => number): Ranked<T> {
  const entries = [...map].sort((a, b) => size(b[1]) - size(a[1]) || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  const rest = entries.slice(top);
  return {
    rows: entries.slice(0, top).map(([key, value]) => ({ key, value })),
    more: { keys: rest.length, total: rest.reduce((sum, [, v]) => sum + size(v), 0) },
  };
}
