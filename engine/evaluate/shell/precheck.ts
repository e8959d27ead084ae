/**
 * A cheap test that a command cannot write, so the parser is not even loaded for
 * `git status` or `npm test`. It must never say "cannot write" for a command that can:
 * when in doubt, it says "parse".
 */
import { KNOWN_COMMAND_NAMES } from './commands';

/**
 * Characters that redirect (`>`, also in `<>`, `>(`), expand at run time (`$`, backticks), or
 * build words (`{a,b}` brace expansion, `*`, `?`, `[` globs): with any of them, parse.
 */
const PARSE_ALWAYS = /[>$`{}*?[]/;

let names: RegExp | null = null;

/**
 * False only when the command surely writes nothing: it has no redirection or run-time
 * expansion, and no known command name starts a word, once quotes and backslashes are
 * removed (`r''m` and `\rm` are rm). Case-insensitive (`RM` is rm on macOS).
 * @example mayWrite('git status') // false
 * @example mayWrite("r''m -f x") // true
 */
export function mayWrite(command: string): boolean {
  if (PARSE_ALWAYS.test(command)) return true;
  const plain = command.replace(/\\\r?\n/g, '').replace(/[\\'"]/g, '');
  names ??= new RegExp(`(?:^|[^A-Za-z0-9_])(?:${KNOWN_COMMAND_NAMES.map(escape).join('|')})`, 'i');
  return names.test(plain);
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
