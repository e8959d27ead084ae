/**
 * A policy regular expression (`command`, `let.extract`) that can backtrack
 * catastrophically. Such patterns run under the evaluator's watchdog; a text that makes
 * them blow up stops the rule with a regex-unsafe error, and on_error decides.
 */
import { WATCHDOG_MS } from '../evaluate/regex';
import { superLinearReason } from '../evaluate/regex-safety';
import type { Diagnostic } from '../types';
import { defineCheck, report } from './check';
import type { LintContext, LintRule } from './context';

interface PolicyRegex {
  source: string;
  flags: string;
  segments: Array<string | number>;
}

export const regexUnsafe = defineCheck({
  id: 'regex-unsafe',
  messages: {
    backtracks: 'Rule "{id}": /{source}/ can backtrack catastrophically ({reason}); it runs under a {ms} ms watchdog, and a command that trips it fails the rule',
  },
  check(ctx) {
    const out: Diagnostic[] = [];
    for (const rule of ctx.rules) {
      for (const regex of policyRegexes(rule)) {
        const reason = superLinearReason(regex.source, regex.flags);
        if (reason === null) continue;
        out.push(report(this, {
          messageId: 'backtracks',
          severity: 'warning',
          data: { id: rule.id, source: shortened(regex.source), reason, ms: WATCHDOG_MS },
          at: (ctx as LintContext).at(rule, regex.segments),
          hint: 'avoid nested or overlapping quantifiers such as (a+)+ or (a|a)*',
        }));
      }
    }
    return out;
  },
});

function policyRegexes(rule: LintRule): PolicyRegex[] {
  const found: PolicyRegex[] = [];
  const command = rule.raw.command;
  if (typeof command === 'string') found.push({ source: command, flags: '', segments: ['command'] });
  if (Array.isArray(command)) {
    command.forEach((c, i) => {
      if (typeof c === 'string') found.push({ source: c, flags: '', segments: ['command', i] });
    });
  }
  for (const [name, value] of Object.entries(rule.raw.let ?? {})) {
    if (value && typeof value.extract === 'string') found.push({ source: value.extract, flags: 'm', segments: ['let', name, 'extract'] });
  }
  return found;
}

/** Long patterns are cut in messages; the position points at the whole one. */
function shortened(source: string): string {
  return source.length <= 60 ? source : `${source.slice(0, 57)}...`;
}
