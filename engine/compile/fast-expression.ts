/**
 * The form of a JSONata expression the runner can evaluate without JSONata
 * (evaluate/fast-expression.ts), read from JSONata's own parse: only nodes of the subset,
 * and only with the keys those nodes have when nothing else is attached (no predicate,
 * stage, group, focus, index or array-keeping flag). Anything else: null, and the runner
 * uses JSONata.
 */
import { EXPRESSION_FUNCTION_NAMES } from '../evaluate/expression-functions';
import type { FastExpression } from '../types';
import { jsonataParser } from './jsonata-parse';

interface Node {
  type?: unknown;
  value?: unknown;
  [key: string]: unknown;
}

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const LEAF_KEYS = new Set(['type', 'value', 'position']);
const BINARY_KEYS = new Set(['type', 'value', 'position', 'lhs', 'rhs']);
const PATH_KEYS = new Set(['type', 'steps', 'position']);
/** A call's node also has `name`, left undefined by the parser. */
const CALL_KEYS = new Set(['type', 'name', 'value', 'position', 'arguments', 'procedure']);

/**
 * The fast form of `expression`, or null when it has a construct outside the subset (or does not parse).
 * @example fastExpression("$delta != ''") // { k: '!=', l: { k: 'var', name: 'delta' }, r: { k: 'value', v: '' } }
 */
export function fastExpression(expression: string): FastExpression | null {
  return parsedFastExpression(expression)?.fast ?? null;
}

/**
 * The fast form of `expression` (null: outside the subset), or null when it does not parse.
 * @example parsedFastExpression('$agent and (') // null
 */
export function parsedFastExpression(expression: string): { fast: FastExpression | null } | null {
  const parse = jsonataParser();
  let ast: unknown;
  try {
    ast = parse(expression).ast();
  } catch {
    return null;
  }
  return { fast: fastFromAst(ast) };
}

/**
 * The fast form of an expression JSONata already parsed (its `ast()`), or null.
 * @example fastFromAst(jsonata('$agent').ast()) // { k: 'var', name: 'agent' }
 */
export function fastFromAst(ast: unknown): FastExpression | null {
  return convert(ast as Node);
}

function convert(node: Node): FastExpression | null {
  switch (node.type) {
    case 'string':
    case 'number':
    case 'value':
      return onlyKeys(node, LEAF_KEYS) && isLiteral(node.value) ? { k: 'value', v: node.value } : null;
    case 'variable':
      return onlyKeys(node, LEAF_KEYS) && typeof node.value === 'string' && NAME.test(node.value) ? { k: 'var', name: node.value } : null;
    case 'path':
      return pathOf(node);
    case 'function':
      return callOf(node);
    case 'binary': {
      if (!onlyKeys(node, BINARY_KEYS)) return null;
      const op = node.value;
      if (op !== '=' && op !== '!=' && op !== 'and' && op !== 'or') return null;
      const l = convert(node.lhs as Node);
      const r = l && convert(node.rhs as Node);
      return l && r ? { k: op, l, r } : null;
    }
    default:
      return null;
  }
}

function pathOf(node: Node): FastExpression | null {
  if (!onlyKeys(node, PATH_KEYS) || !Array.isArray(node.steps) || node.steps.length === 0) return null;
  const steps: string[] = [];
  for (const step of node.steps as Node[]) {
    if (step.type !== 'name' || !onlyKeys(step, LEAF_KEYS) || typeof step.value !== 'string') return null;
    steps.push(step.value);
  }
  return { k: 'path', steps };
}

function callOf(node: Node): FastExpression | null {
  if (node.value !== '(' || node.name !== undefined || !onlyKeys(node, CALL_KEYS) || !Array.isArray(node.arguments)) return null;
  // Only hookpolicy's own functions: JSONata's have semantics of their own.
  const procedure = node.procedure as Node;
  const fn = procedure?.type === 'variable' && onlyKeys(procedure, LEAF_KEYS) && typeof procedure.value === 'string' ? procedure.value : null;
  if (fn === null || !EXPRESSION_FUNCTION_NAMES.includes(fn)) return null;
  const args: FastExpression[] = [];
  for (const arg of node.arguments as Node[]) {
    const converted = convert(arg);
    if (!converted) return null;
    args.push(converted);
  }
  return { k: 'call', fn, args };
}

function onlyKeys(node: Node, allowed: ReadonlySet<string>): boolean {
  return node !== null && typeof node === 'object' && Object.keys(node).every((k) => allowed.has(k));
}

function isLiteral(v: unknown): v is string | number | boolean | null {
  return v === null || typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v));
}
