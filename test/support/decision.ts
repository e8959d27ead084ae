/**
 * A Decision built by hand from the rules that fired, for the renderer's and the host
 * adapters' tests: the deciding rules are those whose outcome is the final one.
 */
import type { Decision, RuleHit } from '../../engine/types';

/**
 * @example firedDecision('PreToolUse', 'deny', [['r', 'deny', 'no']]).reason // 'no'
 */
export function firedDecision(event: string, outcome: Decision['outcome'], fired: Array<[string, RuleHit['outcome'], string]>): Decision {
  const hits = fired.map(([id, o, message]) => ({ id, outcome: o, message, source: { file: 'p.yaml', line: 1, column: 1 } }));
  const decidedBy = hits.filter((h) => h.outcome === outcome);
  return {
    event, agent: null, tool: null, outcome, reason: decidedBy.map((h) => h.message).join('\n') || null, decidedBy, hits,
    contexts: hits.filter((h) => h.outcome === 'context').map((h) => h.message), warnings: hits.filter((h) => h.outcome === 'warn').map((h) => h.message),
    trace: [], bypass: null, errors: [],
  };
}
