/**
 * Placeholder values for one rule: `let` values first, then the special names
 * (docs/language.md "Templates"), then any event field by dotted path.
 */
import type { CompiledRule, Diagnostic, Outcome } from '../types';
import { getField, valueText } from './fields';
import { PATTERN_PREFIX } from './path-template';
import type { EventScope } from './scope';

/** What a rule has computed so far, beyond the event itself. */
export interface RuleValues {
  /** `let` values and their sub-fields (`name`, `name.path`, `name.dir`, `name.file`). */
  lets: Map<string, string> | null;
  /** Paths caught by the rule's `paths` filter, or null when it has none. */
  caught: string[] | null;
  /** The `{{unmet}}` text, once `require` has run. */
  unmet: string | null;
  /** For a shell command under `paths`: the paths it writes, which `{{path}}`/`{{paths}}` show. */
  written?: string[];
  /** Why the shell command's written paths cannot all be known. */
  uncheckedReason?: string;
  /** The command could not be checked: the rule's `unparsable` outcome and this message replace its own. */
  unchecked?: { outcome: Outcome; message: string; sandbox?: true };
  /** The input was too large to check (`unchecked` then holds the `oversized` outcome): reported on the rule. */
  oversized?: Diagnostic;
}

/**
 * A lookup function for renderTemplate, renderStrict and renderPathTemplate.
 * @example lookupFor(scope, rule, { lets: null, caught: ['src/a.ts'], unmet: null })('path') // 'src/a.ts'
 */
export function lookupFor(scope: EventScope, rule: CompiledRule, values: RuleValues): (name: string) => string | undefined {
  return (placeholder) => {
    // `{{glob:name}}` asks for the value as a pattern in a path template (path-template.ts); elsewhere it is the value.
    const name = placeholder.startsWith(PATTERN_PREFIX) ? placeholder.slice(PATTERN_PREFIX.length) : placeholder;
    const own = values.lets?.get(name);
    if (own !== undefined) return own;
    switch (name) {
      case 'event': return scope.eventName;
      case 'agent': return scope.agent ?? '';
      case 'tool': return scope.tool ?? undefined;
      case 'path': return values.caught?.[0] ?? (values.written ?? scope.touched)[0];
      case 'paths': {
        const touched = values.written ?? scope.touched;
        return touched.length > 0 ? touched.join(', ') : undefined;
      }
      case 'command': {
        const command = getField(scope.event, 'tool_input.command');
        return typeof command === 'string' ? command : undefined;
      }
      case 'rule': return rule.id;
      case 'unmet': return values.unmet ?? undefined;
      case 'project': return scope.project;
    }
    if (name.startsWith('env.')) return scope.ctx.env[name.slice(4)];
    return valueText(getField(scope.event, name));
  };
}
