/**
 * An outcome Claude Code honours on an event, but a host the project runs the runner under
 * cannot: it becomes the strictest one the host can (render.ts), and the rule's author
 * should know. Codex takes only deny on PreToolUse, so an ask is denied there and an allow
 * says nothing; Gemini's BeforeTool takes no context.
 */
import { outcomeSupport, outcomeSupportOf, type EventProtocol } from '../protocol';
import { HOSTS } from '../hosts/registry';
import type { Diagnostic, Outcome } from '../types';
import { defineCheck, report } from './check';

export const hostOutcomeDegraded = defineCheck({
  id: 'host-outcome-degraded',
  messages: {
    degraded: 'Rule "{id}": under {host}, {outcome} on {event}{hostEvent} {effect}',
  },
  check(ctx) {
    const out: Diagnostic[] = [];
    for (const used of ctx.hosts) {
      const info = HOSTS[used.host];
      for (const rule of ctx.rules) {
        if (!rule.outcome) continue;
        for (const event of rule.events) {
          const hostEvent = info.eventFor(event);
          if (!hostEvent || !outcomeSupport(event, rule.outcome).supported) continue;
          const row = info.protocol(event);
          if (outcomeSupportOf(row, rule.outcome).supported) continue;
          out.push(report(this, {
            messageId: 'degraded',
            data: { id: rule.id, host: info.title, outcome: rule.outcome, event, hostEvent: hostEvent === event ? '' : ` (${hostEvent})`, effect: effectOf(row, rule.outcome, info.title) },
            at: ctx.at(rule, [rule.outcome], 'key'),
            hint: 'docs/hosts/index.md says what each outcome becomes per host',
          }));
        }
      }
    }
    return out;
  },
});

/** What the runner answers instead, as render.ts's applyInstead does. */
function effectOf(row: EventProtocol, outcome: Outcome, title: string): string {
  const can = (o: Outcome) => outcomeSupportOf(row, o).supported;
  if (outcome === 'allow') return `says nothing: ${title}'s own approval decides`;
  if ((outcome === 'ask' || outcome === 'block') && can('deny')) return 'is denied instead';
  if ((outcome === 'ask' || outcome === 'deny') && can('block')) return 'blocks instead';
  if (outcome === 'context') return 'cannot reach the model';
  if (outcome === 'warn') return 'is shown to nobody';
  return 'has no effect';
}
