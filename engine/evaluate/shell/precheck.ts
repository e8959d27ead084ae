/**
 * The fast path: a command made of plain words joined by `&&`, `||`, `;`, `|` and new
 * lines needs no parser (about 100 ms to load), because each word is its own text. Most
 * commands an agent runs (`git status`, `ls -la src && npm test`, `rm -rf build`) are such
 * commands. Anything else (quotes, backslashes, `$`, backticks, globs, braces,
 * redirections, parentheses, comments, `~`, `!`, `&`, keywords, assignments) goes to the
 * parser: when in doubt, it parses.
 */

/** How a plain command is joined to the one before it ('' for the first). */
export type PlainJoin = '' | '&&' | '||' | ';' | '|';

export interface PlainCommand {
  argv: string[];
  join: PlainJoin;
}

/** Characters of a plain word; anything else in a command sends it to the parser. */
const PLAIN = /^[A-Za-z0-9_./:,@%+=^\- \t\n;|&]*$/;
const TOKEN = /&&|\|\||[|;\n]|[^\s;|&]+|&/g;
/** Words the shell (or the parser) reads as syntax at the start of a command. */
const RESERVED = new Set(['if', 'then', 'else', 'elif', 'fi', 'do', 'done', 'case', 'esac', 'while', 'until', 'for', 'in', 'function', 'select', 'time', 'coproc',
  'export', 'declare', 'local', 'readonly', 'typeset', 'nameref', 'let']);

/**
 * The simple commands of a plain command, or null when it is not plain (then it is parsed).
 * @example plainCommands('ls -la src && git status') // [{ argv: ['ls', '-la', 'src'], join: '' }, { argv: ['git', 'status'], join: '&&' }]
 * @example plainCommands('echo x > f') // null
 */
export function plainCommands(command: string): PlainCommand[] | null {
  if (!PLAIN.test(command)) return null;
  const commands: PlainCommand[] = [];
  // The operator since the last command ('' before the first).
  let join: PlainJoin = '';
  let current: string[] = [];
  for (const token of command.match(TOKEN) ?? []) {
    if (token === '&') return null;
    if (token === '&&' || token === '||' || token === '|' || token === ';' || token === '\n') {
      const op: PlainJoin = token === '\n' ? ';' : token;
      if (current.length === 0) {
        // `a;\n b` and blank lines are fine; any other operator without a command before it is the parser's.
        if (op === ';' && join === ';' && commands.length > 0) continue;
        return null;
      }
      if (current[0].includes('=') || RESERVED.has(current[0])) return null;
      commands.push({ argv: current, join });
      current = [];
      join = op;
      continue;
    }
    current.push(token);
  }
  if (current.length > 0) {
    if (current[0].includes('=') || RESERVED.has(current[0])) return null;
    commands.push({ argv: current, join });
  } else if (join !== ';' && commands.length > 0) {
    return null;
  }
  return commands;
}
