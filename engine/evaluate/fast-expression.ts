/**
 * The JSONata expressions of a small subset, evaluated without loading JSONata (~2-3 ms of
 * a one-shot runner): literals, `$name`, a field path `a.b.c` over the event, a call of
 * one of hookpolicy's own functions, `=`, `!=`, `and`, `or` (`$delta != ''`,
 * `tool_name = "Bash" and $agent = "ba"`). The compiler builds the form from JSONata's
 * own parse (compile/fast-expression.ts). Each step follows JSONata 2.2's evaluator on
 * single values; whatever it would treat otherwise (an array, an object, a function
 * value, a number it rejects, an unbound name JSONata itself defines) makes the answer
 * UNSURE, and the expression is then evaluated by JSONata. A property test holds the
 * two to the same answers.
 */
import type { FastExpression } from '../types';

/** The expression needs JSONata for this input: run it there. */
export const UNSURE: unique symbol = Symbol('unsure');

/**
 * Names JSONata binds itself: an unbound `$name` of these is its function, not nothing.
 * (Held to JSONata's source by fast-expression.test.ts.)
 */
export const JSONATA_NAMES: ReadonlySet<string> = new Set([
  'sum', 'count', 'max', 'min', 'average', 'string', 'substring', 'substringBefore', 'substringAfter', 'lowercase', 'uppercase', 'length',
  'trim', 'pad', 'match', 'contains', 'replace', 'split', 'join', 'formatNumber', 'formatBase', 'formatInteger', 'parseInteger', 'number',
  'floor', 'ceil', 'round', 'abs', 'sqrt', 'power', 'random', 'boolean', 'not', 'map', 'zip', 'filter', 'single', 'reduce', 'sift', 'keys',
  'lookup', 'append', 'exists', 'spread', 'merge', 'reverse', 'each', 'error', 'assert', 'type', 'sort', 'shuffle', 'distinct',
  'encodeUrlComponent', 'encodeUrl', 'decodeUrlComponent', 'decodeUrl', 'eval', 'toMillis', 'fromMillis', 'clone', 'now', 'millis',
]);

type Value = string | number | boolean | null | undefined;

/**
 * The expression's value over `input` with `bindings` as `$name`, or UNSURE.
 * @example evaluateFast({ k: '!=', l: { k: 'var', name: 'delta' }, r: { k: 'value', v: '' } }, event, { delta: '' }) // false
 */
export function evaluateFast(expr: FastExpression, input: unknown, bindings: Readonly<Record<string, unknown>>): Value | typeof UNSURE {
  try {
    return value(expr, input, bindings);
  } catch {
    // One of hookpolicy's functions threw: JSONata reports it as its own error.
    return UNSURE;
  }
}

function value(expr: FastExpression, input: unknown, bindings: Readonly<Record<string, unknown>>): Value | typeof UNSURE {
  switch (expr.k) {
    case 'value':
      return single(expr.v);
    case 'var': {
      if (!Object.prototype.hasOwnProperty.call(bindings, expr.name)) return JSONATA_NAMES.has(expr.name) ? UNSURE : undefined;
      return single(bindings[expr.name]);
    }
    case 'path': {
      let at: unknown = input;
      for (const step of expr.steps) {
        if (Array.isArray(at)) return UNSURE;
        if (at === null || typeof at !== 'object' || !Object.prototype.hasOwnProperty.call(at, step)) return undefined;
        at = (at as Record<string, unknown>)[step];
      }
      return single(at);
    }
    case 'call': {
      const fn = Object.prototype.hasOwnProperty.call(bindings, expr.fn) ? bindings[expr.fn] : undefined;
      if (typeof fn !== 'function') return UNSURE;
      const args: Value[] = [];
      for (const arg of expr.args) {
        const v = value(arg, input, bindings);
        if (v === UNSURE) return UNSURE;
        args.push(v);
      }
      return single(fn.apply(input, args));
    }
    case '=':
    case '!=': {
      const l = value(expr.l, input, bindings);
      if (l === UNSURE) return UNSURE;
      const r = value(expr.r, input, bindings);
      if (r === UNSURE) return UNSURE;
      if (l === undefined || r === undefined) return false;
      return expr.k === '=' ? l === r : l !== r;
    }
    case 'and':
    case 'or': {
      const l = truth(value(expr.l, input, bindings));
      if (l === UNSURE) return UNSURE;
      // JSONata does not evaluate the right side when the left one decides.
      if (expr.k === 'and' ? !l : l) return l;
      return truth(value(expr.r, input, bindings));
    }
    default:
      return UNSURE;
  }
}

/** A value JSONata treats as itself: text, a finite number, true/false, null, nothing. */
function single(v: unknown): Value | typeof UNSURE {
  if (v === undefined || v === null || typeof v === 'string' || typeof v === 'boolean') return v;
  if (typeof v === 'number') return Number.isFinite(v) ? v : UNSURE;
  return UNSURE;
}

/** JSONata's boolean of a single value (`and`, `or`). */
function truth(v: Value | typeof UNSURE): boolean | typeof UNSURE {
  if (v === UNSURE) return UNSURE;
  if (typeof v === 'string') return v.length > 0;
  if (typeof v === 'number') return v !== 0;
  return v === true;
}
