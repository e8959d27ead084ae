/**
 * `{{glob:name}}`: a templated path that asks for an event's value as a glob pattern. By
 * default a value is a name (path-template.ts), so a teammate named `*` or
 * `researcher-?` finds its own notes only; read as a pattern, such a value also matches
 * other names' files. Noted so the choice is seen; outside a glob the prefix does nothing
 * (a record's or a search's `{{glob:name}}` is noted the same way).
 */
import { PATTERN_PREFIX } from '../evaluate/path-template';
import { templateNames } from '../evaluate/template';
import type { Diagnostic } from '../types';
import { defineCheck, report } from './check';
import type { LintContext, LintRule } from './context';
import { templatesOf } from './template-unknown-value';

export const templatePattern = defineCheck({
  id: 'template-pattern',
  messages: {
    pattern: 'Rule "{id}": {{{placeholder}}} reads {name} as a glob pattern: a value such as "*" or "{a,b}" also matches other names\' files',
    noGlob: 'Rule "{id}": {{{placeholder}}} is not in a glob, so "{prefix}" does nothing here',
  },
  check(ctx) {
    const out: Diagnostic[] = [];
    for (const rule of ctx.rules) {
      for (const t of templatesOf(rule)) {
        if (!t.text.includes(`{{${PATTERN_PREFIX}`)) continue;
        for (const placeholder of templateNames(t.text)) {
          if (!placeholder.startsWith(PATTERN_PREFIX)) continue;
          const name = placeholder.slice(PATTERN_PREFIX.length);
          out.push(report(this, {
            messageId: t.glob ? 'pattern' : 'noGlob',
            data: { id: rule.id, placeholder, name, prefix: PATTERN_PREFIX },
            at: at(ctx, rule, t.segments, t.text, placeholder),
            hint: t.glob ? `write {{${name}}} to match the value as written` : `write {{${name}}}`,
          }));
        }
      }
    }
    return out;
  },
});

function at(ctx: LintContext, rule: LintRule, segments: Array<string | number>, text: string, placeholder: string) {
  return ctx.atOffset(rule, segments, text.indexOf(`{{${placeholder}`));
}
