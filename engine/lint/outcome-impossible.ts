/** An outcome the event cannot produce: the rule fires, and nothing happens. */
import { outcomeSupport, protocolFor } from '../protocol';
import type { Diagnostic } from '../types';
import { defineCheck, report } from './check';

export const outcomeImpossible = defineCheck({
  id: 'outcome-impossible',
  messages: {
    impossible: 'Rule "{id}": {outcome} has no effect on {event}',
  },
  check(ctx) {
    const out: Diagnostic[] = [];
    for (const rule of ctx.rules) {
      if (!rule.outcome) continue;
      for (const event of rule.events) {
        const p = protocolFor(event);
        if (!p || p.unsupported) continue;
        if (outcomeSupport(event, rule.outcome).supported) continue;
        out.push(report(this, {
          messageId: 'impossible',
          data: { id: rule.id, outcome: rule.outcome, event },
          at: ctx.at(rule, [rule.outcome], 'key'),
          hint: hintFor(event),
        }));
      }
    }
    return out;
  },
});

function hintFor(event: string): string {
  const works = (['deny', 'ask', 'allow', 'block', 'warn', 'context'] as const).filter((o) => outcomeSupport(event, o).supported);
  return works.length === 0
    ? `${event} takes no outcome at all; see docs/events.md`
    : `${event} supports: ${works.join(', ')} (docs/events.md)`;
}
