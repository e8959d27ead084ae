/** A rule on an event the runner must not be registered for (protocol row `unsupported`). */
import { protocolFor } from '../protocol';
import type { Diagnostic } from '../types';
import { defineCheck, onSegments, report } from './check';

export const unsupportedEvent = defineCheck({
  id: 'unsupported-event',
  messages: {
    unsupported: 'Rule "{id}" is on {event}, which the runner does not support: {why}',
  },
  check(ctx) {
    const out: Diagnostic[] = [];
    for (const rule of ctx.rules) {
      for (const event of rule.events) {
        const why = protocolFor(event)?.unsupported;
        if (!why) continue;
        out.push(report(this, {
          messageId: 'unsupported',
          data: { id: rule.id, event, why },
          at: ctx.at(rule, onSegments(rule.raw, event)),
          hint: `remove ${event} from "on"; a ${event} hook must be a dedicated script`,
        }));
      }
    }
    return out;
  },
});
