/**
 * A policy pattern that can backtrack catastrophically. A regular expression (`command`,
 * `let.extract`, a regex literal in `when` or a let's `expr`) then runs under the
 * evaluator's watchdog: a text that makes it blow up stops the rule with a regex-unsafe
 * error, and a rule that denies, asks or blocks answers settings.oversized. A glob
 * (`paths`) or `*` wildcard (`match`) is matched by the runner's linear-time matcher
 * instead of the native one: exact, but slower. A `settings.log.redact` pattern runs under
 * a watchdog too: the text that trips it is redacted whole in the decision record.
 */
import { expressionRegexes } from '../compile/expression-regexes';
import { redactPatternsOf } from '../compile/settings';
import { globRegex } from '../compile/glob-regex';
import { wildcardRegex } from '../compile/patterns';
import { REDACT_WATCHDOG_MS, WATCHDOG_MS } from '../evaluate/regex';
import { superLinearReason } from '../evaluate/regex-safety';
import type { Diagnostic, SourceLocation } from '../types';
import { defineCheck, report } from './check';
import type { LintContext, LintRule } from './context';

/** A pattern of a rule: what it is, how to judge it, and where it is written. */
interface PolicyPattern {
  kind: 'regex' | 'glob' | 'wildcard';
  /** As written (a glob or wildcard), or the regex source. */
  text: string;
  /** The regex the runner matches, its flags, and the reason it is flagged (null: not). */
  reason: string | null;
  at: SourceLocation;
}

export const regexUnsafe = defineCheck({
  id: 'regex-unsafe',
  messages: {
    backtracks: 'Rule "{id}": /{source}/ can backtrack catastrophically ({reason}); it runs under a {ms} ms watchdog, and a command that trips it fails the rule',
    glob: 'Rule "{id}": the regex of glob "{source}" can backtrack catastrophically ({reason}); the runner matches it with its linear-time matcher, slower than the native one',
    wildcard: 'Rule "{id}": the wildcard "{source}" can backtrack catastrophically ({reason}); the runner matches it with its linear-time matcher, slower than the native one',
    redact: 'log.redact pattern /{source}/ can backtrack catastrophically ({reason}); it runs under a {ms} ms watchdog, and a text that trips it is redacted whole',
  },
  check(ctx) {
    const out: Diagnostic[] = [];
    for (const rule of ctx.rules) {
      for (const pattern of policyPatterns(rule, ctx as LintContext)) {
        if (pattern.reason === null) continue;
        out.push(report(this, {
          messageId: pattern.kind === 'regex' ? 'backtracks' : pattern.kind,
          severity: 'warning',
          data: { id: rule.id, source: shortened(pattern.text), reason: pattern.reason, ms: WATCHDOG_MS },
          at: pattern.at,
          hint: pattern.kind === 'regex' ? 'avoid nested or overlapping quantifiers such as (a+)+ or (a|a)*' : 'fewer `*` in one name, or fewer `**` in a row, keep it native',
        }));
      }
    }
    for (const file of ctx.files) {
      for (const [source, i] of redactPatternsOf(file)) {
        const reason = superLinearReason(source, 'g');
        if (reason === null) continue;
        out.push(report(this, {
          messageId: 'redact',
          severity: 'warning',
          data: { source: shortened(source), reason, ms: REDACT_WATCHDOG_MS },
          at: file.map.locate(`/settings/log/redact/${i}`),
          hint: 'avoid nested or overlapping quantifiers such as (a+)+ or (a|a)*',
        }));
      }
    }
    return out;
  },
});

function policyPatterns(rule: LintRule, ctx: LintContext): PolicyPattern[] {
  const found: PolicyPattern[] = [];
  const regex = (source: string, flags: string, at: SourceLocation) => found.push({ kind: 'regex', text: source, reason: superLinearReason(source, flags), at });
  const listed = (value: unknown, segments: Array<string | number>, add: (text: string, at: SourceLocation) => void) => {
    if (typeof value === 'string') add(value, ctx.at(rule, segments));
    if (Array.isArray(value)) value.forEach((v, i) => typeof v === 'string' && add(v, ctx.at(rule, [...segments, i])));
  };
  listed(rule.raw.command, ['command'], (source, at) => regex(source, '', at));
  for (const [name, value] of Object.entries(rule.raw.let ?? {})) {
    if (!value) continue;
    if (typeof value.extract === 'string') regex(value.extract, 'm', ctx.at(rule, ['let', name, 'extract']));
    if (typeof value.expr === 'string') for (const r of expressionRegexes(value.expr)) regex(r.source, r.flags, ctx.atOffset(rule, ['let', name, 'expr'], r.offset));
  }
  if (typeof rule.raw.when === 'string') for (const r of expressionRegexes(rule.raw.when)) regex(r.source, r.flags, ctx.atOffset(rule, ['when'], r.offset));
  for (const list of ['allow', 'deny', 'except'] as const) {
    listed(rule.raw.paths?.[list], ['paths', list], (glob, at) => {
      const compiled = globRegex(glob);
      if (compiled?.guard) found.push({ kind: 'glob', text: glob, reason: superLinearReason(compiled.source.normalize('NFC'), compiled.flags, 'quadratic'), at });
    });
  }
  const wildcard = (text: string, flags: string, at: SourceLocation) => {
    const compiled = wildcardRegex(text, flags);
    if (compiled.guard) found.push({ kind: 'wildcard', text, reason: superLinearReason(compiled.source, compiled.flags, 'quadratic'), at });
  };
  for (const [field, value] of Object.entries(rule.raw.match ?? {})) listed(value, ['match', field], (text, at) => wildcard(text, 's', at));
  // `tools: Write|mcp__*` is one string of names: each name with a `*` is a wildcard.
  listed(rule.raw.tools, ['tools'], (text, at) => {
    for (const name of text.split(/[|,]/).map((n) => n.trim())) if (name.includes('*')) wildcard(name, '', at);
  });
  return found;
}

/** Long patterns are cut in messages; the position points at the whole one. */
function shortened(source: string): string {
  return source.length <= 60 ? source : `${source.slice(0, 57)}...`;
}
