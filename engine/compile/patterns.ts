/**
 * Wildcard patterns (`*` matches anything, the rest is literal) as anchored regexes.
 */
import type { RegexSource } from '../types';
import { safeMatching } from './linear-program';

/**
 * Escapes every regex metacharacter.
 * @example escapeRegex('a.b') // 'a\\.b'
 */
export function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

/**
 * An anchored regex for a wildcard pattern; one with more than two `*` (`a*b*c*d`, which
 * may backtrack for long) carries its linear-time program.
 * @example wildcardRegex('mcp__*') // { source: '^mcp__.*$', flags: '' }
 */
export function wildcardRegex(pattern: string, flags = ''): RegexSource {
  const source = `^${pattern.split('*').map(escapeRegex).join('.*')}$`;
  return pattern.split('*').length > 3 ? { source, flags, ...safeMatching(source, flags) } : { source, flags };
}
