/**
 * Compiles a rule's `let` values and its `require` list.
 */
import { EXPRESSION_FUNCTION_NAMES } from '../evaluate/expression-functions';
import type { CompiledLet, CompiledMemoryQuery, CompiledRequirement, LetKind, MemoryScope } from '../types';
import type { CompileContext } from './context';
import { at, isObject, report } from './context';
import { toPointer } from '../load/source-map';
import { compileExpression } from './expression';
import { compileRegex } from './regex';
import { checkTemplate } from './templates';

const KINDS = ['newest', 'file', 'expr', 'count', 'last', 'summaries', 'search', 'summary', 'metrics'] as const;
const DEFAULT_MAX_BYTES = 65536;
const DEFAULT_BUDGET_TOKENS = 500;
const DEFAULT_SEARCH_LIMIT = 3;

/**
 * Names a let cannot take: `when`'s bindings ($agent, $tool, $paths, $env), the special
 * template values, and JSONata's functions, which a `$name` binding would hide.
 */
export const RESERVED_LET_NAMES: ReadonlySet<string> = new Set([
  'agent', 'tool', 'paths', 'env',
  'event', 'path', 'command', 'rule', 'unmet', 'project',
  'sum', 'count', 'max', 'min', 'average', 'string', 'substring', 'substringBefore', 'substringAfter', 'lowercase', 'uppercase',
  'length', 'trim', 'pad', 'match', 'contains', 'replace', 'split', 'join', 'formatNumber', 'formatBase', 'formatInteger',
  'parseInteger', 'number', 'floor', 'ceil', 'round', 'abs', 'sqrt', 'power', 'random', 'boolean', 'not', 'map', 'zip', 'filter',
  'single', 'reduce', 'sift', 'keys', 'lookup', 'append', 'exists', 'spread', 'merge', 'reverse', 'each', 'error', 'assert',
  'type', 'sort', 'shuffle', 'distinct', 'base64encode', 'base64decode', 'encodeUrlComponent', 'encodeUrl', 'decodeUrlComponent',
  'decodeUrl', 'eval', 'toMillis', 'fromMillis', 'clone', 'now', 'millis',
  ...EXPRESSION_FUNCTION_NAMES,
]);

/**
 * One CompiledLet per named value, in the order written; a reserved name is reported
 * (let-name-reserved) and its let left out.
 * @example compileLets(ctx, { gc: { newest: 'a/*.md', extract: '^v:(\\S+)' } }, 0)
 *   // [{ name: 'gc', kind: 'newest', target: 'a/*.md', extract: { source: '^v:(\\S+)', flags: 'm' }, field: null, maxBytes: 65536, optional: false }]
 */
export function compileLets(ctx: CompileContext, lets: unknown, ruleIndex: number): CompiledLet[] {
  if (!isObject(lets)) return [];
  const out: CompiledLet[] = [];
  for (const [name, value] of Object.entries(lets)) {
    if (!isObject(value)) continue;
    const kind = KINDS.find((k) => value[k] !== undefined);
    if (!kind) continue;
    const pointer = (key: string) => toPointer(['rules', ruleIndex, 'let', name, key]);
    if (RESERVED_LET_NAMES.has(name)) {
      report(ctx, 'let-name-reserved', `let "${name}" is named like a value the engine already binds`, at(ctx, toPointer(['rules', ruleIndex, 'let', name]), 'key'),
        'choose another name: agent, tool, paths, env, event, path, command, rule, unmet, project and JSONata\'s function names are taken');
      continue;
    }
    const compiled = kind === 'newest' || kind === 'file' || kind === 'expr'
      ? fileLet(ctx, name, kind, value, pointer)
      : memoryLet(ctx, name, kind, value, pointer);
    if (compiled) out.push(compiled);
  }
  return out;
}

function fileLet(ctx: CompileContext, name: string, kind: 'newest' | 'file' | 'expr', value: Record<string, unknown>, pointer: (key: string) => string): CompiledLet | null {
  const target = value[kind];
  if (typeof target !== 'string') return null;
  const fast = kind === 'expr' ? compileExpression(ctx, target, pointer(kind)).fast : null;
  if (kind !== 'expr') checkTemplate(ctx, target, pointer(kind));
  const extract = typeof value.extract === 'string' ? compileRegex(ctx, value.extract, 'm', pointer('extract')) : null;
  const compiled: CompiledLet = {
    name,
    kind,
    target,
    extract,
    field: typeof value.field === 'string' ? value.field : null,
    maxBytes: typeof value.max_bytes === 'number' ? value.max_bytes : DEFAULT_MAX_BYTES,
    optional: value.optional === true,
  };
  if (fast) compiled.exprFast = fast;
  return compiled;
}

/** A store-reading let: its target and the options of its kind (the schema checked their types). */
function memoryLet(ctx: CompileContext, name: string, kind: Exclude<LetKind, 'newest' | 'file' | 'expr'>, value: Record<string, unknown>, pointer: (key: string) => string): CompiledLet | null {
  const raw = value[kind];
  const memory: CompiledMemoryQuery = { scope: isScope(value.scope) ? value.scope : 'session' };
  let target: string;
  switch (kind) {
    case 'count':
    case 'last':
      if (typeof raw !== 'string') return null;
      target = raw;
      if (kind === 'count' && typeof value.since_minutes === 'number') memory.sinceMinutes = value.since_minutes;
      if (kind === 'last' && value.first === true) memory.first = true;
      break;
    case 'summaries':
      if (typeof raw !== 'number') return null;
      target = String(raw);
      memory.limit = raw;
      memory.budgetTokens = typeof value.budget_tokens === 'number' ? value.budget_tokens : DEFAULT_BUDGET_TOKENS;
      break;
    case 'search':
      if (typeof raw !== 'string') return null;
      target = raw;
      checkTemplate(ctx, raw, pointer(kind));
      memory.limit = typeof value.limit === 'number' ? value.limit : DEFAULT_SEARCH_LIMIT;
      if (typeof value.min_relevance === 'number') memory.minRelevance = value.min_relevance;
      break;
    default:
      if (raw !== 'session') return null;
      target = raw;
  }
  return { name, kind, target, extract: null, field: null, maxBytes: 0, optional: value.optional === true, memory };
}

function isScope(value: unknown): value is MemoryScope {
  return value === 'session' || value === 'agent' || value === 'project';
}

/**
 * The rule's requirements with min_bytes defaulted to 1.
 * @example compileRequires(ctx, [{ file: 'L1.yaml' }], 0) // [{ file: 'L1.yaml', minBytes: 1 }]
 */
export function compileRequires(ctx: CompileContext, requires: unknown, ruleIndex: number): CompiledRequirement[] {
  if (!Array.isArray(requires)) return [];
  return requires.flatMap((entry: unknown, i: number) => {
    if (!isObject(entry) || typeof entry.file !== 'string') return [];
    checkTemplate(ctx, entry.file, toPointer(['rules', ruleIndex, 'require', i, 'file']));
    return [{ file: entry.file, minBytes: typeof entry.min_bytes === 'number' ? entry.min_bytes : 1 }];
  });
}
