/**
 * Walks a parsed script in execution order, tracking the working folder through `cd` and
 * the file descriptors through redirections, and collects every write: redirections and
 * the writes of each command (commands.ts), inside `&&`, `||`, `;`, pipes, `( )`, `{ }`,
 * `$( )`, backticks, process substitutions, functions (where they are called), traps and
 * nested `bash -c` / `eval` scripts (bounded depth).
 */
import { absolutePath } from '../paths';
import { commandEffect, commandName } from './commands';
import type { Stdin, WriteTarget } from './effects';
import { FdTable } from './fds';
import { child, list, text, ShellSyntaxError, type ShellSyntax, type ShNode } from './parser';
import { unsafeVariable } from './variables';
import { applyRedirect } from './redirects';
import type { SimpleCommand, SimpleRedirect } from './simple-script';
import { expandWord, type ListFolder } from './globs';
import { applyChange, BASH_DEFAULTS, unionOptions, type GlobOptions } from './glob-options';
import { namedTokens } from './named-paths';
import { heredocText, nestedScripts, partsText, wordParts, wordText, type Arg, type WordPart } from './words';

/** The shell's state at one point. */
interface WalkState {
  /** Working folder; null once unknown. */
  cwd: string | null;
  stdin: Stdin;
  fds: FdTable;
  /** Inside a branch or a loop: descriptors only gain files (what may have run adds up). */
  merge: boolean;
  /** The pattern options in force (shopt, set -f: glob-options.ts). */
  glob: GlobOptions;
}

export interface FoundWrite {
  target: WriteTarget;
  /** Absolute working folder the path is relative to; null when unknown. */
  cwd: string | null;
  /** The command (or redirection) that writes. */
  by: string;
  /** The descriptors of the writing command, for `/dev/stdout`, `/dev/fd/N`... */
  fds: FdTable;
}

/** A path a command whose writes cannot be known names in its words (named-paths.ts). */
export interface NamedPath {
  path: string;
  /** Absolute working folder the path is relative to; null when unknown. */
  cwd: string | null;
}

export interface WalkResult {
  writes: FoundWrite[];
  /** Why some writes cannot be known, one reason per place. */
  unsure: string[];
  /** What the commands whose writes cannot be known name. */
  named: NamedPath[];
}

export interface WalkOptions {
  home?: string;
  /** Absolute project root: git is trusted inside it only. */
  projectRoot?: string;
  /** The team's `known_commands`, each as its first words. */
  known?: readonly (readonly string[])[];
  /** Lists a folder: words with `*`, `?` or `[...]` are expanded as bash does (globs.ts); without it they are not static. */
  listFolder?: ListFolder;
}

/** Commands that may change this shell's folder (a cd through them included). */
const CWD_COMMANDS = new Set(['cd', 'pushd', 'popd', 'eval', 'builtin', 'command', 'source', '.']);
/** Commands that may set the pattern options: the fast path leaves them to the parser's tree. */
const GLOB_SETTERS = new Set(['shopt', 'set']);
/** Variables that change the pattern options: GLOBIGNORE (dotglob), BASHOPTS and SHELLOPTS (a nested shell's). */
const OPTION_VARIABLES = /GLOBIGNORE|BASHOPTS|SHELLOPTS/;
const MAX_DEPTH = 6;

/**
 * Every write of a script run in `cwd`.
 * @example walkScript(sh, 'cd sub && echo x > f', '/p', {}) // { writes: [{ target: { path: 'f' }, cwd: '/p/sub', by: '>', fds }], unsure: [] }
 */
export function walkScript(sh: ShellSyntax, script: string, cwd: string, options: WalkOptions): WalkResult {
  const walker = new Walker(sh, options);
  walker.script(script, { cwd, stdin: { kind: 'none' }, fds: FdTable.initial(), merge: false, glob: BASH_DEFAULTS }, 0, 'the command');
  walker.runDeferred();
  return { writes: walker.writes, unsure: [...new Set(walker.unsure)], named: walker.named };
}

/**
 * Every write of a command read by the fast path's scanner (simple-script.ts), without the
 * parser: what walkScript finds for the same command. Null when it needs the parser after
 * all (a nested script, a trap, a cd next to `||`).
 * @example walkSimple(simpleScript('cd sub && rm x')!, '/p', {})?.writes[0].cwd // '/p/sub'
 */
export function walkSimple(commands: readonly SimpleCommand[], cwd: string, options: WalkOptions): WalkResult | null {
  const name = (c: SimpleCommand) => (c.words.length > 0 ? partsText(c.words[0], { home: options.home }) : null);
  // `a || b` after a cd is left to the parser's tree, which knows what groups with what;
  // so is a command that may change the pattern options (shopt, set, GLOBIGNORE...).
  if (commands.some((c) => c.join === '||') && commands.some((c) => CWD_COMMANDS.has(commandName(name(c) ?? '')))) return null;
  const setsOptions = (c: SimpleCommand) => c.words.slice(0, 2).some((w, i) => (i === 0 || ['builtin', 'command'].includes(name(c) ?? '')) && GLOB_SETTERS.has(partsText(w, {}) ?? ''));
  if (commands.some((c) => setsOptions(c) || c.assigns.some((a) => OPTION_VARIABLES.test(a)))) return null;
  const walker = new Walker(null, options);
  // As walkScript: the assignments are checked before anything runs.
  for (const c of commands) for (const a of c.assigns) walker.variable(a);
  const state: WalkState = { cwd, stdin: { kind: 'none' }, fds: FdTable.initial(), merge: false, glob: BASH_DEFAULTS };
  try {
    for (let i = 0; i < commands.length;) {
      let end = i + 1;
      while (end < commands.length && commands[end].join === '|') end++;
      if (end - i === 1) walker.runSimple(commands[i], state);
      else {
        // Each stage of a pipeline is a subshell; the pipe replaces its output (all but the last) and its input (all but the first).
        for (let k = i; k < end; k++) {
          const stage = copy(state);
          if (k < end - 1) stage.fds = stage.fds.set(1, [], false);
          if (k > i) {
            stage.stdin = { kind: 'pipe' };
            stage.fds = stage.fds.set(0, [], false);
          }
          walker.runSimple(commands[k], stage);
        }
      }
      i = end;
    }
    walker.runDeferred();
  } catch (err) {
    if (err instanceof NeedsParser) return null;
    throw err;
  }
  return { writes: walker.writes, unsure: [...new Set(walker.unsure)], named: walker.named };
}

/** Thrown on the fast path when a script has to be parsed. */
class NeedsParser extends Error {}

class Walker {
  readonly writes: FoundWrite[] = [];
  readonly unsure: string[] = [];
  readonly named: NamedPath[] = [];
  /** Functions defined so far, by name: every body a definition gave (a branch may give several). */
  private readonly functions = new Map<string, ShNode[]>();
  /** Trap scripts, walked at the end: they run at a time that cannot be known. */
  private readonly deferred: Array<{ script: Arg; who: string; cwd: string | null; depth: number; glob: GlobOptions }> = [];
  private folderChanged = false;
  private heldFiles = false;
  /** GLOBIGNORE is set somewhere: a pattern may match dot names (dotglob), whatever it ignores. */
  private globIgnore = false;
  /** BASHOPTS or SHELLOPTS is set somewhere: a nested shell starts with options not known. */
  private optionsUnknown = false;
  private readonly root: string | null;

  /** The parser, or null on the fast path (where a script to parse throws NeedsParser). */
  private readonly syntax: ShellSyntax | null;

  constructor(syntax: ShellSyntax | null, private readonly options: WalkOptions) {
    this.syntax = syntax;
    this.root = options.projectRoot ? absolutePath(options.projectRoot, '/') : null;
  }

  private get sh(): ShellSyntax {
    if (!this.syntax) throw new NeedsParser();
    return this.syntax;
  }

  /** One command read by the fast path's scanner: its redirections, then the command (as stmt and call). */
  runSimple(cmd: SimpleCommand, state: WalkState): void {
    const home = { home: this.options.home };
    const bareExec = cmd.words.length === 1 && partsText(cmd.words[0], {}) === 'exec';
    this.statement(state, (touched) => {
      for (const r of cmd.redirects) this.simpleRedirect(r, state, touched);
    }, () => {
      if (cmd.words.length > 0) this.run(cmd.words.flatMap((w) => this.expand(partsText(w, home), () => w, state)), state, 0, true);
    }, bareExec);
  }

  /**
   * The arguments a word becomes: its text; or, for a word whose only expansions are
   * braces and patterns (`.claude/{a,b}`, `.claude/*`), the words and names bash passes
   * (globs.ts); [null] when that cannot be known.
   */
  private expand(word: Arg, parts: () => readonly WordPart[] | null, state: WalkState): Arg[] {
    if (word !== null || !this.options.listFolder) return [word];
    const found = parts();
    const glob = this.globIgnore && state.glob.dotglob !== true ? { ...state.glob, dotglob: 'maybe' as const } : state.glob;
    return (found ? expandWord(found, { home: this.options.home, cwd: state.cwd, list: this.options.listFolder, glob }) : null) ?? [null];
  }

  /** A redirection's target: a pattern must match one name (more is bash's "ambiguous redirect"). */
  private expandOne(word: Arg, parts: () => readonly WordPart[] | null, state: WalkState): Arg {
    const names = this.expand(word, parts, state);
    return names.length === 1 ? names[0] : null;
  }

  private simpleRedirect(r: SimpleRedirect, state: WalkState, touched: Set<number>): void {
    const target = () => this.expandOne(partsText(r.word, { home: this.options.home }), () => r.word, state);
    // A here-string's word is not a pathname pattern: its text as written.
    this.redirectWith(r.op, r.n, target, () => r.body ?? partsText(r.word, { home: this.options.home }), state, touched);
  }

  /** Why setting the variable `name` makes the command not checkable, if it does. */
  variable(name: string): void {
    this.optionVariable(name);
    const problem = unsafeVariable(name);
    if (problem) this.unsure.push(problem);
  }

  /** A word or a variable that names GLOBIGNORE, BASHOPTS or SHELLOPTS: patterns are read as they may then be. */
  private optionVariable(text: Arg): void {
    if (text === null || !OPTION_VARIABLES.test(text)) return;
    if (text.includes('GLOBIGNORE')) this.globIgnore = true;
    else this.optionsUnknown = true;
  }

  script(text: Arg, state: WalkState, depth: number, who: string): void {
    if (text === null) return void this.unsure.push(`${who} runs a script that is not static`);
    if (depth > MAX_DEPTH) return void this.unsure.push(`${who} nests scripts more than ${MAX_DEPTH} deep`);
    this.optionVariable(text);
    let file: ShNode;
    try {
      file = this.sh.parse(text);
    } catch (err) {
      if (!(err instanceof ShellSyntaxError)) throw err;
      return void this.unsure.push(`${who} cannot be parsed (${err.message})`);
    }
    this.variables(file);
    this.stmts(list(file, 'Stmts'), state, depth);
  }

  /** Traps run at a time that cannot be known: in a folder and with descriptors known only if they never change. */
  runDeferred(): void {
    for (let i = 0; i < this.deferred.length; i++) {
      const d = this.deferred[i];
      const fds = this.heldFiles ? FdTable.unknownTable() : FdTable.initial();
      this.script(d.script, { cwd: this.folderChanged ? null : d.cwd, stdin: { kind: 'none' }, fds, merge: true, glob: d.glob }, d.depth + 1, d.who);
    }
  }

  /** Every assignment the script makes by its syntax: `VAR=x`, `for VAR in`, `${VAR:=x}`. */
  private variables(file: ShNode): void {
    this.sh.walk(file, (n) => {
      const type = this.sh.nodeType(n);
      let name: Arg | undefined;
      if (type === 'Assign' || type === 'WordIter') name = child(n, 'Name') ? text(child(n, 'Name'), 'Value') : undefined;
      else if (type === 'ParamExp') {
        const op = this.sh.operator(child(n, 'Exp')?.Op);
        if (op === '${=' || op === '${:=') name = text(child(n, 'Param'), 'Value');
      }
      const problem = name === undefined ? null : unsafeVariable(name);
      if (problem) this.unsure.push(problem);
      if (name !== undefined) this.optionVariable(name);
      return true;
    });
  }

  private stmts(stmts: readonly ShNode[], state: WalkState, depth: number): void {
    for (const stmt of stmts) this.stmt(stmt, state, depth);
  }

  private stmt(stmt: ShNode | null, outer: WalkState, depth: number): void {
    if (!stmt) return;
    // A background job runs in a subshell: its cd does not reach the next statement.
    const state = stmt.Background === true ? copy(outer) : outer;
    const cmd = child(stmt, 'Cmd');
    this.statement(state, (touched) => {
      for (const r of list(stmt, 'Redirs')) this.redirect(r, state, depth, touched);
    }, () => {
      if (cmd) this.command(cmd, state, depth);
    }, cmd !== null && this.isBareExec(cmd));
  }

  /**
   * A statement: its redirections, then its command. A here-document feeds this statement
   * only; its redirections end with it, unless the statement is a bare `exec`, which
   * applies them to the shell itself.
   */
  private statement(state: WalkState, redirects: (touched: Set<number>) => void, command: () => void, bareExec: boolean): void {
    const stdin = state.stdin;
    const before = state.fds;
    const touched = new Set<number>();
    redirects(touched);
    command();
    state.stdin = stdin;
    if (!bareExec) state.fds = state.fds.restore(touched, before);
  }

  private isBareExec(cmd: ShNode): boolean {
    if (this.sh.nodeType(cmd) !== 'CallExpr') return false;
    const words = list(cmd, 'Args');
    return words.length === 1 && wordText(this.sh, words[0], {}) === 'exec';
  }

  private redirect(r: ShNode, state: WalkState, depth: number, touched: Set<number>): void {
    this.nested(child(r, 'Word'), state, depth);
    this.nested(child(r, 'Hdoc'), state, depth);
    const options = { home: this.options.home };
    const word = child(r, 'Word');
    const target = () => this.expandOne(wordText(this.sh, word, options), () => wordParts(this.sh, word), state);
    this.redirectWith(this.sh.operator(r.Op), text(child(r, 'N'), 'Value'), target, () => heredocText(this.sh, r, options), state, touched);
  }

  /** One redirection: what it writes, and the descriptors and standard input after it. */
  private redirectWith(op: string, n: string, target: () => Arg, here: () => Arg, state: WalkState, touched: Set<number>): void {
    const result = applyRedirect({ op, n, target, cwd: state.cwd, fds: state.fds, merge: state.merge });
    if (result.write !== undefined) this.found({ path: result.write }, state.cwd, op, state.fds);
    if (result.unsure) this.unsure.push(result.unsure);
    if (result.stdin === 'here') state.stdin = { kind: 'text', text: here() };
    else if (result.stdin === 'file') state.stdin = { kind: 'none' };
    if (result.fds.allFiles().some((f) => f.path !== null)) this.heldFiles = true;
    state.fds = result.fds;
    for (const fd of result.touched) touched.add(fd);
  }

  private command(cmd: ShNode, state: WalkState, depth: number): void {
    switch (this.sh.nodeType(cmd)) {
      case 'CallExpr': return this.call(cmd, state, depth);
      case 'BinaryCmd': return this.binary(cmd, state, depth);
      case 'Subshell': return this.stmts(list(cmd, 'Stmts'), copy(state), depth);
      case 'Block': return this.stmts(list(cmd, 'Stmts'), state, depth);
      case 'FuncDecl': return this.define(cmd);
      case 'DeclClause': return this.declare(cmd, state, depth);
      default: return this.generic(cmd, state, depth);
    }
  }

  /** A function runs where it is called, in the caller's folder and with its descriptors. */
  private define(cmd: ShNode): void {
    const name = text(child(cmd, 'Name'), 'Value');
    const body = child(cmd, 'Body');
    if (!body) return;
    this.functions.set(name, [...(this.functions.get(name) ?? []), body]);
  }

  /** `export`, `declare`, `local`, `readonly`, `typeset`: the names are checked with every assignment; here, their flags. */
  private declare(cmd: ShNode, state: WalkState, depth: number): void {
    const variant = text(child(cmd, 'Variant'), 'Value') || 'declare';
    for (const arg of list(cmd, 'Args')) {
      this.nested(arg, state, depth);
      if (child(arg, 'Name')) continue;
      const word = wordText(this.sh, child(arg, 'Value'), { home: this.options.home });
      if (word === null) this.unsure.push(`${variant} gets an argument that is not static`);
      else if (/^-[A-Za-z]*n/.test(word)) this.unsure.push(`${variant} -n makes a name stand for another variable`);
    }
  }

  private call(cmd: ShNode, state: WalkState, depth: number): void {
    for (const a of list(cmd, 'Assigns')) this.nested(a, state, depth);
    const words = list(cmd, 'Args');
    for (const w of words) this.nested(w, state, depth);
    if (words.length > 0) this.run(words.flatMap((w) => this.expand(wordText(this.sh, w, { home: this.options.home }), () => wordParts(this.sh, w), state)), state, depth, true);
  }

  /** One simple command; `direct` when the shell runs it itself (a function is called), not through a prefix. */
  private run(argv: Arg[], state: WalkState, depth: number, direct: boolean): void {
    const head = argv[0];
    if (direct && typeof head === 'string' && this.functions.has(head)) return this.callFunction(head, state, depth);
    const who = head === null ? 'a command' : commandName(head);
    const inProject = state.cwd !== null && this.root !== null && (state.cwd === this.root || state.cwd.startsWith(`${this.root.replace(/\/$/, '')}/`));
    const effect = commandEffect(argv, { stdin: state.stdin, home: this.options.home, inProject, known: this.options.known, ...(this.root !== null ? { projectRoot: this.root } : {}) });
    if (effect.unsure) this.unsure.push(`${who}: ${effect.unsure}`);
    for (const arg of argv) this.optionVariable(arg);
    if (effect.glob) state.glob = applyChange(state.glob, effect.glob, state.merge);
    // What it names may be written: it cannot be checked, or it runs a command on files found at run time (`find .claude -exec rm {} +`).
    if (effect.unsure || effect.runs?.some((inner) => inner.argv.includes(null))) for (const path of namedTokens(argv)) this.named.push({ path, cwd: state.cwd });
    for (const w of effect.writes ?? []) this.found(w, state.cwd, who, state.fds);
    if (effect.script !== undefined) {
      if (effect.deferred) {
        // A trap runs at a time that cannot be known (DEBUG: before every command): options it may set are unknown from here on.
        const changes = effect.script === null || /\b(?:shopt|set)\b/.test(effect.script);
        if (changes) state.glob = applyChange(state.glob, 'unknown', false);
        this.deferred.push({ script: effect.script, who, cwd: state.cwd, depth, glob: applyChange(state.glob, 'unknown', false) });
      } else {
        // A nested shell starts with bash's defaults and its own -O / -f, not this shell's options.
        const nested = this.optionsUnknown ? applyChange(BASH_DEFAULTS, 'unknown', false) : effect.scriptGlob ? applyChange(BASH_DEFAULTS, effect.scriptGlob, false) : BASH_DEFAULTS;
        const scriptState = effect.scriptInShell ? state : { cwd: state.cwd, stdin: { kind: 'none' } as const, fds: state.fds, merge: state.merge, glob: nested };
        this.script(effect.script, scriptState, depth + 1, who);
      }
    }
    for (const inner of effect.runs ?? []) {
      if (depth > MAX_DEPTH) {
        this.unsure.push(`${who} nests commands more than ${MAX_DEPTH} deep`);
        break;
      }
      const cwd = inner.chdir === undefined ? state.cwd : moveTo(state.cwd, inner.chdir);
      const innerState: WalkState = { cwd, stdin: state.stdin, fds: state.fds, merge: state.merge, glob: state.glob };
      this.run(inner.argv, innerState, depth + 1, false);
      // `builtin cd x` changes this shell's folder; through any prefix, it is no longer known.
      if (innerState.cwd !== cwd) this.moveTo(state, null);
      // `builtin shopt -s dotglob` changes this shell's options (through another prefix it fails: taken as done).
      state.glob = innerState.glob;
    }
    if (effect.cd !== undefined) this.moveTo(state, moveTo(state.cwd, effect.cd));
  }

  private callFunction(name: string, state: WalkState, depth: number): void {
    if (depth > MAX_DEPTH) return void this.unsure.push(`${name} nests function calls more than ${MAX_DEPTH} deep`);
    const bodies = this.functions.get(name) ?? [];
    if (bodies.length === 1) return this.stmt(bodies[0], state, depth + 1);
    // Several definitions: any of them may be the one that runs.
    const start = copy(state);
    let fds = state.fds;
    let glob: GlobOptions | undefined;
    let cwd: string | null | undefined;
    for (const body of bodies) {
      const each = copy(start);
      this.stmt(body, each, depth + 1);
      fds = fds.union(each.fds);
      glob = glob === undefined ? each.glob : unionOptions(glob, each.glob);
      cwd = cwd === undefined || cwd === each.cwd ? each.cwd : null;
    }
    state.fds = fds;
    state.glob = glob ?? state.glob;
    this.moveTo(state, cwd ?? null);
  }

  private binary(cmd: ShNode, state: WalkState, depth: number): void {
    const op = this.sh.operator(cmd.Op);
    const x = child(cmd, 'X');
    const y = child(cmd, 'Y');
    if (op === '|' || op === '|&') {
      // Each side is a subshell; the pipe replaces the left's output and the right's input.
      const left = copy(state);
      left.fds = left.fds.set(1, [], false);
      if (op === '|&') left.fds = left.fds.set(2, [], false);
      this.stmt(x, left, depth);
      const right = copy(state);
      right.stdin = { kind: 'pipe' };
      right.fds = right.fds.set(0, [], false);
      this.stmt(y, right, depth);
    } else if (op === '||') {
      // The right side runs only if the left failed, maybe after its cd.
      const before = state.cwd;
      this.stmt(x, state, depth);
      if (state.cwd !== before) this.moveTo(state, null);
      const middle = state.cwd;
      const glob = state.glob;
      this.stmt(y, state, depth);
      if (state.cwd !== middle) this.moveTo(state, null);
      state.glob = unionOptions(glob, state.glob);
    } else {
      this.stmt(x, state, depth);
      // After `a && b`, b's options may not have been set (a failed).
      const glob = state.glob;
      this.stmt(y, state, depth);
      state.glob = unionOptions(glob, state.glob);
    }
  }

  /**
   * if, while, for, case, [[ ]], (( )), time, coproc: their statements are walked in one
   * shared state where descriptors only gain files, twice when the first pass changed
   * them (a loop's next round); a cd anywhere inside (a called function's included) makes
   * the folder unknown inside and after.
   */
  private generic(node: ShNode, state: WalkState, depth: number): void {
    const start = state.cwd;
    const inner: WalkState = { cwd: this.changesFolder(node) ? null : start, stdin: state.stdin, fds: state.fds, merge: true, glob: state.glob };
    for (let pass = 0; pass < 2; pass++) {
      const fds = inner.fds;
      this.sh.walk(node, (n) => {
        const type = this.sh.nodeType(n);
        if (type === 'Stmt') this.stmt(n, inner, depth);
        else if (type === 'CmdSubst' || type === 'ProcSubst') this.stmts(list(n, 'Stmts'), { ...inner, stdin: { kind: 'none' } }, depth);
        else return true;
        return false;
      });
      if (inner.fds.sameAs(fds)) break;
    }
    state.fds = inner.fds;
    state.glob = inner.glob;
    if (inner.cwd !== start) this.moveTo(state, null);
  }

  private changesFolder(node: ShNode): boolean {
    let changes = false;
    this.sh.walk(node, (n) => {
      if (changes || this.sh.nodeType(n) !== 'CallExpr') return !changes;
      const argv = list(n, 'Args').map((w) => wordText(this.sh, w, {}));
      changes = argv[0] === null || argv.some((a) => a !== null && (CWD_COMMANDS.has(commandName(a)) || this.functions.has(a)));
      return !changes;
    });
    return changes;
  }

  /** `$(...)`, backticks and process substitutions in a word: subshells of the current state. */
  private nested(node: ShNode | null, state: WalkState, depth: number): void {
    for (const stmts of nestedScripts(this.sh, node)) this.stmts(stmts, { cwd: state.cwd, stdin: { kind: 'none' }, fds: state.fds, merge: state.merge, glob: state.glob }, depth);
  }

  private found(target: WriteTarget, cwd: string | null, by: string, fds: FdTable): void {
    this.writes.push({ target, cwd, by, fds });
  }

  private moveTo(state: WalkState, cwd: string | null): void {
    if (cwd !== state.cwd) this.folderChanged = true;
    state.cwd = cwd;
  }
}

function copy(state: WalkState): WalkState {
  return { cwd: state.cwd, stdin: state.stdin, fds: state.fds, merge: state.merge, glob: state.glob };
}

/** The folder after `cd dir` from `cwd`; null when either is unknown. */
function moveTo(cwd: string | null, dir: Arg): string | null {
  if (dir === null || dir === '') return null;
  if (dir.startsWith('/') || /^[A-Za-z]:[\\/]/.test(dir)) return absolutePath(dir, '/');
  return cwd === null ? null : absolutePath(dir, cwd);
}
