/**
 * The policy's broken rules (left out by the compiler) as one event meets them: every
 * event reports them, and those that could have judged the event leave it to on_error.
 */
import type { BrokenRule, BrokenRuleReport } from '../types';
import { anyMatch } from './regex';

/**
 * One report per broken rule; `event` null for an event the runner does not know, which no
 * rule can judge.
 * @example brokenReports(policy.broken ?? [], 'PreToolUse', 'Write') // [{ name: 'no-src-writes', covers: true, ... }]
 */
export function brokenReports(broken: readonly BrokenRule[], event: string | null, tool: string | null): BrokenRuleReport[] {
  return broken
    .map((b) => ({ rule: b, report: { kind: b.kind, name: b.name, covers: event !== null && covers(b, event, tool), diagnostics: b.diagnostics } }))
    .filter(({ rule, report }) => report.covers || !rule.onlyWhereItJudges)
    .map(({ report }) => report);
}

/** As the rule index reads a rule: its events (any when unknown), and its tools only where the event has a tool. */
function covers(b: BrokenRule, event: string, tool: string | null): boolean {
  if (b.events && !b.events.includes(event)) return false;
  if (!b.tools) return true;
  return tool !== null && (b.tools.names.includes(tool) || anyMatch(b.tools.patterns, tool));
}
