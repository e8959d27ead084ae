/**
 * Compiles a rule's `match` (event field -> wildcard patterns).
 */
import type { CompiledRule } from '../types';
import { isObject } from './context';
import { wildcardRegex } from './patterns';

/**
 * One entry per field, patterns anchored; `*` also matches across newlines.
 * @example compileMatch({ source: ['startup', 'res*'] })
 *   // [{ field: 'source', patterns: [{ source: '^startup$', flags: 's' }, { source: '^res.*$', flags: 's' }] }]
 */
export function compileMatch(match: unknown): CompiledRule['match'] {
  if (!isObject(match)) return [];
  return Object.entries(match).map(([field, value]) => {
    const list = Array.isArray(value) ? value : [value];
    return { field, patterns: list.map((p) => wildcardRegex(String(p), 's')) };
  });
}
