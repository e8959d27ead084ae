/**
 * The rule index answers "which rules can apply to this event and tool" without scanning
 * every rule: rules are bucketed by event, then by exact tool name; rules with wildcard
 * tool patterns or no tool filter are kept in their own lists.
 */
import type { CompiledRule, RuleIndex } from './types';

/** Builds the index for rules in policy order. */
export function buildRuleIndex(rules: readonly CompiledRule[]): RuleIndex {
  const byEvent: RuleIndex['byEvent'] = {};
  rules.forEach((rule, i) => {
    for (const event of rule.events) {
      const bucket = (byEvent[event] ??= { byTool: {}, patterned: [], anyTool: [] });
      if (!rule.tools) {
        bucket.anyTool.push(i);
        continue;
      }
      for (const name of rule.tools.names) (bucket.byTool[name] ??= []).push(i);
      if (rule.tools.patterns.length > 0) bucket.patterned.push(i);
    }
  });
  return { byEvent };
}

/**
 * Indices of the rules that may apply to `event` and `tool`, ascending (= policy order).
 * Patterned rules are candidates only; the evaluator still tests their patterns.
 * @example candidateRules(index, 'PreToolUse', 'Write') // [0, 3, 7]
 */
export function candidateRules(index: RuleIndex, event: string, tool: string | null): number[] {
  const bucket = index.byEvent[event];
  if (!bucket) return [];
  const exact = tool !== null && Object.prototype.hasOwnProperty.call(bucket.byTool, tool) ? bucket.byTool[tool] : [];
  const parts = [bucket.anyTool, exact, tool === null ? [] : bucket.patterned];
  const nonEmpty = parts.filter((p) => p.length > 0);
  if (nonEmpty.length === 1) return nonEmpty[0];
  return [...new Set(nonEmpty.flat())].sort((a, b) => a - b);
}
