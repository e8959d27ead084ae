/**
 * A deny/block/ask message the model never reads. Claude cannot act on a block reason
 * shown only to the user, so wording it as an instruction for the model is a mistake.
 */
import { outcomeSupport, protocolFor } from '../protocol';
import type { Diagnostic } from '../types';
import { defineCheck, report } from './check';

/** Words that address the model ("use X instead", "you must ..."): an ask message should address the user. */
const MODEL_INSTRUCTION = /\b(you|your|instead|must|should|please|do not|don't|never)\b/i;

export const messageUserOnly = defineCheck({
  id: 'message-user-only',
  messages: {
    user: 'Rule "{id}": the {outcome} message on {event} is shown to the user only; the model never reads it',
    nowhere: 'Rule "{id}": the {outcome} message on {event} is shown to nobody',
    ask: 'Rule "{id}": the ask message on {event} is shown to the user in the permission prompt, not to the model',
  },
  check(ctx) {
    const out: Diagnostic[] = [];
    for (const rule of ctx.rules) {
      const outcome = rule.outcome;
      if (outcome !== 'deny' && outcome !== 'block' && outcome !== 'ask') continue;
      for (const event of rule.events) {
        const p = protocolFor(event);
        if (!p || p.unsupported) continue;
        const support = outcomeSupport(event, outcome);
        if (!support.supported) continue; // outcome-impossible reports it
        const at = ctx.at(rule, [outcome]);
        const data = { id: rule.id, outcome, event };
        if (outcome === 'ask') {
          if (!MODEL_INSTRUCTION.test(rule.message)) continue;
          out.push(report(this, { messageId: 'ask', data, at, severity: 'info', hint: 'write it for the person who approves the call' }));
        } else if (support.audience === 'user') {
          out.push(report(this, { messageId: 'user', data, at, hint: `${event} shows it to the user (${support.via}); address the user, or use context to tell the model` }));
        } else if (support.audience === 'nowhere') {
          out.push(report(this, { messageId: 'nowhere', data, at, hint: `Claude Code records the ${outcome} on ${event} but shows its reason nowhere` }));
        }
      }
    }
    return out;
  },
});
