/**
 * The paths a command whose writes cannot be known names in its words: `gzip
 * .claude/policies.yaml`, `perl -pi -e s/a/b/ .claude/settings.json`, `python3 -c
 * "open('.claude/policies.yaml', 'w')"`, `node node_modules/hookpolicy/bin/policy.cjs
 * uninstall`. Such a command may write what it names; a rule can ask about it
 * (self-protection does) without asking about every command it cannot read. Words are cut
 * at blanks, quotes, brackets and the separators code uses; a piece is kept when it looks
 * like a path (it holds a `/` or a `.`, and is no option).
 */
import type { Arg } from './words';

/** More pieces than this from one command are not looked at (a long inline program). */
export const MAX_NAMED = 64;

const CUT = /[\s'"`(){}[\],;:=<>|&!*?$\\]+/;
const PATH_LIKE = /[./]/;

/**
 * The path-like pieces of a command's words, its name included, each once.
 * @example namedTokens(['python3', '-c', "open('.claude/policies.yaml', 'w')"]) // ['.claude/policies.yaml']
 */
export function namedTokens(argv: readonly Arg[]): string[] {
  const out = new Set<string>();
  for (const word of argv) {
    if (word === null) continue;
    for (const piece of word.split(CUT)) {
      if (piece === '' || piece.startsWith('-') || !PATH_LIKE.test(piece) || /^\.+$/.test(piece)) continue;
      out.add(piece);
      if (out.size >= MAX_NAMED) return [...out];
    }
  }
  return [...out];
}

/**
 * The path-like pieces of a command that is not parsed (PowerShell), its backslashes read
 * as separators.
 * @example namedInText('Remove-Item .claude\\policies.yaml') // ['.claude/policies.yaml']
 */
export function namedInText(command: string): string[] {
  return namedTokens([command.replace(/\\/g, '/')]);
}
