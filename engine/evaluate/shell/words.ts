/**
 * Shell words as static text: what the shell would pass to a command, when that can be
 * known without running anything. A word with an expansion the shell resolves at run time
 * (`$VAR`, `$(...)`, globs, brace expansion, `~user`) has no static text.
 */
import { decodeAnsiC } from './ansi-c';
import { child, list, text, type ShellSyntax, type ShNode } from './parser';

/** One argument: its text, or null when only the running shell could know it. */
export type Arg = string | null;

/** What a word needs besides the tree: `~` is the home folder when one is known. */
export interface WordOptions {
  home?: string;
}

/**
 * The word's text after quote removal, or null when it has a run-time expansion.
 * A word that is only a process substitution is the file descriptor path bash passes.
 * @example wordText(sh, parse('echo "a b"').Stmts[0].Cmd.Args[1], {}) // 'a b'
 */
export function wordText(sh: ShellSyntax, word: ShNode | null, options: WordOptions): Arg {
  const parts = list(word, 'Parts');
  if (parts.length === 1 && sh.nodeType(parts[0]) === 'ProcSubst') return '/dev/fd/63';
  const assignmentLike = parts.length > 0 && sh.nodeType(parts[0]) === 'Lit' && ASSIGNMENT_LIKE.test(text(parts[0], 'Value'));
  let out = '';
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i];
    switch (sh.nodeType(part)) {
      case 'Lit': {
        const lit = unquotedLit(text(part, 'Value'), i === 0 ? options.home : undefined, i === 0, assignmentLike);
        if (lit === null) return null;
        out += lit;
        break;
      }
      case 'SglQuoted': {
        const value = text(part, 'Value');
        const decoded = part.Dollar === true ? decodeAnsiC(value) : value;
        if (decoded === null) return null;
        out += decoded;
        break;
      }
      case 'DblQuoted': {
        for (const inner of list(part, 'Parts')) {
          if (sh.nodeType(inner) !== 'Lit') return null;
          out += doubleQuotedText(text(inner, 'Value'));
        }
        break;
      }
      default:
        return null;
    }
  }
  return out;
}

/**
 * The parser's word as the fast path's parts (for pathname expansion: globs.ts), or null
 * when it holds anything but literal and quoted text.
 * @example wordParts(sh, parse('rm .claude/*').Stmts[0].Cmd.Args[1]) // [{ quote: '', raw: '.claude/*' }]
 */
export function wordParts(sh: ShellSyntax, word: ShNode | null): WordPart[] | null {
  const parts: WordPart[] = [];
  for (const part of list(word, 'Parts')) {
    switch (sh.nodeType(part)) {
      case 'Lit':
        parts.push({ quote: '', raw: text(part, 'Value') });
        break;
      case 'SglQuoted': {
        const value = text(part, 'Value');
        const decoded = part.Dollar === true ? decodeAnsiC(value) : value;
        if (decoded === null) return null;
        parts.push({ quote: "'", raw: decoded });
        break;
      }
      case 'DblQuoted': {
        let raw = '';
        for (const inner of list(part, 'Parts')) {
          if (sh.nodeType(inner) !== 'Lit') return null;
          raw += text(inner, 'Value');
        }
        parts.push({ quote: '"', raw });
        break;
      }
      case 'ExtGlob': {
        // An extended pattern (`@(a|b)`), as unquoted text; one with quotes or expansions inside is not read.
        const pattern = text(child(part, 'Pattern'), 'Value');
        const op = sh.operator(part.Op);
        if (op === '' || /["'$`]/.test(pattern)) return null;
        parts.push({ quote: '', raw: `${op}${pattern})` });
        break;
      }
      default:
        return null;
    }
  }
  return parts;
}

/**
 * One part of a word as the fast path's scanner (simple-script.ts) reads it: unquoted text
 * as written (backslashes kept, as in the parser's Lit), or what '...' or "..." enclose.
 */
export interface WordPart {
  quote: '' | "'" | '"';
  raw: string;
}

/**
 * The text of a word read by the fast path's scanner: what wordText gives for the same
 * word read by the parser.
 * @example partsText([{ quote: '', raw: 'a' }, { quote: '"', raw: 'b c' }], {}) // 'ab c'
 */
export function partsText(parts: readonly WordPart[], options: WordOptions): Arg {
  const assignmentLike = parts.length > 0 && parts[0].quote === '' && ASSIGNMENT_LIKE.test(parts[0].raw);
  let out = '';
  for (let i = 0; i < parts.length; i++) {
    const { quote, raw } = parts[i];
    if (quote === "'") out += raw;
    else if (quote === '"') out += doubleQuotedText(raw);
    else {
      const lit = unquotedLit(raw, i === 0 ? options.home : undefined, i === 0, assignmentLike);
      if (lit === null) return null;
      out += lit;
    }
  }
  return out;
}

/**
 * The nested scripts of a node: `$(...)`, backticks and `<(...)`/`>(...)`, each a list of
 * statements run in a subshell. Does not look inside the nested scripts themselves.
 * @example nestedScripts(sh, word) // [[stmt]] for "$(rm x)"
 */
export function nestedScripts(sh: ShellSyntax, node: ShNode | null): ShNode[][] {
  if (!node) return [];
  const found: ShNode[][] = [];
  sh.walk(node, (n) => {
    const type = sh.nodeType(n);
    if (type === 'CmdSubst' || type === 'ProcSubst') {
      found.push(list(n, 'Stmts'));
      return false;
    }
    return true;
  });
  return found;
}

/**
 * The static text of a here-document or here-string redirect, or null when it expands.
 * @example heredocText(sh, redirect) // 'rm -rf x\n'
 */
export function heredocText(sh: ShellSyntax, redirect: ShNode, options: WordOptions): Arg {
  const body = child(redirect, 'Hdoc');
  if (body) {
    let out = '';
    for (const part of list(body, 'Parts')) {
      if (sh.nodeType(part) !== 'Lit') return null;
      out += text(part, 'Value');
    }
    return out;
  }
  return wordText(sh, child(redirect, 'Word'), options);
}

/** Text inside double quotes: a backslash escapes only `$`, a backtick, `"`, itself and a new line. */
function doubleQuotedText(raw: string): string {
  return raw.replace(/\\([$`"\\\n])/g, (_m, c: string) => (c === '\n' ? '' : c));
}

/**
 * A word that starts like an assignment (`of=~/x`, even as an argument): bash expands a `~`
 * after its `=` and after each `:` (`dd of=~/.bashrc` writes the home folder's file).
 */
const ASSIGNMENT_LIKE = /^[A-Za-z_][A-Za-z0-9_]*=/;

/** Unescapes an unquoted literal; null when it globs, brace-expands, names another user's home or may expand a `~` inside. */
function unquotedLit(raw: string, home: string | undefined, first: boolean, assignmentLike = false): Arg {
  if (hasExpansion(raw) || (assignmentLike && raw.includes('~'))) return null;
  let value = raw;
  if (first && value.startsWith('~')) {
    const slash = value.indexOf('/');
    const user = slash < 0 ? value.slice(1) : value.slice(1, slash);
    if (user !== '' || home === undefined || home === '') return null;
    value = home + (slash < 0 ? '' : value.slice(slash));
  }
  return value.replace(/\\(\n|[\s\S])/g, (_m, c: string) => (c === '\n' ? '' : c));
}

/** Unescaped `*`, `?`, `[...]`, or `{a,b}` / `{1..3}`. */
function hasExpansion(raw: string): boolean {
  let braceOpen = -1;
  let braceList = false;
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i];
    if (c === '\\') {
      i++;
      continue;
    }
    if (c === '*' || c === '?') return true;
    if (c === '[' && raw.indexOf(']', i + 2) > 0) return true;
    if (c === '{') {
      braceOpen = i;
      braceList = false;
    } else if (braceOpen >= 0 && (c === ',' || (c === '.' && raw[i + 1] === '.'))) {
      braceList = true;
    } else if (c === '}' && braceOpen >= 0 && braceList) {
      return true;
    }
  }
  return false;
}
