/**
 * A deny/block/ask message the model never reads. Claude cannot act on a block reason
 * shown only to the user, so wording it as an instruction for the model is a mistake.
 * An ask's reason on PreToolUse is shown to nobody in the interactive dialog (measured by
 * the real-client suite); only a headless run passes it to the model, as a refusal.
 */
import { outcomeSupport, protocolFor } from '../protocol';
import type { Diagnostic } from '../types';
import { defineCheck, report } from './check';

export const messageUserOnly = defineCheck({
  id: 'message-user-only',
  messages: {
    user: 'Rule "{id}": the {outcome} message on {event} is shown to the user only; the model never reads it',
    nowhere: 'Rule "{id}": the {outcome} message on {event} is shown to nobody',
    ask: 'Rule "{id}": the ask message on {event} is not shown in Claude Code\'s permission dialog; only a headless run (-p) passes it to the model, when it refuses the call',
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
          if (support.audience !== 'nowhere') continue;
          out.push(report(this, { messageId: 'ask', data, at, severity: 'info', hint: 'the person approving sees the tool and its input only; write the reason for the model, which reads it when a headless run refuses the call' }));
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
