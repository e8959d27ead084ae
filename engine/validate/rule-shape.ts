/**
 * Checks the schema leaves to code: a rule has at most one outcome and, without `record`,
 * exactly one; a let value has exactly one kind, and only options that kind takes.
 */
import { diagnostic } from '../diagnostics';
import type { Diagnostic, SourceMap } from '../types';
import { OUTCOMES } from '../types';
import { toPointer } from '../load/source-map';
import { POLICY_SCHEMA } from './schema';
import { closest } from './suggest';

const LET_KINDS = ['newest', 'file', 'expr', 'count', 'last', 'summaries', 'search', 'summary', 'metrics'] as const;
type LetKindName = (typeof LET_KINDS)[number];
const FILE_OPTIONS = ['extract', 'field', 'max_bytes'];
const MEMORY_OPTIONS = ['scope', 'since_minutes', 'first', 'budget_tokens', 'limit', 'min_relevance'];
/** The options each kind takes besides `optional`; the file options stay accepted on expr (they were before the store kinds). */
const LET_OPTIONS: Record<LetKindName, readonly string[]> = {
  newest: FILE_OPTIONS,
  file: FILE_OPTIONS,
  expr: FILE_OPTIONS,
  count: ['scope', 'since_minutes'],
  last: ['scope', 'first'],
  summaries: ['budget_tokens'],
  search: ['limit', 'min_relevance'],
  summary: [],
  metrics: [],
};
const LET_KEYS = new Set<string>([...LET_KINDS, ...FILE_OPTIONS, ...MEMORY_OPTIONS, 'optional']);
const RULE_KEYS = new Set(Object.keys((POLICY_SCHEMA as { definitions: { rule: { properties: object } } }).definitions.rule.properties));

/**
 * Outcome and let-kind diagnostics for every rule of a document.
 * @example ruleShapeDiagnostics({ version: 1, rules: [{ id: 'r', on: 'Stop' }] }, map)
 *   // [{ code: 'outcome-missing', ... }]
 */
export function ruleShapeDiagnostics(doc: unknown, map: SourceMap): Diagnostic[] {
  return placedRuleShapeDiagnostics(doc, map).map((p) => p.diagnostic);
}

/**
 * ruleShapeDiagnostics, each with the JSON pointer of the rule (or let value) it is about.
 * @example placedRuleShapeDiagnostics(doc, map)[0].pointer // '/rules/0'
 */
export function placedRuleShapeDiagnostics(doc: unknown, map: SourceMap): Array<{ diagnostic: Diagnostic; pointer: string }> {
  const rules = isObject(doc) && Array.isArray(doc.rules) ? doc.rules : [];
  const out: Array<{ diagnostic: Diagnostic; pointer: string }> = [];
  rules.forEach((rule: unknown, i: number) => {
    if (!isObject(rule)) return;
    for (const d of outcomeDiagnostics(rule, i, map)) out.push({ diagnostic: d, pointer: toPointer(['rules', i]) });
    if (isObject(rule.let)) {
      for (const [name, value] of Object.entries(rule.let)) {
        const pointer = toPointer(['rules', i, 'let', name]);
        if (isObject(value)) for (const d of letKindDiagnostics(value, pointer, name, map)) out.push({ diagnostic: d, pointer });
      }
    }
  });
  return out;
}

function outcomeDiagnostics(rule: Record<string, unknown>, i: number, map: SourceMap): Diagnostic[] {
  const present = OUTCOMES.filter((o) => rule[o] !== undefined);
  const idPointer = rule.id !== undefined ? toPointer(['rules', i, 'id']) : toPointer(['rules', i]);
  const label = typeof rule.id === 'string' ? `Rule "${rule.id}"` : `Rule ${i + 1}`;
  // A misspelled outcome (`dney:`) is already an unknown key; one mistake, one diagnostic.
  const misspelled = Object.keys(rule).some((k) => !RULE_KEYS.has(k) && closest(k, OUTCOMES) !== null);
  // A rule that records may decide nothing: it records silently.
  if (present.length === 0 && !misspelled && rule.record === undefined) {
    return [diagnostic('outcome-missing', `${label} has no outcome`, map.locate(idPointer), `add one of: ${OUTCOMES.join(', ')}, or record`)];
  }
  if (present.length > 1) {
    return [diagnostic('outcome-multiple', `${label} has ${present.length} outcomes (${present.join(', ')})`, map.locate(idPointer), 'split it into one rule per outcome')];
  }
  return [];
}

function letKindDiagnostics(value: Record<string, unknown>, pointer: string, name: string, map: SourceMap): Diagnostic[] {
  const kinds = LET_KINDS.filter((k) => value[k] !== undefined);
  // A misspelled kind is already an unknown key; one mistake, one diagnostic.
  if (kinds.length === 0 && Object.keys(value).every((k) => LET_KEYS.has(k))) {
    return [diagnostic('schema-required', `let value "${name}" needs one of: ${LET_KINDS.join(', ')}`, map.locate(pointer))];
  }
  if (kinds.length > 1) {
    const second = map.locate(pointer + toPointer([kinds[1]]), 'key');
    return [diagnostic('schema-invalid', `let value "${name}" has both ${kinds[0]} and ${kinds[1]}; give only one`, second)];
  }
  if (kinds.length === 0) return [];
  const kind = kinds[0];
  const takes = LET_OPTIONS[kind];
  return Object.keys(value)
    .filter((key) => LET_KEYS.has(key) && key !== kind && key !== 'optional' && !(LET_KINDS as readonly string[]).includes(key) && !takes.includes(key))
    .map((key) => diagnostic('let-option-invalid', `let value "${name}" (${kind}) does not take ${key}`, map.locate(pointer + toPointer([key]), 'key'),
      takes.length > 0 ? `${kind} takes: ${takes.join(', ')}, optional` : `${kind} takes only optional`));
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
