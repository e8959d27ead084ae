/**
 * A rule that records or reads the memory store while `settings.memory.store` is false:
 * its records go nowhere and its store-reading lets always fail.
 */
import type { Diagnostic } from '../types';
import { defineCheck, report } from './check';

const MEMORY_LETS = ['count', 'last', 'summaries', 'search', 'summary', 'metrics'];

export const memoryOff = defineCheck({
  id: 'memory-off',
  messages: {
    record: 'Rule "{id}" records, but settings.memory.store is false: nothing is stored',
    let: 'Rule "{id}": let "{name}" reads the memory store, but settings.memory.store is false: it always fails',
  },
  check(ctx) {
    if (!ctx.policy || ctx.policy.settings.memory?.dir !== null) return [];
    const out: Diagnostic[] = [];
    const hint = 'remove `store: false` from settings.memory, or the rule\'s record and store-reading lets';
    for (const rule of ctx.rules) {
      if (rule.raw.record !== undefined) out.push(report(this, { messageId: 'record', data: { id: rule.id }, at: ctx.at(rule, ['record'], 'key'), hint }));
      const lets = rule.raw.let && typeof rule.raw.let === 'object' ? Object.entries(rule.raw.let) : [];
      for (const [name, value] of lets) {
        if (!value || typeof value !== 'object' || !MEMORY_LETS.some((k) => (value as Record<string, unknown>)[k] !== undefined)) continue;
        out.push(report(this, { messageId: 'let', data: { id: rule.id, name }, at: ctx.at(rule, ['let', name], 'key'), hint }));
      }
    }
    return out;
  },
});
