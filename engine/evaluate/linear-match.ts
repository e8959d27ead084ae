/**
 * Runs a pattern's linear program (compile/linear-program.ts): every state the pattern can
 * be in after each character is followed at once, so a text of n characters costs n steps
 * of at most the program's size, whatever the pattern (`**\/a*a*a*a*a*a*a*b/**` on a long
 * path of `a`s included). Each character test and zero-width check is the pattern's own,
 * compiled natively alone: the answer is the pattern's. Loaded only when a guarded pattern
 * is matched (dist/linear-match.cjs beside the bundle).
 */
import type { LinearProgram } from '../types';

const CHAR = 0;
const SPLIT = 1;
const CHECK = 2;
const MATCH = 3;

/** A program's native tests, compiled at first use, and the answers of its character tests by code. */
interface Compiled {
  ignoreCase: boolean;
  atoms: Array<{ re: RegExp; known: Map<number, boolean> } | undefined>;
  checks: Array<RegExp | undefined>;
}

const compiledOf = new WeakMap<LinearProgram, [Compiled | undefined, Compiled | undefined]>();

/**
 * True when the pattern matches somewhere in `text` (RegExp#test). With `ignoreCase`, as the
 * pattern with the `i` flag added (parts whose case a modifier group decides keep theirs).
 * @example linearTest(linearProgram('^(?:a[^/]*?a[^/]*?b)$', 's')!, 'a'.repeat(5000)) // false, at once
 */
export function linearTest(program: LinearProgram, text: string, ignoreCase = false): boolean {
  const compiled = compiledFor(program, ignoreCase);
  const { code, start } = program;
  const size = code.length / 3;
  let current = new Int32Array(size);
  let next = new Int32Array(size);
  let currentCount = 0;
  let nextCount = 0;
  const seen = new Int32Array(size);
  let generation = 0;
  const stack: number[] = [];
  const checked = new Map<number, boolean>();

  /** Adds `pc` and every state reachable from it without a character, at `pos`, to `list`; true on a match. */
  const close = (pc: number, pos: number, list: Int32Array, count: number): number => {
    stack.push(pc);
    while (stack.length > 0) {
      const at = stack.pop() as number;
      if (seen[at] === generation) continue;
      seen[at] = generation;
      const op = code[at * 3];
      if (op === CHAR) list[count++] = at;
      else if (op === SPLIT) stack.push(code[at * 3 + 2], code[at * 3 + 1]);
      else if (op === CHECK) {
        if (check(compiled, program, code[at * 3 + 1], text, pos, checked)) stack.push(code[at * 3 + 2]);
      } else if (op === MATCH) {
        stack.length = 0;
        return -1;
      }
    }
    return count;
  };

  let pos = 0;
  generation++;
  currentCount = close(start, 0, current, 0);
  if (currentCount < 0) return true;
  for (;;) {
    if (pos >= text.length) return false;
    const unit = program.unicode ? (text.codePointAt(pos) as number) : text.charCodeAt(pos);
    const width = unit > 0xffff ? 2 : 1;
    const after = pos + width;
    generation++;
    checked.clear();
    nextCount = 0;
    for (let i = 0; i < currentCount; i++) {
      const at = current[i];
      if (!atomTest(compiled, program, code[at * 3 + 1], unit)) continue;
      nextCount = close(code[at * 3 + 2], after, next, nextCount);
      if (nextCount < 0) return true;
    }
    // A match may start at every position (an unanchored search).
    nextCount = close(start, after, next, nextCount);
    if (nextCount < 0) return true;
    [current, next] = [next, current];
    currentCount = nextCount;
    pos = after;
  }
}

function compiledFor(program: LinearProgram, ignoreCase: boolean): Compiled {
  let pair = compiledOf.get(program);
  if (pair === undefined) compiledOf.set(program, (pair = [undefined, undefined]));
  const slot = ignoreCase ? 1 : 0;
  return (pair[slot] ??= { ignoreCase, atoms: new Array(program.atoms.length), checks: new Array(program.checks.length) });
}

/** The flags of a native test, with `i` added for a case-insensitive reading unless a modifier decides it. */
function flagsOf(entry: LinearProgram['atoms'][number], ignoreCase: boolean): string {
  const flags = entry[1];
  return ignoreCase && entry[2] !== 1 && !flags.includes('i') ? `i${flags}` : flags;
}

function atomTest(compiled: Compiled, program: LinearProgram, index: number, unit: number): boolean {
  let atom = compiled.atoms[index];
  if (atom === undefined) {
    const entry = program.atoms[index];
    atom = compiled.atoms[index] = { re: new RegExp(entry[0], flagsOf(entry, compiled.ignoreCase)), known: new Map() };
  }
  let answer = atom.known.get(unit);
  if (answer === undefined) {
    answer = atom.re.test(String.fromCodePoint(unit));
    if (atom.known.size < 4096) atom.known.set(unit, answer);
  }
  return answer;
}

function check(compiled: Compiled, program: LinearProgram, index: number, text: string, pos: number, checked: Map<number, boolean>): boolean {
  const known = checked.get(index);
  if (known !== undefined) return known;
  let re = compiled.checks[index];
  if (re === undefined) {
    const entry = program.checks[index];
    re = compiled.checks[index] = new RegExp(entry[0], flagsOf(entry, compiled.ignoreCase));
  }
  re.lastIndex = pos;
  const answer = re.test(text);
  checked.set(index, answer);
  return answer;
}
