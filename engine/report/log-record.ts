/**
 * One line of the decision log as the report reads it: the fields it shows, checked for
 * their types. A line that is not JSON, or lacks a time or a known outcome, is garbled.
 */
import { jsonObject } from '../json-object';

/** The outcomes of a decision record, in the order the report shows them. */
export const OUTCOMES = ['deny', 'ask', 'block', 'allow', 'none'] as const;
export type ReportOutcome = (typeof OUTCOMES)[number];

/** What the report reads from a decision record (engine/host/decision-log.ts `DecisionRecord`). */
export interface ReportRecord {
  timeMs: number;
  time: string;
  event: string;
  tool: string | null;
  agent: string | null;
  outcome: ReportOutcome;
  rules: string[];
  paths: string[];
  command: string | null;
  errors: string[];
  bypass: { env: string } | null;
  /** The runner answered without judging the event (`fail_open: true`, written by engine/host/fail-open/). */
  failOpen: boolean;
}

/** The event of a record that names none. */
export const UNKNOWN_EVENT = '(unknown)';

const OUTCOME_SET: ReadonlySet<string> = new Set(OUTCOMES);

/**
 * The record of one log line; null for a garbled line (not JSON, or no time or outcome).
 * @example parseLogLine('{"time":"2026-01-14T09:15:00.000Z","outcome":"deny","rules":["r"]}')?.outcome // 'deny'
 */
export function parseLogLine(line: string): ReportRecord | null {
  const r = jsonObject(line);
  if (r === null) return null;
  if (typeof r.time !== 'string' || typeof r.outcome !== 'string' || !OUTCOME_SET.has(r.outcome)) return null;
  const timeMs = Date.parse(r.time);
  if (!Number.isFinite(timeMs)) return null;
  const bypass = r.bypass !== null && typeof r.bypass === 'object' ? (r.bypass as Record<string, unknown>) : null;
  return {
    timeMs,
    time: r.time,
    event: typeof r.event === 'string' ? r.event : UNKNOWN_EVENT,
    tool: typeof r.tool === 'string' ? r.tool : null,
    agent: typeof r.agent === 'string' ? r.agent : null,
    outcome: r.outcome as ReportOutcome,
    rules: strings(r.rules),
    paths: strings(r.paths),
    command: typeof r.command === 'string' && r.command !== '' ? r.command : null,
    errors: strings(r.errors),
    bypass: bypass ? { env: typeof bypass.env === 'string' ? bypass.env : '(unknown)' } : null,
    failOpen: r.fail_open === true,
  };
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((s): s is string => typeof s === 'string') : [];
}
