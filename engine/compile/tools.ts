/**
 * Compiles a rule's `tools` into exact names and wildcard patterns.
 */
import type { CompiledRule, RegexSource } from '../types';
import { wildcardRegex } from './patterns';

/**
 * `"Write|Edit"`, `"Write, Edit"` or a list -> names and patterns; null without `tools`.
 * @example compileTools('Write|mcp__*') // { names: ['Write'], patterns: [{ source: '^mcp__.*$', flags: '' }] }
 */
export function compileTools(tools: unknown): CompiledRule['tools'] {
  if (tools === undefined) return null;
  const entries = typeof tools === 'string' ? tools.split(/[|,]/) : Array.isArray(tools) ? tools.map(String) : [];
  const names: string[] = [];
  const patterns: RegexSource[] = [];
  const seen = new Set<string>();
  for (const raw of entries) {
    const name = raw.trim();
    if (name === '' || seen.has(name)) continue;
    seen.add(name);
    if (name.includes('*')) patterns.push(wildcardRegex(name));
    else names.push(name);
  }
  return { names, patterns };
}
