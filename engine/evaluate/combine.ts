/**
 * Combining the rules that fired into one outcome: deny/block beat ask beat allow;
 * contexts and warnings accumulate in rule order.
 */
import type { EventProtocol } from '../protocol';
import type { Decision, FinalOutcome, RuleHit } from '../types';

export type Combined = Pick<Decision, 'outcome' | 'reason' | 'decidedBy' | 'contexts' | 'warnings'>;

/**
 * The final outcome of the hits. A deny or block becomes 'deny' on events with a
 * permission decision (PreToolUse, PermissionRequest, PreModelSwitch), else 'block'.
 * @example combineHits([askHit, denyHit], protocolFor('PreToolUse')!).outcome // 'deny'
 */
export function combineHits(hits: readonly RuleHit[], protocol: EventProtocol): Combined {
  const stops: RuleHit[] = [];
  const asks: RuleHit[] = [];
  const allows: RuleHit[] = [];
  const contexts: string[] = [];
  const warnings: string[] = [];
  for (const hit of hits) {
    switch (hit.outcome) {
      case 'deny':
      case 'block': stops.push(hit); break;
      case 'ask': asks.push(hit); break;
      case 'allow': allows.push(hit); break;
      case 'context': contexts.push(hit.message); break;
      case 'warn': warnings.push(hit.message); break;
    }
  }
  let outcome: FinalOutcome = 'none';
  let decidedBy: RuleHit[] = [];
  if (stops.length > 0) {
    outcome = protocol.permission ? 'deny' : 'block';
    decidedBy = stops;
  } else if (asks.length > 0) {
    outcome = 'ask';
    decidedBy = asks;
  } else if (allows.length > 0) {
    outcome = 'allow';
    decidedBy = allows;
  }
  const reason = decidedBy.length > 0 ? decidedBy.map((h) => h.message).join('\n') : null;
  return { outcome, reason, decidedBy, contexts, warnings };
}
