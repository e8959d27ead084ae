/**
 * The fast path: the commands agents run most, read without the shell parser (mvdan-sh, a
 * 1.5 MB bundle: 10 ms through the code cache, up to 150 ms cold). A hand-written scanner
 * for a subset of bash whose reading is certain: words of plain characters, '...', "..."
 * without `$` or backticks, backslash escapes, assignments before a command, redirections
 * and here-documents, joined by `&&`, `||`, `;`, `|` and new lines. It gives the walker
 * what the parser would (walk.ts walkSimple); anything else, or anything the parser reads
 * otherwise than bash, returns null and is parsed: when in doubt, it parses. A property
 * test (simple-script.test.ts) holds every answer to the parser's.
 */
import type { WordPart } from './words';

/** How a command is joined to the one before it ('' for the first; a new line is ';'). */
export type SimpleJoin = '' | '&&' | '||' | ';' | '|';

export type SimpleWord = readonly WordPart[];

export interface SimpleRedirect {
  /** '>', '>>', '>|', '<', '<>', '&>', '&>>', '>&', '<&', '<<', '<<-' or '<<<' (the parser's names). */
  op: string;
  /** The descriptor written before the operator ('' for none). */
  n: string;
  /** The target, the here-string, or the here-document's delimiter. */
  word: SimpleWord;
  /** A here-document's text (never empty). */
  body?: string;
}

export interface SimpleCommand {
  join: SimpleJoin;
  /** Names of the variables assigned before the command (`A=1 cmd`), in order. */
  assigns: string[];
  words: SimpleWord[];
  redirects: SimpleRedirect[];
}

/** Control characters other than tab and new line (a carriage return is a blank to the parser, a letter to bash), or half a surrogate pair. */
const REFUSED = /[\0-\x08\x0b-\x1f\x7f]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
/** Characters that end a word. */
const META = new Set([' ', '\t', '\n', ';', '&', '|', '<', '>', '(', ')']);
/** Unquoted characters of a word (`[` only as a word of its own: the parser splits words at it). */
const WORD_CHAR = /[A-Za-z0-9_./:,@%+=^~#*?\]-]/;
const REDIRECT_OPS = ['<<<', '<<-', '<<', '<&', '<>', '<', '>>', '>&', '>|', '>', '&>>', '&>'];
/** A here-document delimiter: letters, digits and `_`, bare or in one pair of quotes. */
const DELIMITER = /^[A-Za-z0-9_]+$/;
const ASSIGNMENT = /^([A-Za-z_][A-Za-z0-9_]*)=/;
/** Words the shell (or the parser) reads as syntax at the start of a command; the declaration builtins are the parser's own nodes. */
const RESERVED = new Set(['if', 'then', 'else', 'elif', 'fi', 'do', 'done', 'case', 'esac', 'while', 'until', 'for', 'in', 'function', 'select', 'time', 'coproc',
  '[[', ']]', 'export', 'declare', 'local', 'readonly', 'typeset', 'nameref', 'let']);

/** The command is outside the subset: it goes to the parser. */
class Decline extends Error {}

interface PendingHeredoc {
  redirect: SimpleRedirect;
  delimiter: string;
  quoted: boolean;
  dash: boolean;
}

/**
 * The simple commands of a command in the fast path's subset, or null when it must be parsed.
 * @example simpleScript('echo hi > out.txt')?.[0].redirects[0] // { op: '>', n: '', word: [{ quote: '', raw: 'out.txt' }] }
 * @example simpleScript('echo $HOME') // null
 */
export function simpleScript(command: string): SimpleCommand[] | null {
  if (REFUSED.test(command)) return null;
  try {
    return new Scanner(command).script();
  } catch (err) {
    if (err instanceof Decline) return null;
    throw err;
  }
}

class Scanner {
  private i = 0;
  private readonly commands: SimpleCommand[] = [];
  private current: SimpleCommand = empty('');
  /** After `&&`, `||` or `|`: a command must follow (new lines may come first). */
  private needCommand = false;
  private pending: PendingHeredoc[] = [];

  constructor(private readonly s: string) {}

  script(): SimpleCommand[] {
    const s = this.s;
    for (;;) {
      this.skipBlanks();
      const c = s[this.i];
      if (c === undefined) break;
      if (c === '#') {
        const end = s.indexOf('\n', this.i);
        // A comment ending in a backslash: the parser continues it on the next line, bash does not.
        if (end > 0 && s[end - 1] === '\\') throw new Decline();
        this.i = end < 0 ? s.length : end;
      } else if (c === '\n') {
        this.i++;
        if (this.needCommand) {
          // `a &&` then a new line: the command follows; a here-document's body here is the parser's.
          if (this.pending.length > 0) throw new Decline();
        } else if (!isEmpty(this.current)) {
          this.end(';');
        }
        this.heredocBodies();
      } else if (c === ';') {
        if (s[this.i + 1] === ';' || s[this.i + 1] === '&' || isEmpty(this.current)) throw new Decline();
        this.i++;
        this.end(';');
      } else if (s.startsWith('&&', this.i) || s.startsWith('||', this.i) || (c === '|' && s[this.i + 1] !== '&')) {
        const op = c === '|' && s[this.i + 1] !== '|' ? '|' : (s.slice(this.i, this.i + 2) as '&&' | '||');
        if (isEmpty(this.current)) throw new Decline();
        this.i += op.length;
        this.end(op);
        this.needCommand = true;
      } else if (c === '<' || c === '>' || s.startsWith('&>', this.i)) {
        this.redirect('');
      } else if (META.has(c)) {
        throw new Decline();
      } else {
        const word = this.word();
        const next = s[this.i];
        if ((next === '<' || next === '>') && word.length === 1 && word[0].quote === '' && /^\d+$/.test(word[0].raw)) this.redirect(word[0].raw);
        else this.addWord(word);
      }
    }
    if (this.needCommand || this.pending.length > 0) throw new Decline();
    if (!isEmpty(this.current)) this.end(';');
    return this.commands;
  }

  /** Blanks, and line continuations between words. */
  private skipBlanks(): void {
    const s = this.s;
    for (;;) {
      const c = s[this.i];
      if (c === ' ' || c === '\t') this.i++;
      else if (c === '\\' && s[this.i + 1] === '\n' && this.pending.length === 0) this.i += 2;
      else return;
    }
  }

  /** Ends the current command; the next one is joined by `join`. */
  private end(join: SimpleJoin): void {
    const cmd = this.current;
    if (cmd.words.length > 0) {
      const name = cmd.words[0].map((p) => p.raw.replace(/\\(.)/g, '$1')).join('');
      // `"A"=1 cmd`, `A+=1`, `a[1]=x`: the parser reads some of these as assignments.
      if (RESERVED.has(name) || name.includes('=')) throw new Decline();
    }
    this.commands.push(cmd);
    this.current = empty(join);
    this.needCommand = false;
  }

  private addWord(word: SimpleWord): void {
    const assignment = this.current.words.length === 0 && word[0].quote === '' ? ASSIGNMENT.exec(word[0].raw) : null;
    if (assignment) this.current.assigns.push(assignment[1]);
    else this.current.words.push(word);
    this.needCommand = false;
  }

  private redirect(n: string): void {
    const s = this.s;
    const op = REDIRECT_OPS.find((o) => s.startsWith(o, this.i));
    if (op === undefined) throw new Decline();
    this.i += op.length;
    this.skipBlanks();
    const c = s[this.i];
    // `<(`, `>(`, a missing word, `> #x` (a comment to bash, an error to the parser).
    if (c === undefined || c === '#' || META.has(c)) throw new Decline();
    const word = this.word();
    // `>2>f`: the parser takes the 2 for the next redirection's descriptor.
    if ((s[this.i] === '<' || s[this.i] === '>') && word.length === 1 && word[0].quote === '' && /^\d+$/.test(word[0].raw)) throw new Decline();
    const redirect: SimpleRedirect = { op, n, word };
    if (op === '<<' || op === '<<-') {
      if (word.length !== 1 || !DELIMITER.test(word[0].raw) || (word[0].quote === '' && /\\/.test(word[0].raw))) throw new Decline();
      this.pending.push({ redirect, delimiter: word[0].raw, quoted: word[0].quote !== '', dash: op === '<<-' });
    }
    this.current.redirects.push(redirect);
    this.needCommand = false;
  }

  /** One word: unquoted runs, '...' and "..." parts, as the parser splits them. */
  private word(): SimpleWord {
    const s = this.s;
    const parts: WordPart[] = [];
    let lit = '';
    let afterQuote = false;
    const start = this.i;
    for (;;) {
      const c = s[this.i];
      if (c === undefined || META.has(c)) break;
      if (c === "'" || c === '"') {
        if (lit !== '') parts.push({ quote: '', raw: lit });
        lit = '';
        const end = c === "'" ? s.indexOf("'", this.i + 1) : this.doubleQuoteEnd();
        if (end < 0) throw new Decline();
        const raw = s.slice(this.i + 1, end);
        // A quoted new line before a pending here-document's body: the parser's.
        if (this.pending.length > 0 && raw.includes('\n')) throw new Decline();
        parts.push({ quote: c, raw });
        this.i = end + 1;
        afterQuote = true;
        continue;
      }
      if (c === '\\') {
        const next = s[this.i + 1];
        // A line continuation inside a word, or an escaped non-ASCII character.
        if (next === undefined || next === '\n' || next > '\x7e') throw new Decline();
        lit += c + next;
        this.i += 2;
      } else if (c === '#' && afterQuote && lit === '') {
        // `''#x`: bash reads one word, the parser a comment.
        throw new Decline();
      } else if (c === '[' && this.i === start && (s[this.i + 1] === undefined || META.has(s[this.i + 1]))) {
        lit += c;
        this.i++;
      } else if (WORD_CHAR.test(c)) {
        lit += c;
        this.i++;
      } else {
        throw new Decline();
      }
      afterQuote = false;
    }
    if (lit !== '') parts.push({ quote: '', raw: lit });
    // `'a'1>f`: the parser takes the 1 for the redirection's descriptor, bash for the word's end.
    if (parts.length > 1 && /\d$/.test(lit) && (s[this.i] === '<' || s[this.i] === '>')) throw new Decline();
    return parts;
  }

  /** Where the double-quoted string starting at i ends; declines `$`, backticks and line continuations inside. */
  private doubleQuoteEnd(): number {
    const s = this.s;
    for (let j = this.i + 1; j < s.length; j++) {
      const c = s[j];
      if (c === '"') return j;
      if (c === '$' || c === '`') throw new Decline();
      if (c === '\\') {
        if (s[j + 1] === '\n' || s[j + 1] === undefined) throw new Decline();
        j++;
      }
    }
    return -1;
  }

  /** The bodies of the here-documents opened on the line just ended, in order. */
  private heredocBodies(): void {
    const s = this.s;
    for (const doc of this.pending) {
      let body = '';
      for (;;) {
        if (this.i >= s.length) throw new Decline();
        const end = s.indexOf('\n', this.i);
        const line = s.slice(this.i, end < 0 ? s.length : end);
        this.i = end < 0 ? s.length : end + 1;
        if (line === doc.delimiter) break;
        // An unterminated last line; `<<-` strips tabs the parser keeps; an unquoted body expands `$`, backticks and backslashes.
        if (end < 0 || (doc.dash && line.startsWith('\t')) || (!doc.quoted && /[$`\\]/.test(line))) throw new Decline();
        body += `${line}\n`;
      }
      // An empty body is no body to the parser, whose walker then reads the delimiter.
      if (body === '') throw new Decline();
      doc.redirect.body = body;
    }
    this.pending = [];
  }
}

function empty(join: SimpleJoin): SimpleCommand {
  return { join, assigns: [], words: [], redirects: [] };
}

function isEmpty(cmd: SimpleCommand): boolean {
  return cmd.assigns.length === 0 && cmd.words.length === 0 && cmd.redirects.length === 0;
}
