/**
 * Checks the schema leaves to code: a rule has exactly one outcome, and a let value has
 * exactly one of newest, file or expr.
 */
import { diagnostic } from '../diagnostics';
import type { Diagnostic, SourceMap } from '../types';
import { OUTCOMES } from '../types';
import { toPointer } from '../load/source-map';
import { POLICY_SCHEMA } from './schema';
import { closest } from './suggest';

const LET_KINDS = ['newest', 'file', 'expr'] as const;
const LET_KEYS = new Set<string>([...LET_KINDS, 'extract', 'field', 'max_bytes', 'optional']);
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
  if (present.length === 0 && !misspelled) {
    return [diagnostic('outcome-missing', `${label} has no outcome`, map.locate(idPointer), `add one of: ${OUTCOMES.join(', ')}`)];
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
  return [];
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
