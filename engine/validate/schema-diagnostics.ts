/**
 * Turns ajv errors into positioned Diagnostics: one per mistake, at the key for unknown
 * or badly named keys, at the value otherwise.
 */
import type { ErrorObject } from 'ajv';
import { diagnostic } from '../diagnostics';
import type { Diagnostic, SourceMap } from '../types';
import { pointerSegments, toPointer } from '../load/source-map';
import { collapseErrors, expectedBy } from './collapse';
import type { SchemaProblem } from './collapse';
import { closest, didYouMean } from './suggest';

/**
 * Diagnostics for the errors of one validation run over the document behind `map`.
 * @example schemaDiagnostics(validate.errors ?? [], file.map)
 *   // [{ code: 'schema-unknown-key', line: 4, column: 5, hint: 'did you mean "tools"?', ... }]
 */
export function schemaDiagnostics(errors: readonly ErrorObject[], map: SourceMap): Diagnostic[] {
  return placedSchemaDiagnostics(errors, map).map((p) => p.diagnostic);
}

/**
 * schemaDiagnostics, each with the JSON pointer of what it is about (the key, for an
 * unknown or badly named key).
 * @example placedSchemaDiagnostics(validate.errors ?? [], file.map)[0].pointer // '/rules/0/tool'
 */
export function placedSchemaDiagnostics(errors: readonly ErrorObject[], map: SourceMap): Array<{ diagnostic: Diagnostic; pointer: string }> {
  // propertyNames reports the inner failure (with propertyName set) and then itself; keep the latter.
  // An if/then reports the failure inside `then` and then itself; keep the former.
  const relevant = errors.filter((e) => (e as { propertyName?: string }).propertyName === undefined && e.keyword !== 'if');
  return collapseErrors(relevant).map((problem) => ({ diagnostic: toDiagnostic(problem, map), pointer: pointerOf(problem) }));
}

function pointerOf(problem: SchemaProblem): string {
  if (problem.kind === 'alternatives') return problem.instancePath;
  const e = problem.error;
  const params = e.params as Record<string, unknown>;
  if (e.keyword === 'additionalProperties') return childPointer(e.instancePath, String(params.additionalProperty));
  if (e.keyword === 'propertyNames') return childPointer(e.instancePath, String(params.propertyName));
  return e.instancePath;
}

function toDiagnostic(problem: SchemaProblem, map: SourceMap): Diagnostic {
  if (problem.kind === 'alternatives') {
    const where = map.locate(problem.instancePath);
    return diagnostic('schema-type', `${describePath(problem.instancePath)} must be ${orList(problem.expected)}`, where);
  }
  const e = problem.error;
  const params = e.params as Record<string, unknown>;
  const path = describePath(e.instancePath);
  switch (e.keyword) {
    case 'additionalProperties': {
      const key = String(params.additionalProperty);
      const allowed = Object.keys((e.parentSchema as { properties?: object } | undefined)?.properties ?? {});
      const where = map.locate(childPointer(e.instancePath, key), 'key');
      const inWhat = e.instancePath === '' ? 'at the top level' : `in ${path}`;
      return diagnostic('schema-unknown-key', `Unknown key "${key}" ${inWhat}`, where, didYouMean(key, allowed) ?? allowedHint(allowed));
    }
    case 'required':
      return diagnostic('schema-required', `${path} is missing the required key "${String(params.missingProperty)}"`, map.locate(e.instancePath));
    case 'type':
      return diagnostic('schema-type', `${path} must be ${orList(expectedBy(e))}`, map.locate(e.instancePath));
    case 'enum': {
      const allowed = (params.allowedValues as unknown[]).map((v) => String(v));
      const suggestion = typeof e.data === 'string' ? closest(e.data, allowed) : null;
      const hint = suggestion !== null ? `did you mean "${suggestion}"?` : `allowed: ${allowed.join(', ')}`;
      return diagnostic('schema-enum', `${path} must be one of: ${allowed.join(', ')}`, map.locate(e.instancePath), hint);
    }
    case 'propertyNames': {
      const name = String(params.propertyName);
      const where = map.locate(childPointer(e.instancePath, name), 'key');
      return diagnostic('schema-invalid', `Invalid name "${name}" in ${path}`, where, 'use letters, digits and _, not starting with a digit');
    }
    default:
      return diagnostic('schema-invalid', `${path} ${friendlyMessage(e)}`, map.locate(e.instancePath));
  }
}

function friendlyMessage(e: ErrorObject): string {
  const params = e.params as Record<string, unknown>;
  if (e.keyword === 'minLength' && params.limit === 1) return 'must not be empty';
  if (e.keyword === 'minItems' && params.limit === 1) return 'must not be an empty list';
  if (e.keyword === 'pattern' && pointerSegments(e.instancePath).pop() === 'id') return 'may only contain letters, digits and _ . : -';
  return e.message ?? `is invalid (${e.keyword})`;
}

function allowedHint(allowed: string[]): string | undefined {
  return allowed.length > 0 && allowed.length <= 8 ? `allowed keys: ${allowed.join(', ')}` : undefined;
}

function childPointer(parent: string, key: string): string {
  return parent + toPointer([key]);
}

/**
 * A readable path for a JSON pointer.
 * @example describePath('/rules/2/paths/allow/0') // 'rules[2].paths.allow[0]'
 */
export function describePath(pointer: string): string {
  const segments = pointerSegments(pointer);
  if (segments.length === 0) return 'the policy';
  return segments.map((s, i) => (/^\d+$/.test(s) ? `[${s}]` : i === 0 ? s : `.${s}`)).join('');
}

function orList(words: string[]): string {
  if (words.length <= 1) return words[0] ?? 'valid';
  return `${words.slice(0, -1).join(', ')} or ${words[words.length - 1]}`;
}
