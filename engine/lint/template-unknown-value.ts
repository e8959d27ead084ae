/**
 * A `{{name}}` that has no value on any of the rule's events: a message renders it as
 * empty text, a templated path makes the rule never apply.
 */
import { PATTERN_PREFIX } from '../evaluate/path-template';
import { templateNames } from '../evaluate/template';
import type { Diagnostic, SourceLocation } from '../types';
import { defineCheck, report } from './check';
import type { LintContext, LintRule } from './context';
import { EVENT_FIELDS, eventCarries, isToolEvent } from './event-fields';

/** Values every event has (docs/language.md, Templates). */
const ALWAYS = new Set(['event', 'agent', 'rule', 'project']);
/** Values only a tool call has. */
const TOOL_ONLY = new Set(['tool', 'path', 'paths', 'command']);

export const templateUnknownValue = defineCheck({
  id: 'template-unknown-value',
  messages: {
    field: 'Rule "{id}": {{{name}}} has no value: {events} carries no field "{head}"',
    tool: 'Rule "{id}": {{{name}}} has no value: {events} carries no tool call',
    unmet: 'Rule "{id}": {{unmet}} has a value only on a rule with require',
  },
  check(ctx) {
    const out: Diagnostic[] = [];
    for (const rule of ctx.rules) {
      const events = rule.events.filter((e) => EVENT_FIELDS[e] !== undefined);
      if (events.length === 0) continue;
      for (const t of templatesOf(rule)) {
        for (const placeholder of templateNames(t.text)) {
          const name = placeholder.startsWith(PATTERN_PREFIX) ? placeholder.slice(PATTERN_PREFIX.length) : placeholder;
          const messageId = problem(name, rule, events);
          if (!messageId) continue;
          out.push(report(this, {
            messageId,
            data: { id: rule.id, name, head: name.split('.')[0], events: events.join('/') },
            at: placeholderAt(ctx, rule, t.segments, t.text, placeholder),
            hint: messageId === 'unmet' ? 'add require, or remove {{unmet}}' : 'see the per-event fields in docs/events.md, or define it with let',
          }));
        }
      }
    }
    return out;
  },
});

/** One template of a rule: where it is, its text, and whether it is matched as a glob. */
export interface RuleTemplate {
  segments: Array<string | number>;
  text: string;
  /** A `require` file or a `let` `newest`: a glob (path-template.ts). */
  glob: boolean;
}

/** Every template of a rule: its message, templated paths, search and records. */
export function templatesOf(rule: LintRule): RuleTemplate[] {
  const raw = rule.raw;
  const out: RuleTemplate[] = [];
  const add = (segments: Array<string | number>, text: unknown, glob = false) => {
    if (typeof text === 'string') out.push({ segments, text, glob });
  };
  if (rule.outcome) add([rule.outcome], rule.message);
  add(['only_if_exists'], raw.only_if_exists);
  if (raw.let && typeof raw.let === 'object') {
    for (const [name, def] of Object.entries(raw.let)) {
      if (def && typeof def === 'object') {
        add(['let', name, 'newest'], def.newest, true);
        add(['let', name, 'file'], def.file);
        add(['let', name, 'search'], def.search);
      }
    }
  }
  if (Array.isArray(raw.require)) raw.require.forEach((r, i) => add(['require', i, 'file'], r?.file, true));
  const records = Array.isArray(raw.record) ? raw.record : raw.record ? [raw.record] : [];
  records.forEach((r, i) => {
    if (!r || typeof r !== 'object') return;
    const at = (...rest: string[]) => (Array.isArray(raw.record) ? ['record', i, ...rest] : ['record', ...rest]);
    add(at('kind'), r.kind);
    add(at('text'), r.text);
    add(at('importance'), r.importance);
    if (r.fields && typeof r.fields === 'object') for (const [name, t] of Object.entries(r.fields)) add(at('fields', name), t);
  });
  return out;
}

/** The message id of what is wrong with `name` on this rule, or null when it has a value. */
function problem(name: string, rule: LintRule, events: string[]): string | null {
  const head = name.split('.')[0];
  if (ALWAYS.has(name) || (head === 'env' && name.length > 4)) return null;
  if (rule.raw.let && typeof rule.raw.let === 'object' && Object.prototype.hasOwnProperty.call(rule.raw.let, head)) return null;
  if (name === 'unmet') return Array.isArray(rule.raw.require) && rule.raw.require.length > 0 ? null : 'unmet';
  if (TOOL_ONLY.has(name)) return events.some(isToolEvent) ? null : 'tool';
  return events.some((e) => eventCarries(e, name)) ? null : 'field';
}

/** The placeholder's own position inside the template. */
function placeholderAt(ctx: LintContext, rule: LintRule, segments: Array<string | number>, text: string, name: string): SourceLocation {
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return ctx.atOffset(rule, segments, text.search(new RegExp(`\\{\\{\\s*${escaped}\\s*\\}\\}`)));
}
