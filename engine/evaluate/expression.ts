/**
 * JSONata expressions (`when`, `let: { expr }`). The library is loaded on first use only,
 * so events that reach no expression, or only expressions of the subset
 * fast-expression.ts evaluates, never pay for it; compiled expressions are cached by text.
 */
import type jsonataModule from 'jsonata';
import type { FastExpression } from '../types';
import { evaluateFast, UNSURE } from './fast-expression';
import { PolicyRegExp, UnsafeRegexError } from './regex';

type Expression = ReturnType<typeof jsonataModule>;

let jsonata: typeof jsonataModule | null = null;
const cache = new Map<string, Expression>();

/** Deepest nesting an evaluation may reach; a runaway recursion stops here instead of never returning. */
const MAX_DEPTH = 500;
/** JSONata's error codes for its two guardrails. */
const TIMEOUT_CODE = 'D1012';

/** A JSONata expression that failed to compile or to evaluate. */
export class ExpressionError extends Error {
  constructor(
    readonly expression: string,
    message: string,
    /** True when the expression ran past its time budget. */
    readonly timedOut = false,
  ) {
    super(message);
    this.name = 'ExpressionError';
  }
}

function compile(text: string, timeoutMs: number): Expression {
  const key = `${timeoutMs}\0${text}`;
  let expr = cache.get(key);
  if (expr) return expr;
  if (!jsonata) jsonata = require('jsonata') as typeof jsonataModule;
  try {
    // JSONata runs on promise microtasks, so no outside timer can stop it: its own guardrails
    // must, and the regex engine (a match is one step JSONata cannot interrupt) its watchdog.
    expr = jsonata(text, { timeout: timeoutMs, stack: MAX_DEPTH, RegexEngine: PolicyRegExp as unknown as RegExpConstructor });
  } catch (err) {
    throw new ExpressionError(text, errorText(err));
  }
  cache.set(key, expr);
  return expr;
}

/**
 * The value of `text` over `input`, with `bindings` available as `$name`, stopped after
 * `timeoutMs` (0 = no limit) or past a nesting depth of 500. With `fast`, the compiler's
 * form of the same expression, JSONata is loaded only when that form cannot answer.
 * Rejects with an ExpressionError when the expression does not compile, throws or runs too
 * long, and with the UnsafeRegexError of a regex literal the watchdog stopped.
 * @example await evaluateExpression('tool_name = "Bash" and $agent = "ba"', event, { agent: 'ba' }, 5000) // true
 */
export async function evaluateExpression(text: string, input: unknown, bindings: Record<string, unknown>, timeoutMs = 0, fast?: FastExpression): Promise<unknown> {
  if (fast) {
    const value = evaluateFast(fast, input, bindings);
    if (value !== UNSURE) return value;
  }
  const expr = compile(text, timeoutMs);
  try {
    return await expr.evaluate(input, bindings);
  } catch (err) {
    // A regex the watchdog stopped is the rule's to answer (rule.ts), not an expression error.
    if (err instanceof UnsafeRegexError) throw err;
    const timedOut = !!err && typeof err === 'object' && (err as { code?: unknown }).code === TIMEOUT_CODE;
    throw new ExpressionError(text, errorText(err), timedOut);
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
