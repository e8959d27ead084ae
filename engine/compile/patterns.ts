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
 * An anchored regex for a wildcard pattern; one with more than two `*` that may backtrack
 * for long (`a*b*c*d`) carries its linear-time program.
 * @example wildcardRegex('mcp__*') // { source: '^mcp__.*$', flags: '' }
 */
export function wildcardRegex(pattern: string, flags = ''): RegexSource {
  const source = `^${pattern.split('*').map(escapeRegex).join('.*')}$`;
  // Each `*` is a `.*` of its own (`**` is two in a row).
  const stars = pattern.split('*').length - 1;
  return stars >= 3 ? { source, flags, ...safeMatching(source, flags, stars) } : { source, flags };
}
