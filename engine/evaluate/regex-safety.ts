/**
 * Which regular expressions can backtrack for a very long time: a static check over the
 * pattern's tree (language/regex-syntax.ts). It flags nested quantifiers (`(a+)+`),
 * quantified groups with alternation (`(a|a)*`), backreferences, patterns it cannot read,
 * and unbounded quantifiers in a row that can match the same characters (`\s*\s*`,
 * `.*x.*`). Flagged policy expressions run under the watchdog (regex.ts); flagged globs
 * and wildcards are matched by a linear-time program (compile/linear-program.ts). It may
 * flag safe patterns (they then pay for the guard too); it aims never to pass a pattern
 * that is more than quadratic.
 *
 * How many runs in a row may overlap is the caller's tolerance: one for policy expressions
 * (`.*a.*b` is flagged), two for the compiler's globs and wildcards, whose quadratic forms
 * (`**\/x/**`) are the common ones and stay under ~30 ms on the longest path the runner
 * matches without its event watchdog. A run that cannot take a character every match has
 * just before it (`[^/]*` after `/`) starts where that character last occurs, so it does not
 * add to the count (`**\/*.ts`: one run, not two).
 */
import { characterOf, innerMode, matchesStrings, modeFlags, modeOf, parseRegex, type AST, type CharacterNode, type GroupNode, type RegexMode } from '../language/regex-syntax';

/** A set of characters, as membership over sample characters, or 'any' when not worked out. */
type CharSet = boolean[] | 'any';

/**
 * What a sequence has read so far: its last unbounded run's set (null: none), whether a
 * mandatory atom the run cannot take followed it (`barrier`: where the run ends is fixed),
 * how many ambiguous runs led to it (`degree`), and the sets of the mandatory atoms read
 * since it (`pins`).
 */
interface Chain {
  last: CharSet | null;
  barrier: boolean;
  degree: number;
  pins: CharSet[];
}

interface Frame extends Chain {
  lookaround: boolean;
  hasRepeat: boolean;
  hasAlternation: boolean;
  hasUnbounded: boolean;
  entry: Chain;
  /** The merged chain of the alternatives finished so far (null: none yet), for `|`. */
  alts: Chain | null;
  /** The atom just read, waiting to see whether a quantifier follows. */
  pending: { set: CharSet; group: { frame: Frame; node: GroupNode; mode: RegexMode } | null; strings: boolean } | null;
}

/** How many unbounded runs in a row a caller lets match the same text: 'linear' one, 'quadratic' two. */
export type Tolerance = 'linear' | 'quadratic';

const SAMPLES: string[] = [...Array.from({ length: 128 }, (_v, i) => String.fromCharCode(i)), '\u00e9', '\u00c9', '\u00a0', '\u2028', '\u4e2d', '\u{1F600}', '\u017f', '\u212a'];
const NONE: CharSet = SAMPLES.map(() => false);
const MAX_PINS = 8;
const COUNT = ['no', 'one', 'two', 'three', 'four'];
const cache = new Map<string, string | null>();

/**
 * True when the pattern may take more than linear (beyond quadratic) time on some input.
 * @example isSuperLinear('(a+)+$') // true
 * @example isSuperLinear('\\brm\\s+-rf\\b') // false
 */
export function isSuperLinear(source: string, flags = '', tolerance: Tolerance = 'linear'): boolean {
  return superLinearReason(source, flags, tolerance) !== null;
}

/**
 * Why the pattern may backtrack catastrophically, for lint messages; null when it cannot.
 * @example superLinearReason('(a|ab)*c') // 'a quantified group with alternation'
 * @example superLinearReason('(?i:a+)+$') // 'a quantifier applied to a group that contains a quantifier'
 * @example superLinearReason('^.*?\\/x\\/.*?\\/y\\/.*$', '', 'quadratic') // 'three unbounded quantifiers in a row that can match the same text'
 */
export function superLinearReason(source: string, flags = '', tolerance: Tolerance = 'linear'): string | null {
  const key = `${tolerance === 'linear' ? '' : '~'}${flags}/${source}`;
  if (!cache.has(key)) {
    if (cache.size > 1000) cache.clear();
    cache.set(key, classify(source, flags, tolerance === 'linear' ? 1 : 2));
  }
  return cache.get(key) ?? null;
}

/**
 * The verdicts this process worked out for policy expressions (`flags/source` to reason,
 * null: linear), for a cache that keeps them across processes. (A glob's verdict is kept
 * with its regex: compile/glob-regex.ts.)
 * @example safetyVerdicts() // [['/\\brm\\s', null]]
 */
export function safetyVerdicts(): Array<[string, string | null]> {
  return [...cache].filter(([key]) => !key.startsWith('~'));
}

/**
 * Verdicts an earlier process of the same engine worked out, taken as this process's own
 * (the policy cache keeps them: engine/host/cache/compile-memo.ts).
 */
export function rememberSafetyVerdicts(verdicts: ReadonlyArray<readonly [string, string | null]>): void {
  for (const [key, reason] of verdicts) if (cache.size <= 1000) cache.set(key, reason);
}

function classify(source: string, flags: string, maxDegree: number): string | null {
  const tree = parseRegex(source, flags);
  if (tree === null) return 'syntax this check cannot read';
  const check = new Classifier(maxDegree);
  check.sequence(tree.alternatives, check.frame(null, false), modeOf(flags));
  return check.reason;
}

class Classifier {
  reason: string | null = null;

  constructor(private readonly maxDegree: number) {}

  frame(parent: Frame | null, lookaround: boolean): Frame {
    const entry: Chain = parent ? { last: parent.last, barrier: parent.barrier, degree: parent.degree, pins: [...parent.pins] } : { last: null, barrier: false, degree: 1, pins: [] };
    return { lookaround, hasRepeat: false, hasAlternation: false, hasUnbounded: false, ...entry, pins: [...entry.pins], entry, alts: null, pending: null };
  }

  sequence(alternatives: readonly AST.Alternative[], f: Frame, mode: RegexMode): void {
    for (let i = 0; i < alternatives.length && this.reason === null; i++) {
      if (i > 0) this.alternative(f);
      for (const element of alternatives[i].elements) {
        this.element(element, f, mode);
        if (this.reason !== null) return;
      }
    }
  }

  private element(node: AST.Element | AST.QuantifiableElement, f: Frame, mode: RegexMode): void {
    const character = characterOf(node);
    if (character !== null) return this.atom(f, character, mode);
    switch (node.type) {
      case 'Group':
      case 'CapturingGroup':
        return this.group(node, f, innerMode(node, mode), false);
      case 'Assertion':
        if (node.kind === 'lookahead' || node.kind === 'lookbehind') return this.group(node, f, mode, true);
        return commit(f);
      case 'Backreference':
        this.reason = 'a backreference';
        return;
      case 'Quantifier':
        this.element(node.element, f, mode);
        if (this.reason === null) this.quantify(f, node.min, node.max);
        return;
    }
  }

  private atom(f: Frame, node: CharacterNode, mode: RegexMode): void {
    commit(f);
    const strings = matchesStrings(node);
    f.pending = { set: strings ? 'any' : charSet(node.raw, mode), group: null, strings };
  }

  private group(node: GroupNode, f: Frame, mode: RegexMode, lookaround: boolean): void {
    commit(f);
    const inner = this.frame(f, lookaround);
    this.sequence(node.alternatives, inner, mode);
    if (this.reason !== null) return;
    commit(inner);
    if (lookaround) return;
    f.hasRepeat ||= inner.hasRepeat;
    f.hasAlternation ||= inner.hasAlternation;
    if (inner.hasUnbounded) {
      Object.assign(f, mergeAlternative(inner));
      f.hasUnbounded = true;
    }
    // A group without unbounded parts that always starts with a character of a known set
    // (`(?:cat|less)`) ends an unbounded run before it, as a single atom would.
    const set = inner.hasUnbounded ? 'any' : groupFirstSet(node, mode);
    f.pending = { set, group: { frame: inner, node, mode }, strings: false };
  }

  private alternative(f: Frame): void {
    commit(f);
    f.alts = mergeAlternative(f);
    f.hasAlternation = true;
    Object.assign(f, { ...f.entry, pins: [...f.entry.pins] });
  }

  private quantify(f: Frame, min: number, max: number): void {
    const atom = f.pending;
    f.pending = null;
    if (!atom) return;
    const group = atom.group;
    if (group && max > 1 && !group.frame.lookaround && (group.frame.hasRepeat || group.frame.hasAlternation)) {
      const loop = loopContinuation(group.node, group.mode);
      if (loop !== null) {
        // An unambiguous loop: it acts like one unbounded atom that can go on with `cont`.
        const { cont, first } = loop;
        const entry = group.frame.entry;
        const open = entry.last !== null && !entry.barrier;
        // Right after an open run that can take its first characters, where one ends and the
        // other starts is ambiguous, as for two unbounded atoms (`a*(?:ab?)*x`).
        const degree = open && overlaps(entry.last as CharSet, first) ? this.grow(entry.degree) : entry.degree;
        Object.assign(f, { last: min === 0 && open ? union(entry.last as CharSet, cont) : cont, barrier: false, degree, pins: [] });
        f.hasRepeat = true;
        f.hasUnbounded = true;
        return;
      }
      this.reason ??= group.frame.hasRepeat ? 'a quantifier applied to a group that contains a quantifier' : 'a quantified group with alternation';
    }
    if (atom.strings && max > 1) this.reason ??= 'a quantified group with alternation';
    if (min !== max) f.hasRepeat = true;
    if (max > 32) {
      let degree = f.degree;
      if (f.last !== null && !f.barrier && overlaps(f.last, atom.set) && !f.pins.some((pin) => !overlaps(pin, atom.set))) degree = this.grow(f.degree);
      Object.assign(f, { last: atom.set, barrier: false, degree, pins: [] });
      f.hasUnbounded = true;
    } else if (min > 0) {
      read(f, atom.set);
    }
  }

  /** The degree after one more ambiguous run; past the caller's tolerance, the reason. */
  private grow(degree: number): number {
    if (degree + 1 > this.maxDegree) this.reason ??= `${COUNT[degree + 1] ?? degree + 1} unbounded quantifiers in a row that can match the same text`;
    return degree + 1;
  }
}

/** The pending atom, now known to be matched exactly once. */
function commit(f: Frame): void {
  const atom = f.pending;
  f.pending = null;
  if (atom) read(f, atom.set);
}

/** A mandatory atom read after the open run: a barrier when the run cannot take it, else a pin. */
function read(f: Frame, set: CharSet): void {
  if (f.last === null) return;
  if (!overlaps(f.last, set)) f.barrier = true;
  else if (set !== 'any' && f.pins.length < MAX_PINS) f.pins.push(set);
}

/** A node of a loop body: one character-set atom, or a group of alternatives, each with its count range. */
type Node = { kind: 'atom'; pos: number; min: number; max: number } | { kind: 'group'; alts: Node[][]; min: number; max: number };

/** Glushkov facts about a node: can it match empty, which atoms can match its first and last character. */
interface Facts {
  nullable: boolean;
  first: number[];
  last: number[];
}

/**
 * When `group` repeated (`(body)*`, `(body)+`, `(body){n,}`) can match any string in at most one
 * way, the characters the loop could still take where it may stop (`cont`) and those it can
 * start with (`first`); otherwise null.
 *
 * The body is read into atoms that each match one character from a set (literals, `\s`,
 * `[...]`, `.`) with a count, inside plain or optional groups and alternations; anything else
 * (anchors, `\b`, lookarounds, backreferences, repeated inner groups) gives null. Its position
 * automaton (Glushkov) must be deterministic: from every atom, the atoms that can take the next
 * character (including the loop starting over, and the atom itself when its count can still grow)
 * match disjoint sets. Optional groups and alternatives must not match empty, and neither may the
 * body, so there is only one way to reach each atom. Then a backtracking matcher follows one
 * path through the loop and can only choose where it stops, like `\w*`.
 * @example loopContinuation(groupOf('(?:-\\S+\\s+)'), mode)?.cont // the characters `-` and \s
 * @example loopContinuation(groupOf('(?:\\w+-?)'), mode) // null: `\w+` can run on or start the next round
 */
function loopContinuation(group: GroupNode, mode: RegexMode): { cont: CharSet; first: CharSet } | null {
  const sets: CharSet[] = [];
  const counts: [number, number][] = [];
  const alternatives = (alts: readonly AST.Alternative[], inMode: RegexMode): Node[][] | null => {
    const out: Node[][] = [];
    for (const alt of alts) {
      const nodes: Node[] = [];
      for (const element of alt.elements) {
        const [min, max] = element.type === 'Quantifier' ? [element.min, element.max] : [1, 1];
        const target = element.type === 'Quantifier' ? element.element : element;
        if (max === 0 || min > max) return null;
        const atom = characterOf(target);
        if (atom !== null) {
          // Only plain ASCII atoms: sample-based disjointness is exact for them.
          if (/[^\x20-\x7e]|\\[upPxc0-9kbBq]/.test(atom.raw) || matchesStrings(atom)) return null;
          sets.push(charSet(atom.raw, inMode));
          counts.push([min, max]);
          nodes.push({ kind: 'atom', pos: sets.length - 1, min, max });
        } else if ((target.type === 'Group' || target.type === 'CapturingGroup') && max <= 1) {
          const inner = alternatives(target.alternatives, innerMode(target, inMode));
          if (inner === null) return null;
          nodes.push({ kind: 'group', alts: inner, min, max });
        } else {
          return null;
        }
      }
      out.push(nodes);
    }
    return out;
  };
  const root = alternatives(group.alternatives, mode);
  if (root === null) return null;

  const follow: number[][] = sets.map(() => []);
  let ok = true;
  const seq = (nodes: Node[]): Facts => {
    let facts: Facts = { nullable: true, first: [], last: [] };
    for (const node of nodes) {
      const next = visit(node);
      for (const p of facts.last) follow[p].push(...next.first);
      facts = {
        nullable: facts.nullable && next.nullable,
        first: facts.nullable ? [...facts.first, ...next.first] : facts.first,
        last: next.nullable ? [...facts.last, ...next.last] : next.last,
      };
    }
    return facts;
  };
  const alt = (alts: Node[][]): Facts => {
    const all = alts.map(seq);
    if (all.length > 1 && all.some((a) => a.nullable)) ok = false;
    return { nullable: all.some((a) => a.nullable), first: all.flatMap((a) => a.first), last: all.flatMap((a) => a.last) };
  };
  const visit = (node: Node): Facts => {
    if (node.kind === 'atom') return { nullable: node.min === 0, first: [node.pos], last: [node.pos] };
    const facts = alt(node.alts);
    // An optional group that can match empty could be entered or skipped for the same text.
    if (node.min === 0 && facts.nullable) ok = false;
    return { ...facts, nullable: facts.nullable || node.min === 0 };
  };
  const top = alt(root);
  if (!ok || top.nullable) return null;
  for (const p of top.last) follow[p].push(...top.first);

  const disjoint = (list: CharSet[]) => list.every((a, j) => list.slice(j + 1).every((b) => !overlaps(a, b)));
  if (!disjoint(top.first.map((p) => sets[p]))) return null;
  const options = (p: number): CharSet[] => {
    const [min, max] = counts[p];
    // The atom itself is an option when, having matched enough, it can still take more.
    const grows = max > Math.max(min, 1);
    return [...(grows ? [sets[p]] : []), ...follow[p].map((q) => sets[q])];
  };
  for (let p = 0; p < sets.length; p++) if (!disjoint(options(p))) return null;
  return {
    cont: top.last.map((p) => options(p)).flat().reduce<CharSet>((a, b) => union(a, b), NONE),
    first: top.first.map((p) => sets[p]).reduce<CharSet>((a, b) => union(a, b), NONE),
  };
}

/**
 * The characters a group can start with, when every alternative starts with a mandatory
 * single-character atom; otherwise 'any'.
 * @example groupFirstSet(groupOf('(?:cat|less)'), mode) // the characters c and l
 */
function groupFirstSet(group: GroupNode, mode: RegexMode): CharSet {
  let set: CharSet = NONE;
  for (const alt of group.alternatives) {
    const first = alt.elements[0];
    if (first === undefined) return 'any';
    if (first.type === 'Quantifier' && first.min === 0) return 'any';
    const atom = characterOf(first.type === 'Quantifier' ? first.element : first);
    if (atom === null || matchesStrings(atom)) return 'any';
    set = union(set, charSet(atom.raw, mode));
  }
  return set;
}

function union(a: CharSet, b: CharSet): CharSet {
  if (a === 'any' || b === 'any') return 'any';
  return a.map((v, j) => v || b[j]);
}

/**
 * The frame's chain merged with those of its earlier alternatives: the text after the group
 * may follow any of them, so a run is still open if it is open in one of them, a later run
 * is pinned only if it is pinned after each, and the degree is the highest.
 */
function mergeAlternative(f: Frame): Chain {
  const a = f.alts;
  const b: Chain = { last: f.last, barrier: f.barrier, degree: f.degree, pins: f.pins };
  if (a === null) return b;
  const degree = Math.max(a.degree, b.degree);
  if (a.last === null || (a.barrier && !b.barrier && b.last !== null)) return { ...b, degree };
  if (b.last === null || (b.barrier && !a.barrier)) return { ...a, degree };
  const pins = a.pins.flatMap((x) => b.pins.map((y) => union(x, y))).filter((p) => p !== 'any').slice(0, MAX_PINS);
  return { last: union(a.last, b.last), barrier: a.barrier && b.barrier, degree, pins };
}

const sets = new Map<string, CharSet>();

/** The characters among the samples that one atom matches; 'any' when it cannot be compiled alone. */
function charSet(raw: string, mode: RegexMode): CharSet {
  const flags = modeFlags({ ...mode, multiline: false });
  const key = `${flags}/${raw}`;
  let set = sets.get(key);
  if (set === undefined) {
    try {
      const re = new RegExp(`^(?:${raw})$`, flags);
      set = SAMPLES.map((s) => re.test(s));
    } catch {
      set = 'any';
    }
    if (sets.size >= 2000) sets.clear();
    sets.set(key, set);
  }
  return set;
}

function overlaps(a: CharSet, b: CharSet): boolean {
  if (a === 'any' || b === 'any') return true;
  for (let i = 0; i < a.length; i++) if (a[i] && b[i]) return true;
  return false;
}
