/**
 * on_error: closed on a rule of Stop, SubagentStop, TaskCompleted or TeammateIdle: init
 * writes `onFailure: "block"` so that a runner that cannot start refuses the call, but
 * Claude Code ignores onFailure on these events (measured, Claude Code 2.1.330), so there
 * a runner that cannot start lets the event through whatever the policy says.
 */
import { protocolFor } from '../protocol';
import type { Diagnostic } from '../types';
import { defineCheck, onSegments, report } from './check';
import { closedAt } from './http-fail-closed';

export const onFailureIgnored = defineCheck({
  id: 'on-failure-ignored',
  messages: {
    ignored: 'Rule "{id}": on_error is closed, but if the runner cannot start (node missing, a crash, a timeout) Claude Code lets {event} through: it ignores onFailure there',
  },
  check(ctx) {
    if (!closedAt(ctx)) return [];
    const out: Diagnostic[] = [];
    for (const rule of ctx.rules) {
      for (const event of rule.events) {
        if (!protocolFor(event)?.onFailureIgnored) continue;
        out.push(report(this, {
          messageId: 'ignored',
          data: { id: rule.id, event },
          at: ctx.at(rule, onSegments(rule.raw, event)),
          hint: 'keep node on PATH on every machine (policy init --check tells), or enforce the rule where a failed start refuses the call too (PreToolUse)',
        }));
      }
    }
    return out;
  },
});
