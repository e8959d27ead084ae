/**
 * The opt-in `if` filter for Bash groups: a permission rule `Bash(PREFIX *)` is written
 * only when every rule of the group has one command regex of the form `^word\s+word\s`
 * (words of `[A-Za-z0-9_.-]`, ending in required whitespace). Such a regex only matches
 * commands that start with PREFIX followed by an argument, which `Bash(PREFIX *)` also
 * covers; anything looser (unanchored, `\b`, alternations) gets no `if`.
 */
import type { CompiledRule } from '../types';

const WORD = String.raw`(?:[A-Za-z0-9_]|\\[.-]|-)+`;
const SEP = String.raw`(?: |\\s\+?| \+)`;
const END = String.raw`(?:\\s\+?| \+?)`;
const PREFIX_REGEX = new RegExp(`^\\^(${WORD}(?:${SEP}${WORD})*)${END}$`);

/**
 * `Bash(PREFIX *)` when all rules share one translatable command prefix, else null.
 * @example ifRuleFor([ruleWithCommand('^git\\s+push\\s')]) // 'Bash(git push *)'
 */
export function ifRuleFor(rules: readonly CompiledRule[]): string | null {
  const prefixes = new Set<string>();
  for (const rule of rules) {
    if (!rule.command || rule.command.length !== 1) return null;
    const prefix = commandPrefix(rule.command[0].source, rule.command[0].flags);
    if (prefix === null) return null;
    prefixes.add(prefix);
  }
  if (prefixes.size !== 1) return null;
  return `Bash(${[...prefixes][0]} *)`;
}

/**
 * The literal prefix a command regex requires, words joined by one space, or null.
 * @example commandPrefix('^npm\\s+publish\\s', '') // 'npm publish'
 */
export function commandPrefix(source: string, flags: string): string | null {
  if (flags.replace(/[gyd]/g, '') !== '') return null;
  const m = PREFIX_REGEX.exec(source);
  if (!m) return null;
  return m[1]
    .split(new RegExp(SEP))
    .map((w) => w.replace(/\\(.)/g, '$1'))
    .join(' ');
}
