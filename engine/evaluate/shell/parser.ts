/**
 * The shell parser: mvdan-sh (a JavaScript build of mvdan/sh), loaded on first use only.
 * Its operator codes are not exported, so they are read once from a probe script: a new
 * parser version cannot silently shift them.
 */

/** A node of mvdan/sh's syntax tree, read through the accessors below. */
export interface ShNode {
  readonly [field: string]: unknown;
}

interface SyntaxModule {
  NewParser(...options: unknown[]): { Parse(src: string, name: string): ShNode };
  KeepComments(keep: boolean): unknown;
  NodeType(node: ShNode): string;
  Walk(node: ShNode, visit: (node: ShNode | null) => boolean): void;
}

/** Operators by name: redirections ('>', '>>', '<<', ...), binary ('&&', '|', ...), process substitution ('<(', '>('), extended patterns ('@(', '!(', ...). */
export type OperatorName = string;

export interface ShellSyntax {
  /** Parses a whole script; throws ShellSyntaxError. */
  parse(script: string): ShNode;
  nodeType(node: ShNode): string;
  walk(node: ShNode, visit: (node: ShNode) => boolean): void;
  /** The name of an operator code ('>', '&&', '${:=', ...), or '' when unknown. */
  operator(code: unknown): OperatorName;
}

/** The script is not valid shell. */
export class ShellSyntaxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ShellSyntaxError';
  }
}

const PROBE = ': >a >>a >|a &>a &>>a <>a >&a <a <&a <<<a\n: <<E\nE\n: <<-E\nE\na && b\na || b\na | b\na |& b\n: <(a) >(b)\n: ${a=b} ${a:=b}\n: @(a) ?(a) *(a) +(a) !(a)\n';
const PROBE_EXTGLOB = ['@(', '?(', '*(', '+(', '!('];
const PROBE_REDIRECTS = ['>', '>>', '>|', '&>', '&>>', '<>', '>&', '<', '<&', '<<<'];
const PROBE_BINARY = ['&&', '||', '|', '|&'];

let loaded: ShellSyntax | null = null;

/**
 * The parser, loaded (about 100 ms) on the first call.
 * @example loadShellSyntax().nodeType(loadShellSyntax().parse('echo x > f')) // 'File'
 */
export function loadShellSyntax(): ShellSyntax {
  if (loaded) return loaded;
  // Required here, not at the top: the hot path never pays for the parser unless a
  // shell command reaches a rule that needs its written paths.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const syntax = (require('mvdan-sh') as { syntax: SyntaxModule }).syntax;
  const parse = (script: string): ShNode => {
    // mvdan-sh reads a carriage return as a blank, bash as part of a word: `echo x\r# ; rm f` runs rm.
    if (script.includes('\r')) throw new ShellSyntaxError('it holds a carriage return, which bash reads as part of a word');
    let file: ShNode;
    try {
      file = syntax.NewParser(syntax.KeepComments(true)).Parse(script, '');
    } catch (err) {
      throw new ShellSyntaxError(errorText(err));
    }
    const misread = misreadComment(syntax, file, script);
    if (misread) throw new ShellSyntaxError(misread);
    return file;
  };
  const operators = new Map<unknown, string>();
  const probe = parse(PROBE);
  const stmts = list(probe, 'Stmts');
  list(stmts[0], 'Redirs').forEach((r, i) => operators.set(r.Op, PROBE_REDIRECTS[i]));
  operators.set(list(stmts[1], 'Redirs')[0].Op, '<<');
  operators.set(list(stmts[2], 'Redirs')[0].Op, '<<-');
  PROBE_BINARY.forEach((name, i) => operators.set(child(stmts[3 + i], 'Cmd')?.Op, name));
  const substs = list(child(stmts[7], 'Cmd'), 'Args').slice(1);
  substs.forEach((w, i) => operators.set(list(w, 'Parts')[0].Op, i === 0 ? '<(' : '>('));
  // Parameter expansions that assign: ${a=b}, ${a:=b}.
  list(child(stmts[8], 'Cmd'), 'Args').slice(1).forEach((w, i) => operators.set(child(list(w, 'Parts')[0], 'Exp')?.Op, i === 0 ? '${=' : '${:='));
  // Extended patterns: @(a|b), ?(a), *(a), +(a), !(a).
  list(child(stmts[9], 'Cmd'), 'Args').slice(1).forEach((w, i) => operators.set(list(w, 'Parts')[0].Op, PROBE_EXTGLOB[i]));
  loaded = {
    parse,
    nodeType: (node) => syntax.NodeType(node),
    walk: (node, visit) => syntax.Walk(node, (n) => (n ? visit(n) : true)),
    operator: (code) => operators.get(code) ?? '',
  };
  return loaded;
}

/**
 * True once the parser has been loaded in this process (for tests of laziness).
 * @example isShellSyntaxLoaded() // false until a command needed parsing
 */
export function isShellSyntaxLoaded(): boolean {
  return loaded !== null;
}

/**
 * A list field of a node ([] when absent).
 * @example list(file, 'Stmts').length // 2
 */
export function list(node: ShNode | null | undefined, field: string): ShNode[] {
  const value = node ? node[field] : undefined;
  return Array.isArray(value) ? (value as ShNode[]) : [];
}

/**
 * A node field, or null.
 * @example child(stmt, 'Cmd')
 */
export function child(node: ShNode | null | undefined, field: string): ShNode | null {
  const value = node ? node[field] : undefined;
  return value !== null && typeof value === 'object' ? (value as ShNode) : null;
}

/**
 * A string field ('' when absent).
 * @example text(lit, 'Value') // 'echo'
 */
export function text(node: ShNode | null | undefined, field: string): string {
  const value = node ? node[field] : undefined;
  return typeof value === 'string' ? value : '';
}

/** Bytes before which a `#` starts a comment for bash: a blank, a new line, an operator. */
const COMMENT_AFTER = new Set([0x20, 0x09, 0x0a, 0x3b, 0x26, 0x7c, 0x28]);

/**
 * Why a comment of the parser's is not one to bash, or null. mvdan-sh starts a comment at
 * a `#` right after a quote or an expansion (`echo ''#; rm f`, `echo $(x)#; rm f`: bash
 * reads `#` as part of the word and runs rm) and continues one over a line continuation
 * (`ls # x \` then `rm f` on the next line: bash runs rm).
 */
function misreadComment(syntax: SyntaxModule, file: ShNode, script: string): string | null {
  let bytes: Uint8Array | null = null;
  let problem: string | null = null;
  syntax.Walk(file, (n) => {
    if (problem !== null || !n || syntax.NodeType(n) !== 'Comment') return problem === null;
    if (text(n, 'Text').includes('\n')) problem = 'a comment goes on after a line continuation, which bash ends at the line';
    // Positions are byte offsets into the script's UTF-8.
    bytes ??= new TextEncoder().encode(script);
    let at = (n.Hash as { Offset(): number }).Offset();
    while (at >= 2 && bytes[at - 1] === 0x0a && bytes[at - 2] === 0x5c) at -= 2;
    if (at > 0 && !COMMENT_AFTER.has(bytes[at - 1])) problem = 'a # right after a quote or an expansion, which bash reads as part of the word';
    return problem === null;
  });
  return problem;
}

function errorText(err: unknown): string {
  if (err !== null && typeof err === 'object' && typeof (err as { Error?: unknown }).Error === 'function') {
    return String((err as { Error: () => unknown }).Error());
  }
  return err instanceof Error ? err.message : String(err);
}
