/**
 * JSONata expressions (`when`, `let: { expr }`). The library is loaded on first use only,
 * so events that reach no expression never pay for it; compiled expressions are cached by text.
 */
import type jsonataModule from 'jsonata';

type Expression = ReturnType<typeof jsonataModule>;

let jsonata: typeof jsonataModule | null = null;
const cache = new Map<string, Expression>();

/** A JSONata expression that failed to compile or to evaluate. */
export class ExpressionError extends Error {
  constructor(
    readonly expression: string,
    message: string,
  ) {
    super(message);
    this.name = 'ExpressionError';
  }
}

function compile(text: string): Expression {
  let expr = cache.get(text);
  if (expr) return expr;
  if (!jsonata) jsonata = require('jsonata') as typeof jsonataModule;
  try {
    expr = jsonata(text);
  } catch (err) {
    throw new ExpressionError(text, errorText(err));
  }
  cache.set(text, expr);
  return expr;
}

/**
 * The value of `text` over `input`, with `bindings` available as `$name`.
 * Rejects with an ExpressionError when the expression does not compile or throws.
 * @example await evaluateExpression('tool_name = "Bash" and $agent = "ba"', event, { agent: 'ba' }) // true
 */
export async function evaluateExpression(text: string, input: unknown, bindings: Record<string, unknown>): Promise<unknown> {
  const expr = compile(text);
  try {
    return await expr.evaluate(input, bindings);
  } catch (err) {
    throw new ExpressionError(text, errorText(err));
  }
}

/**
 * Truthiness of an expression result: true, a non-empty string, a non-zero number, a
 * non-empty array, or an object.
 * @example isTruthy([]) // false
 */
export function isTruthy(value: unknown): boolean {
  if (value === true) return true;
  if (typeof value === 'string') return value !== '';
  if (typeof value === 'number') return value !== 0 && !Number.isNaN(value);
  if (Array.isArray(value)) return value.length > 0;
  return value !== null && typeof value === 'object';
}

function errorText(err: unknown): string {
  if (err && typeof err === 'object' && 'message' in err && typeof err.message === 'string') {
    const position = 'position' in err && typeof err.position === 'number' ? ` (at character ${err.position})` : '';
    return err.message + position;
  }
  return String(err);
}
