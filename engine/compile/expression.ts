/**
 * Checks JSONata expressions (rule `when`, let `expr`) for syntax errors at compile time.
 */
import jsonata from 'jsonata';
import type { CompileContext } from './context';
import { atOffset, report } from './context';

interface JsonataSyntaxError {
  message?: string;
  position?: number;
  token?: string;
}

/**
 * True when the expression parses; otherwise reports `invalid-expression` at the error's position.
 * @example checkExpression(ctx, 'team_name and (', '/rules/0/when') // false
 */
export function checkExpression(ctx: CompileContext, expression: string, pointer: string): boolean {
  try {
    jsonata(expression);
    return true;
  } catch (error) {
    const e = error as JsonataSyntaxError;
    report(ctx, 'invalid-expression', `Invalid JSONata expression: ${e.message ?? String(error)}`, atOffset(ctx, pointer, errorOffset(e, expression)));
    return false;
  }
}

/** jsonata's `position` is just past the offending token; point at the token's start. */
function errorOffset(e: JsonataSyntaxError, expression: string): number {
  if (typeof e.position !== 'number') return 0;
  const tokenLength = typeof e.token === 'string' && e.token !== '(end)' ? e.token.length : 0;
  return Math.max(0, Math.min(e.position - tokenLength, expression.length));
}
