/**
 * A pattern that may backtrack for long, turned into a program a matcher runs in time
 * linear in the text (evaluate/linear-match.ts): its position automaton (Thompson's
 * construction) over the pattern's tree, whose states the matcher follows all at once,
 * never one path after another. Each character test and each zero-width check (`^`, `\b`,
 * a lookaround) stays the pattern's own, compiled natively alone, so the program answers
 * exactly as the pattern does. Built at compile time: the runner reads the program, never
 * the regex source.
 *
 * A pattern it cannot take (a backreference, a class that matches strings, a lookaround
 * that may itself backtrack, more than MAX_CODE instructions once counted quantifiers are
 * spelled out) gets no program: the runner's watchdog guards it instead.
 */
import { innerMode, matchesStrings, modeFlags, modeOf, parseRegex, type AST, type RegexMode } from '../language/regex-syntax';
import { isSuperLinear } from '../evaluate/regex-safety';
import type { LinearProgram, RegexSource } from '../types';

/** The most instructions a program may have (`a{1000}` spells out a thousand). */
const MAX_CODE = 3 * 4096;

/** The instructions, three numbers each: the operation and its two operands. */
export const CHAR = 0;
export const SPLIT = 1;
export const CHECK = 2;
export const MATCH = 3;

/**
 * What a compiler-built pattern (a glob's regex, a `*` wildcard) needs to be matched in
 * bounded time: nothing when it is at most quadratic; else `guard`, and the linear program
 * when the pattern has one. `stars`, the number of runs of `*` in the glob or wildcard it
 * was made from: with fewer than three (and no extglob, which repeats a group), its regex
 * has fewer than three unbounded runs and nothing repeated, so it is not read at all.
 * @example safeMatching('^(?:a[^/]*?a[^/]*?a[^/]*?b)$', 's', 3) // { guard: true, linear: { ... } }
 */
export function safeMatching(source: string, flags: string, stars = Infinity): Pick<RegexSource, 'guard' | 'linear'> {
  if (stars < 3 || !isSuperLinear(source, flags, 'quadratic')) return {};
  const linear = linearProgram(source, flags);
  return linear ? { guard: true, linear } : { guard: true };
}

class Unsupported extends Error {}

/**
 * The program of `source` under `flags`, or null when the pattern is outside what it takes.
 * @example linearProgram('^a.*b$', 's')?.code.length // a multiple of 3
 */
export function linearProgram(source: string, flags: string): LinearProgram | null {
  const tree = parseRegex(source, flags);
  if (tree === null) return null;
  const builder = new Builder();
  try {
    const mode = modeOf(flags);
    const match = builder.emit(MATCH, 0, 0);
    const start = builder.alternatives(tree.alternatives, match, mode);
    return builder.program(start, mode);
  } catch (err) {
    if (err instanceof Unsupported) return null;
    throw err;
  }
}

class Builder {
  private readonly code: number[] = [];
  private readonly atoms: LinearProgram['atoms'] = [];
  private readonly checks: LinearProgram['checks'] = [];
  private readonly known = new Map<string, number>();

  emit(op: number, a: number, b: number): number {
    if (this.code.length >= MAX_CODE) throw new Unsupported();
    this.code.push(op, a, b);
    return this.code.length / 3 - 1;
  }

  private patch(pc: number, a: number, b: number): void {
    this.code[pc * 3 + 1] = a;
    this.code[pc * 3 + 2] = b;
  }

  /** The entry of the alternatives, each going on to `next`. */
  alternatives(alts: readonly AST.Alternative[], next: number, mode: RegexMode): number {
    const entries = alts.map((alt) => this.sequence(alt.elements, next, mode));
    let pc = entries[entries.length - 1];
    for (let i = entries.length - 2; i >= 0; i--) pc = this.emit(SPLIT, entries[i], pc);
    return pc;
  }

  private sequence(elements: readonly AST.Element[], next: number, mode: RegexMode): number {
    let pc = next;
    for (let i = elements.length - 1; i >= 0; i--) pc = this.element(elements[i], pc, mode);
    return pc;
  }

  private element(node: AST.Element | AST.QuantifiableElement, next: number, mode: RegexMode): number {
    switch (node.type) {
      case 'Character':
      case 'CharacterSet':
      case 'CharacterClass':
      case 'ExpressionCharacterClass':
        if (matchesStrings(node)) throw new Unsupported();
        return this.emit(CHAR, this.entry(this.atoms, node, `^(?:${node.raw})$`, { ...mode, multiline: false }), next);
      case 'Group':
      case 'CapturingGroup':
        return this.alternatives(node.alternatives, next, innerMode(node, mode));
      case 'Assertion':
        // A lookaround is checked natively at each position: only one that cannot backtrack for long.
        if ((node.kind === 'lookahead' || node.kind === 'lookbehind') && isSuperLinear(node.raw, modeFlags(mode))) throw new Unsupported();
        return this.emit(CHECK, this.entry(this.checks, node, node.raw, mode, 'y'), next);
      case 'Backreference':
        throw new Unsupported();
      case 'Quantifier':
        return this.quantifier(node, next, mode);
    }
  }

  /** `E{min,max}`: min copies of E, then max - min optional ones, or a loop. */
  private quantifier(node: AST.Quantifier, next: number, mode: RegexMode): number {
    let pc = next;
    if (node.max === Infinity) {
      const loop = this.emit(SPLIT, 0, 0);
      this.patch(loop, this.element(node.element, loop, mode), next);
      pc = loop;
    } else {
      for (let k = node.min; k < node.max; k++) pc = this.emit(SPLIT, this.element(node.element, pc, mode), next);
    }
    for (let k = 0; k < node.min; k++) pc = this.element(node.element, pc, mode);
    return pc;
  }

  /**
   * The index of a native test in `list`, added once. One under a modifier group that sets or
   * clears `i` is marked: its case folding is its own, not the pattern's (the runner's
   * case-insensitive reading of a glob adds `i` to the others only).
   */
  private entry(list: LinearProgram['atoms'], node: AST.Node, source: string, mode: RegexMode, extra = ''): number {
    const flags = `${modeFlags(mode)}${extra}`;
    const fixed = caseFixedAt(node);
    const key = `${list === this.atoms ? 'a' : 'c'}${fixed ? '!' : ''}${flags}/${source}`;
    let index = this.known.get(key);
    if (index === undefined) {
      index = list.push(fixed ? [source, flags, 1] : [source, flags]) - 1;
      this.known.set(key, index);
    }
    return index;
  }

  program(start: number, mode: RegexMode): LinearProgram {
    const program: LinearProgram = { start, code: this.code, atoms: this.atoms, checks: this.checks };
    if (mode.unicode || mode.unicodeSets) program.unicode = true;
    return program;
  }
}

/** True when a modifier group around `node` sets or clears `i`. */
function caseFixedAt(node: AST.Node): boolean {
  for (let at: AST.Node | null = node.parent; at !== null; at = at.parent) {
    if (at.type === 'Group' && at.modifiers !== null && (at.modifiers.add.ignoreCase || at.modifiers.remove?.ignoreCase)) return true;
  }
  return false;
}
