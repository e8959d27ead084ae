/**
 * Wildcard patterns (`*` matches anything, the rest is literal) as anchored regexes.
 */
import type { RegexSource } from '../types';

/**
 * Escapes every regex metacharacter.
 * @example escapeRegex('a.b') // 'a\\.b'
 */
export function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

/**
 * An anchored regex for a wildcard pattern.
 * @example wildcardRegex('mcp__*') // { source: '^mcp__.*$', flags: '' }
 */
export function wildcardRegex(pattern: string, flags = ''): RegexSource {
  return { source: `^${pattern.split('*').map(escapeRegex).join('.*')}$`, flags };
}
