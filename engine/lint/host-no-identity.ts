/**
 * A rule that names agents, under a host whose events name no acting agent (Gemini): it
 * cannot tell a subagent's call from the main session's, so the runner sets it aside there
 * and on_error answers the events it could have judged, visibly (engine/hosts/identity.ts).
 */
import { HOSTS } from '../hosts/registry';
import type { Diagnostic } from '../types';
import { defineCheck, report } from './check';

export const hostNoIdentity = defineCheck({
  id: 'host-no-identity',
  messages: {
    noIdentity: 'Rule "{id}" names agents, and {host} names no acting agent: under {host} the rule cannot judge an event, and on_error answers it',
  },
  check(ctx) {
    const out: Diagnostic[] = [];
    for (const used of ctx.hosts) {
      const info = HOSTS[used.host];
      if (info.identity) continue;
      for (const rule of ctx.rules) {
        if (rule.raw.agents === undefined) continue;
        out.push(report(this, { messageId: 'noIdentity', data: { id: rule.id, host: info.title }, at: ctx.at(rule, ['agents'], 'key') }));
      }
    }
    return out;
  },
});
