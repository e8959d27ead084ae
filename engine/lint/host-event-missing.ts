/** A rule on an event a host the project runs the runner under does not have: it never fires there. */
import { protocolFor } from '../protocol';
import { HOSTS } from '../hosts/registry';
import type { Diagnostic } from '../types';
import { defineCheck, onSegments, report } from './check';

export const hostEventMissing = defineCheck({
  id: 'host-event-missing',
  messages: {
    missing: 'Rule "{id}": {host} has no {event} event, so the rule never fires under {host}',
  },
  check(ctx) {
    const out: Diagnostic[] = [];
    for (const used of ctx.hosts) {
      const info = HOSTS[used.host];
      for (const rule of ctx.rules) {
        for (const event of rule.events) {
          if (!protocolFor(event) || info.eventFor(event) !== null) continue;
          out.push(report(this, { messageId: 'missing', data: { id: rule.id, host: info.title, event }, at: ctx.at(rule, onSegments(rule.raw, event)) }));
        }
      }
    }
    return out;
  },
});
