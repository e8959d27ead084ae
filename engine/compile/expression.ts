/**
 * Checks JSONata expressions (rule `when`, let `expr`) for syntax errors at compile time,
 * and gives their fast form (fast-expression.ts) from the same parse.
 */
import type { FastExpression } from '../types';
import type { CompileContext } from './context';
import { atOffset, report } from './context';
import { expressionRegexes } from './expression-regexes';
import { fastFromAst } from './fast-expression';
import { jsonataParser } from './jsonata-parse';

interface JsonataSyntaxError {
  message?: string;
  position?: number;
  token?: string;
}

/**
 * Whether the expression parses (otherwise `invalid-expression` is reported at the error's
 * position) and its fast form: taken from the file's own table when it has the
 * text (a shipped pack's, parsed at build time), else from one JSONata parse.
 * @example compileExpression(ctx, "$delta != ''", '/rules/0/when') // { ok: true, fast: { k: '!=', ... } }
 */
export function compileExpression(ctx: CompileContext, expression: string, pointer: string): { ok: boolean; fast: FastExpression | null } {
  const known = ctx.file.expressions;
  if (known && Object.hasOwn(known, expression)) return { ok: true, fast: known[expression] };
  const parse = jsonataParser();
  let ast: unknown;
  try {
    ast = parse(expression).ast();
  } catch (error) {
    const e = error as JsonataSyntaxError;
    report(ctx, 'invalid-expression', `Invalid JSONata expression: ${e.message ?? String(error)}`, atOffset(ctx, pointer, errorOffset(e, expression)));
    return { ok: false, fast: null };
  }
  expressionRegexes(expression, ast);
  return { ok: true, fast: fastFromAst(ast) };
}

/** jsonata's `position` is just past the offending token; point at the token's start. */
function errorOffset(e: JsonataSyntaxError, expression: string): number {
  if (typeof e.position !== 'number') return 0;
  const tokenLength = typeof e.token === 'string' && e.token !== '(end)' ? e.token.length : 0;
  return Math.max(0, Math.min(e.position - tokenLength, expression.length));
}
