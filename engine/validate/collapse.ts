/**
 * ajv reports one error per failed branch of an anyOf/oneOf plus one for the combinator.
 * Collapsing keeps one diagnostic per mistake.
 */
import type { ErrorObject } from 'ajv';

/** One mistake: a plain ajv error, or the alternatives of a combinator that all failed at its own value. */
export type SchemaProblem =
  | { kind: 'error'; error: ErrorObject }
  | { kind: 'alternatives'; instancePath: string; expected: string[] };

/**
 * Replaces each anyOf/oneOf error and its branch errors by either the errors of the branch
 * that got furthest into the value, or one 'alternatives' problem naming what was expected.
 * @example collapseErrors(validate.errors) // [{ kind: 'alternatives', instancePath: '/settings/log/file', expected: ['a string', 'false'] }]
 */
export function collapseErrors(errors: readonly ErrorObject[]): SchemaProblem[] {
  const combinators = errors.filter((e) => (e.keyword === 'anyOf' || e.keyword === 'oneOf') && e.params && !('passingSchemas' in e.params && e.params.passingSchemas));
  const consumed = new Set<ErrorObject>();
  const replacements = new Map<ErrorObject, SchemaProblem[]>();
  for (const combinator of combinators) {
    const prefix = combinator.schemaPath + '/';
    const branchErrors = errors.filter((e) => e !== combinator && e.schemaPath.startsWith(prefix));
    branchErrors.forEach((e) => consumed.add(e));
    const deeper = branchErrors.filter((e) => e.instancePath !== combinator.instancePath);
    if (deeper.length > 0) {
      // A branch accepted the value's shape; its errors are the ones that explain the mistake.
      replacements.set(combinator, deeper.map((error) => ({ kind: 'error', error })));
    } else {
      const expected = unique(branchErrors.flatMap(expectedBy));
      replacements.set(combinator, [{ kind: 'alternatives', instancePath: combinator.instancePath, expected }]);
    }
  }
  const problems: SchemaProblem[] = [];
  for (const error of errors) {
    if (consumed.has(error)) continue;
    problems.push(...(replacements.get(error) ?? [{ kind: 'error' as const, error }]));
  }
  return problems;
}

/**
 * Words for what a failed type/enum/const error expected.
 * @example expectedBy({ keyword: 'type', params: { type: ['string', 'array'] } }) // ['a string', 'a list']
 */
export function expectedBy(error: ErrorObject): string[] {
  const params = error.params as Record<string, unknown>;
  if (error.keyword === 'type') return ([] as string[]).concat(params.type as string | string[]).map(typeWord);
  if (error.keyword === 'enum') return (params.allowedValues as unknown[]).map((v) => JSON.stringify(v));
  if (error.keyword === 'const') return [JSON.stringify(params.allowedValue)];
  return [];
}

const TYPE_WORDS: Record<string, string> = {
  string: 'a string',
  array: 'a list',
  object: 'a mapping',
  integer: 'a whole number',
  number: 'a number',
  boolean: 'true or false',
  null: 'empty',
};

function typeWord(type: string): string {
  return TYPE_WORDS[type] ?? type;
}

function unique(items: string[]): string[] {
  return [...new Set(items)];
}
