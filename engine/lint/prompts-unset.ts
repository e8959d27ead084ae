/**
 * A UserPromptSubmit rule that blocks or adds context, with no `prompts`: it also fires
 * for the `<task-notification>` prompt Claude Code sends when a background subagent
 * finishes (measured by the real-client suite), adding its context once per subagent or
 * erasing the notification.
 */
import type { Diagnostic } from '../types';
import { defineCheck, report } from './check';

export const promptsUnset = defineCheck({
  id: 'prompts-unset',
  messages: {
    unset: 'Rule "{id}" ({outcome} on UserPromptSubmit) also fires for the notifications of finished background subagents',
  },
  check(ctx) {
    const out: Diagnostic[] = [];
    for (const rule of ctx.rules) {
      const outcome = rule.outcome;
      if (rule.raw.prompts !== undefined || !rule.events.includes('UserPromptSubmit')) continue;
      if (outcome !== 'block' && outcome !== 'context') continue;
      out.push(report(this, {
        messageId: 'unset',
        data: { id: rule.id, outcome },
        at: ctx.at(rule, [outcome], 'key'),
        hint: 'add "prompts: user" for typed prompts only, or "prompts: [user, task-notification]" to keep both',
      }));
    }
    return out;
  },
});
