/**
 * Compiles one raw rule into ready matchers, reporting problems at their positions.
 */
import { EVENT_NAMES } from '../protocol';
import { OUTCOMES } from '../types';
import type { CompiledLet, CompiledRule, Outcome, RegexSource, UnparsableOutcome } from '../types';
import { toPointer } from '../load/source-map';
import { didYouMean } from '../validate/suggest';
import type { AgentDirectory } from './agents';
import type { CompileContext } from './context';
import { asList, at, report } from './context';
import { compileExpression } from './expression';
import { guardedRegexes } from './expression-regexes';
import { compileLets, compileRequires } from './lets';
import { compileMatch } from './match';
import { compilePaths } from './paths';
import { compilePrompts } from './prompts';
import { compileRecords } from './record';
import { compileRegex } from './regex';
import { checkTemplate } from './templates';
import { compileTools } from './tools';

const KNOWN_EVENTS = new Set(EVENT_NAMES);

/**
 * The compiled rule at `rules[index]` of the context's file (assumed schema-valid).
 * @example compileRule(ctx, { id: 'r', on: 'Stop', block: 'not yet' }, 0, agents, null).outcome // 'block'
 */
export function compileRule(ctx: CompileContext, raw: Record<string, unknown>, index: number, agents: AgentDirectory, bypasses: number[]): CompiledRule {
  const p = (...rest: Array<string | number>) => toPointer(['rules', index, ...rest]);
  const records = compileRecords(ctx, raw.record, index);
  // A rule with `record` and no outcome only records; one with neither is reported by the schema checks.
  const outcome = OUTCOMES.find((o) => typeof raw[o] === 'string') ?? (records ? null : 'warn');
  const message = outcome !== null && typeof raw[outcome] === 'string' ? (raw[outcome] as string) : '';
  if (outcome !== null) checkTemplate(ctx, message, p(outcome));
  const onlyIfExists = typeof raw.only_if_exists === 'string' ? raw.only_if_exists : null;
  if (onlyIfExists !== null) checkTemplate(ctx, onlyIfExists, p('only_if_exists'));
  const when = typeof raw.when === 'string' ? raw.when : null;
  const whenFast = when !== null ? compileExpression(ctx, when, p('when')).fast : null;

  const rule: CompiledRule = {
    id: String(raw.id),
    source: at(ctx, p()),
    events: compileEvents(ctx, raw.on, (i) => (Array.isArray(raw.on) ? p('on', i) : p('on'))),
    tools: compileTools(raw.tools),
    prompts: compilePrompts(raw.prompts),
    agents: raw.agents === undefined
      ? null
      : agents.resolve(ctx, asList(raw.agents), (i) => (Array.isArray(raw.agents) ? p('agents', i) : p('agents'))),
    match: compileMatch(raw.match),
    paths: compilePaths(ctx, raw.paths, index),
    command: raw.command === undefined ? null : compileCommands(ctx, raw.command, (i) => (Array.isArray(raw.command) ? p('command', i) : p('command'))),
    when,
    onlyIfExists,
    lets: compileLets(ctx, raw.let, index),
    requires: compileRequires(ctx, raw.require, index),
    outcome,
    message,
    bypasses,
    log: raw.log !== false,
  };
  if (typeof raw.description === 'string') rule.description = raw.description;
  if (rule.paths) rule.unparsable = unparsableOutcome(raw.unparsable, outcome);
  // Optional keys are set only when used: a rule without them compiles (and is cached) as before.
  if (records) rule.records = records;
  if (raw.final === true) rule.final = true;
  if (when !== null && whenNamesLet(when, rule.lets)) rule.letsFirst = true;
  if (whenFast) rule.whenFast = whenFast;
  // The regex literals of its expressions, each marked as the runner must match it.
  const expressions = [...(when !== null ? [when] : []), ...rule.lets.filter((l) => l.kind === 'expr').map((l) => l.target)];
  const regexes = expressions.length > 0 ? guardedRegexes(expressions, ctx.file.expressions, ctx.file.expressionRegexes) : [];
  if (regexes.length > 0) rule.regexes = regexes;
  return rule;
}

/**
 * Whether a `when` expression names one of the lets (`$name`, or a sub-value `$name_path`):
 * then the lets are computed first and bound in it.
 * @example whenNamesLet('$fails >= 3', [failsLet]) // true
 */
export function whenNamesLet(when: string, lets: readonly CompiledLet[]): boolean {
  if (lets.length === 0) return false;
  for (const m of when.matchAll(/\$([A-Za-z_][A-Za-z0-9_]*)/g)) {
    if (lets.some((l) => m[1] === l.name || m[1].startsWith(`${l.name}_`))) return true;
  }
  return false;
}

/** A rule that can refuse asks when a command cannot be checked; one that only informs stays out of the way. */
function unparsableOutcome(written: unknown, outcome: Outcome | null): UnparsableOutcome {
  if (written === 'deny' || written === 'ask' || written === 'allow' || written === 'ignore' || written === 'sandbox') return written;
  return outcome === 'deny' || outcome === 'ask' || outcome === 'block' ? 'ask' : 'ignore';
}

function compileEvents(ctx: CompileContext, on: unknown, pointer: (i: number) => string): string[] {
  const events: string[] = [];
  asList(on).forEach((event, i) => {
    if (KNOWN_EVENTS.has(event)) {
      if (!events.includes(event)) events.push(event);
    } else {
      report(ctx, 'unknown-event', `Unknown event "${event}"`, at(ctx, pointer(i)), didYouMean(event, EVENT_NAMES) ?? 'see docs/events.md for the event names');
    }
  });
  return events;
}

function compileCommands(ctx: CompileContext, command: unknown, pointer: (i: number) => string): RegexSource[] {
  return asList(command).flatMap((source, i) => {
    const regex = compileRegex(ctx, source, '', pointer(i));
    return regex ? [regex] : [];
  });
}
