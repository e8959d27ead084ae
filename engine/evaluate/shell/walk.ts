/**
 * Walks a parsed script in execution order, tracking the working folder through `cd`, and
 * collects every write: redirections and the writes of each command (commands.ts), inside
 * `&&`, `||`, `;`, pipes, `( )`, `{ }`, `$( )`, backticks, process substitutions and
 * nested `bash -c` / `eval` scripts (bounded depth).
 */
import { absolutePath } from '../paths';
import { commandEffect, commandName } from './commands';
import type { Stdin, WriteTarget } from './effects';
import { child, list, ShellSyntaxError, type ShellSyntax, type ShNode } from './parser';
import { heredocText, nestedScripts, wordText, type Arg } from './words';

/** The shell's state at one point: its working folder (null once unknown) and standard input. */
interface WalkState {
  cwd: string | null;
  stdin: Stdin;
}

export interface FoundWrite {
  target: WriteTarget;
  /** Absolute working folder the path is relative to; null when unknown. */
  cwd: string | null;
  /** The command (or redirection) that writes. */
  by: string;
}

export interface WalkResult {
  writes: FoundWrite[];
  /** Why some writes cannot be known, one reason per place. */
  unsure: string[];
}

const WRITE_REDIRECTS = new Set(['>', '>>', '>|', '&>', '&>>', '<>']);
const HERE_REDIRECTS = new Set(['<<', '<<-', '<<<']);
const CWD_COMMANDS = new Set(['cd', 'pushd', 'popd']);
const MAX_DEPTH = 6;

/**
 * Every write of a script run in `cwd`.
 * @example walkScript(sh, 'cd sub && echo x > f', '/p', {}) // { writes: [{ target: { path: 'f' }, cwd: '/p/sub', by: '>' }], unsure: [] }
 */
export function walkScript(sh: ShellSyntax, script: string, cwd: string, options: { home?: string }): WalkResult {
  const walker = new Walker(sh, options.home);
  walker.script(script, { cwd, stdin: { kind: 'none' } }, 0, 'the command');
  return { writes: walker.writes, unsure: walker.unsure };
}

class Walker {
  readonly writes: FoundWrite[] = [];
  readonly unsure: string[] = [];

  constructor(private readonly sh: ShellSyntax, private readonly home: string | undefined) {}

  script(text: Arg, state: WalkState, depth: number, who: string): void {
    if (text === null) return void this.unsure.push(`${who} runs a script that is not static`);
    if (depth > MAX_DEPTH) return void this.unsure.push(`${who} nests scripts more than ${MAX_DEPTH} deep`);
    let file: ShNode;
    try {
      file = this.sh.parse(text);
    } catch (err) {
      if (!(err instanceof ShellSyntaxError)) throw err;
      return void this.unsure.push(`${who} cannot be parsed (${err.message})`);
    }
    this.stmts(list(file, 'Stmts'), state, depth);
  }

  private stmts(stmts: readonly ShNode[], state: WalkState, depth: number): void {
    for (const stmt of stmts) this.stmt(stmt, state, depth);
  }

  private stmt(stmt: ShNode | null, outer: WalkState, depth: number): void {
    if (!stmt) return;
    // A background job runs in a subshell: its cd does not reach the next statement.
    const state = stmt.Background === true ? copy(outer) : outer;
    // A here-document feeds this statement only.
    const stdin = state.stdin;
    for (const r of list(stmt, 'Redirs')) this.redirect(r, state, depth);
    const cmd = child(stmt, 'Cmd');
    if (cmd) this.command(cmd, state, depth);
    state.stdin = stdin;
  }

  private redirect(r: ShNode, state: WalkState, depth: number): void {
    this.nested(child(r, 'Word'), state, depth);
    this.nested(child(r, 'Hdoc'), state, depth);
    const op = this.sh.operator(r.Op);
    const target = (): Arg => wordText(this.sh, child(r, 'Word'), { home: this.home });
    if (WRITE_REDIRECTS.has(op)) this.found({ path: target() }, state.cwd, op);
    else if (op === '>&') {
      // `2>&1` and `>&-` duplicate or close a descriptor; `>& file` writes the file.
      const word = target();
      if (word === null) this.unsure.push('a >& redirection target is not static');
      else if (!/^\d+-?$|^-$/.test(word)) this.found({ path: word }, state.cwd, op);
    } else if (HERE_REDIRECTS.has(op)) state.stdin = { kind: 'text', text: heredocText(this.sh, r, { home: this.home }) };
    else if (op === '<') state.stdin = { kind: 'none' };
  }

  private command(cmd: ShNode, state: WalkState, depth: number): void {
    switch (this.sh.nodeType(cmd)) {
      case 'CallExpr': return this.call(cmd, state, depth);
      case 'BinaryCmd': return this.binary(cmd, state, depth);
      case 'Subshell': return this.stmts(list(cmd, 'Stmts'), copy(state), depth);
      case 'Block': return this.stmts(list(cmd, 'Stmts'), state, depth);
      default: return this.generic(cmd, state, depth);
    }
  }

  private call(cmd: ShNode, state: WalkState, depth: number): void {
    for (const a of list(cmd, 'Assigns')) this.nested(a, state, depth);
    const words = list(cmd, 'Args');
    for (const w of words) this.nested(w, state, depth);
    if (words.length > 0) this.run(words.map((w) => wordText(this.sh, w, { home: this.home })), state, depth);
  }

  private run(argv: Arg[], state: WalkState, depth: number): void {
    const who = argv[0] === null ? 'a command' : commandName(argv[0]);
    const effect = commandEffect(argv, { stdin: state.stdin, home: this.home });
    if (effect.unsure) this.unsure.push(`${who}: ${effect.unsure}`);
    for (const w of effect.writes ?? []) this.found(w, state.cwd, who);
    if (effect.script !== undefined) {
      const scriptState = effect.scriptInShell ? state : { cwd: state.cwd, stdin: { kind: 'none' } as const };
      this.script(effect.script, scriptState, depth + 1, who);
    }
    for (const inner of effect.runs ?? []) {
      if (depth > MAX_DEPTH) {
        this.unsure.push(`${who} nests commands more than ${MAX_DEPTH} deep`);
        break;
      }
      const cwd = inner.chdir === undefined ? state.cwd : moveTo(state.cwd, inner.chdir);
      const innerState: WalkState = { cwd, stdin: state.stdin };
      this.run(inner.argv, innerState, depth + 1);
      // `builtin cd x` changes this shell's folder; through any prefix, it is no longer known.
      if (innerState.cwd !== cwd) state.cwd = null;
    }
    if (effect.cd !== undefined) state.cwd = moveTo(state.cwd, effect.cd);
  }

  private binary(cmd: ShNode, state: WalkState, depth: number): void {
    const op = this.sh.operator(cmd.Op);
    const x = child(cmd, 'X');
    const y = child(cmd, 'Y');
    if (op === '|' || op === '|&') {
      this.stmt(x, copy(state), depth);
      this.stmt(y, { ...copy(state), stdin: { kind: 'pipe' } }, depth);
    } else if (op === '||') {
      // The right side runs only if the left failed, maybe after its cd.
      const before = state.cwd;
      this.stmt(x, state, depth);
      if (state.cwd !== before) state.cwd = null;
      const middle = state.cwd;
      this.stmt(y, state, depth);
      if (state.cwd !== middle) state.cwd = null;
    } else {
      this.stmt(x, state, depth);
      this.stmt(y, state, depth);
    }
  }

  /**
   * if, while, for, case, functions, [[ ]], (( )), declarations: their statements are walked
   * one by one; a cd anywhere inside makes the folder unknown inside and after.
   */
  private generic(node: ShNode, state: WalkState, depth: number): void {
    const changes = this.changesFolder(node);
    const inner = (): WalkState => ({ cwd: changes ? null : state.cwd, stdin: state.stdin });
    this.sh.walk(node, (n) => {
      const type = this.sh.nodeType(n);
      if (type === 'Stmt') this.stmt(n, inner(), depth);
      else if (type === 'CmdSubst' || type === 'ProcSubst') this.stmts(list(n, 'Stmts'), inner(), depth);
      else return true;
      return false;
    });
    if (changes) state.cwd = null;
  }

  private changesFolder(node: ShNode): boolean {
    let changes = false;
    this.sh.walk(node, (n) => {
      if (changes || this.sh.nodeType(n) !== 'CallExpr') return !changes;
      const argv = list(n, 'Args').map((w) => wordText(this.sh, w, {}));
      changes = argv[0] === null || argv.some((a) => a !== null && CWD_COMMANDS.has(commandName(a)));
      return !changes;
    });
    return changes;
  }

  /** `$(...)`, backticks and process substitutions in a word: subshells of the current state. */
  private nested(node: ShNode | null, state: WalkState, depth: number): void {
    for (const stmts of nestedScripts(this.sh, node)) this.stmts(stmts, { cwd: state.cwd, stdin: { kind: 'none' } }, depth);
  }

  private found(target: WriteTarget, cwd: string | null, by: string): void {
    this.writes.push({ target, cwd, by });
  }
}

function copy(state: WalkState): WalkState {
  return { cwd: state.cwd, stdin: state.stdin };
}

/** The folder after `cd dir` from `cwd`; null when either is unknown. */
function moveTo(cwd: string | null, dir: Arg): string | null {
  if (dir === null || dir === '') return null;
  if (dir.startsWith('/') || /^[A-Za-z]:[\\/]/.test(dir)) return absolutePath(dir, '/');
  return cwd === null ? null : absolutePath(dir, cwd);
}
