/**
 * `final: true` on a rule that never stops anything: only a deny or a block stops the
 * chain, so on a warn, context, ask, allow or record-only rule `final` does nothing.
 */
import type { Diagnostic } from '../types';
import { defineCheck, report } from './check';

export const finalCannotStop = defineCheck({
  id: 'final-cannot-stop',
  messages: {
    cannotStop: 'Rule "{id}" is final, but it {does}: only a deny or a block stops the chain',
  },
  check(ctx) {
    const out: Diagnostic[] = [];
    for (const rule of ctx.rules) {
      if (rule.raw.final !== true || rule.outcome === 'deny' || rule.outcome === 'block') continue;
      out.push(report(this, {
        messageId: 'cannotStop',
        data: { id: rule.id, does: rule.outcome ? `answers ${rule.outcome}` : 'only records' },
        at: ctx.at(rule, ['final'], 'key'),
        hint: 'remove final, or make the rule deny or block',
      }));
    }
    return out;
  },
});
