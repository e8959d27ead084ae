/**
 * The regular expression literals of a JSONata expression (`/(a|b)+$/i` in `$match`,
 * `$contains`, `$replace`, `$split`, `~>`), read from JSONata's own parse, with where each is
 * written: the compiler marks those that may backtrack for long (the runner then matches
 * them under its watchdog, evaluate/expression.ts), and lint reports them at their place.
 */
import { isSuperLinear } from '../evaluate/regex-safety';
import type { LoadedFile, RegexSource } from '../types';
import { jsonataParser } from './jsonata-parse';

/** One literal: its source and flags as the runner's RegExp holds them (JSONata's `g` left out), and its offset in the expression. */
export interface ExpressionRegex {
  source: string;
  flags: string;
  offset: number;
}

const found = new Map<string, ExpressionRegex[]>();

/**
 * The literals of `expression`, in the order written; none when it does not parse.
 * Remembered per text; `ast`, JSONata's parse of it when the caller has one (compile/expression.ts).
 * @example expressionRegexes('$contains(tool_input.command, /(a|a)*$/i)') // [{ source: '(a|a)*$', flags: 'i', offset: 30 }]
 */
export function expressionRegexes(expression: string, ast?: unknown): ExpressionRegex[] {
  let list = found.get(expression);
  if (list === undefined) {
    // A literal starts with `/`: an expression without one has none, and is not parsed for them.
    if (!expression.includes('/')) list = [];
    else if (ast !== undefined) list = literalsIn(ast, expression);
    else {
      const parse = jsonataParser();
      try {
        list = literalsIn(parse(expression).ast(), expression);
      } catch {
        list = [];
      }
    }
    if (found.size >= 1000) found.clear();
    found.set(expression, list);
  }
  return list;
}

/**
 * The literals of the expressions as the runner keeps them: each once, `guard` set when it
 * may backtrack catastrophically. An expression a file's snapshot knows (`known`: a shipped
 * pack's, parsed at build time) is taken from `table` without parsing it again.
 * @example guardedRegexes(['$match(x, /(a+)+$/)']) // [{ source: '(a+)+$', flags: '', guard: true }]
 */
export function guardedRegexes(expressions: readonly string[], known?: LoadedFile['expressions'], table?: LoadedFile['expressionRegexes']): RegexSource[] {
  const out = new Map<string, RegexSource>();
  for (const expression of expressions) {
    const listed = known && Object.hasOwn(known, expression) ? table?.[expression] ?? [] : null;
    if (listed !== null) for (const r of listed) out.set(`${r.flags}/${r.source}`, { ...r });
    else for (const { source, flags } of expressionRegexes(expression)) out.set(`${flags}/${source}`, { source, flags, guard: isSuperLinear(source, flags) });
  }
  return [...out.values()];
}

function literalsIn(ast: unknown, expression: string): ExpressionRegex[] {
  const out: ExpressionRegex[] = [];
  const seen = new Set<object>();
  const visit = (node: unknown): void => {
    if (node === null || typeof node !== 'object' || seen.has(node)) return;
    seen.add(node);
    if (Array.isArray(node)) return node.forEach(visit);
    const n = node as Record<string, unknown>;
    if (n.type === 'regex' && n.value instanceof RegExp) {
      const source = n.value.source;
      const flags = n.value.flags.replace('g', '');
      // JSONata gives where the literal ends; it starts at its `/`, when its text is its source.
      const end = typeof n.position === 'number' ? n.position : expression.length;
      const at = expression.lastIndexOf(`/${source}/`, end);
      out.push({ source, flags, offset: at >= 0 ? at : 0 });
      return;
    }
    for (const value of Object.values(n)) visit(value);
  };
  visit(ast);
  return out.sort((a, b) => a.offset - b.offset);
}
