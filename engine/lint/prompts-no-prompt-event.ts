/**
 * A rule with `prompts` whose `on` has no UserPromptSubmit: prompts tell a typed prompt
 * from a background subagent's notification, which only UserPromptSubmit carries, so the
 * rule never fires.
 */
import type { Diagnostic } from '../types';
import { defineCheck, report } from './check';

export const promptsNoPromptEvent = defineCheck({
  id: 'prompts-no-prompt-event',
  messages: {
    noPromptEvent: 'Rule "{id}" has prompts, but its events ({events}) have no UserPromptSubmit: it never fires',
  },
  check(ctx) {
    const out: Diagnostic[] = [];
    for (const rule of ctx.rules) {
      if (rule.raw.prompts === undefined || rule.events.length === 0 || rule.events.includes('UserPromptSubmit')) continue;
      out.push(report(this, {
        messageId: 'noPromptEvent',
        data: { id: rule.id, events: rule.events.join(', ') },
        at: ctx.at(rule, ['prompts'], 'key'),
        hint: 'prompts only tell UserPromptSubmit prompts apart: add UserPromptSubmit to "on", or remove prompts',
      }));
    }
    return out;
  },
});
