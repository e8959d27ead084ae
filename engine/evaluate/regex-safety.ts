/**
 * Which regular expressions can backtrack for a very long time: a static check over the
 * pattern's source. It flags nested quantifiers (`(a+)+`), quantified groups with
 * alternation (`(a|a)*`), backreferences, and two unbounded quantifiers in a row that can
 * match the same characters (`\s*\s*`, `.*x.*`). Flagged patterns run under the
 * watchdog (regex.ts). It may flag safe patterns (they then pay for the watchdog too); it
 * aims never to pass a pattern that is more than quadratic.
 */

import { relaxAtomGuards } from './regex-atom-guards';

/** A set of characters, as membership over sample characters, or 'any' when not worked out. */
type CharSet = boolean[] | 'any';

interface Frame {
  lookaround: boolean;
  hasRepeat: boolean;
  hasAlternation: boolean;
  hasUnbounded: boolean;
  /** The set of the last unbounded quantifier in sequence, and whether a disjoint mandatory atom followed it. */
  last: CharSet | null;
  barrier: boolean;
  entry: { last: CharSet | null; barrier: boolean };
  /** The merged `last` of the alternatives finished so far (null: none yet), for `|`. */
  alts: { last: CharSet | null; barrier: boolean } | null;
  /** Where the group's body starts and ends in the source (exclusive end), for the loop check. */
  body: [number, number];
  /** The atom just read, waiting to see whether a quantifier follows. */
  pending: { set: CharSet; group: Frame | null } | null;
}

const SAMPLES: string[] = [...Array.from({ length: 128 }, (_v, i) => String.fromCharCode(i)), '\u00e9', '\u00c9', '\u00a0', '\u2028', '\u4e2d', '\u{1F600}', '\u017f', '\u212a'];
const cache = new Map<string, string | null>();

/**
 * True when the pattern may take more than linear (beyond quadratic) time on some input.
 * @example isSuperLinear('(a+)+$') // true
 * @example isSuperLinear('\\brm\\s+-rf\\b') // false
 */
export function isSuperLinear(source: string, flags = ''): boolean {
  return superLinearReason(source, flags) !== null;
}

/**
 * Why the pattern may backtrack catastrophically, for lint messages; null when it cannot.
 * @example superLinearReason('(a|ab)*c') // 'a quantified group with alternation'
 */
export function superLinearReason(source: string, flags = ''): string | null {
  const key = `${flags}/${source}`;
  if (!cache.has(key)) {
    if (cache.size > 1000) cache.clear();
    cache.set(key, classify(source, flags));
  }
  return cache.get(key) ?? null;
}

/**
 * The verdicts this process worked out (`flags/source` to reason, null: linear), for a
 * cache that keeps them across processes.
 * @example safetyVerdicts() // [['/\\brm\\s', null]]
 */
export function safetyVerdicts(): Array<[string, string | null]> {
  return [...cache];
}

/**
 * Verdicts an earlier process of the same engine worked out, taken as this process's own
 * (the policy cache keeps them: engine/host/cache/compile-memo.ts).
 */
export function rememberSafetyVerdicts(verdicts: ReadonlyArray<readonly [string, string | null]>): void {
  for (const [key, reason] of verdicts) if (cache.size <= 1000) cache.set(key, reason);
}

function classify(source: string, flags: string): string | null {
  // One character behind a bounded lookaround is read as that character (regex-atom-guards.ts).
  const src = relaxAtomGuards(source);
  const frame = (parent: Frame | null, lookaround: boolean): Frame => {
    const entry = { last: parent?.last ?? null, barrier: parent?.barrier ?? false };
    return { lookaround, hasRepeat: false, hasAlternation: false, hasUnbounded: false, ...entry, entry, alts: null, body: [0, 0], pending: null };
  };
  const stack: Frame[] = [frame(null, false)];
  const top = () => stack[stack.length - 1];
  const fold = flags.includes('i') ? 'i' : '';
  let reason: string | null = null;

  /** The pending atom, now known to be matched exactly once. */
  const commit = (f: Frame) => {
    const atom = f.pending;
    f.pending = null;
    if (atom && f.last !== null && !overlaps(f.last, atom.set)) f.barrier = true;
  };
  const quantify = (f: Frame, min: number, max: number) => {
    const atom = f.pending;
    f.pending = null;
    if (!atom) return;
    if (atom.group && max > 1 && !atom.group.lookaround && (atom.group.hasRepeat || atom.group.hasAlternation)) {
      const loop = loopContinuation(src.slice(...atom.group.body), flags, fold);
      if (loop !== null) {
        // An unambiguous loop: it acts like one unbounded atom that can go on with `cont`.
        const { cont, first } = loop;
        const entry = atom.group.entry;
        // Right after an open run that can take its first characters, where one ends and the
        // other starts is ambiguous, as for two unbounded atoms (`a*(?:ab?)*x`).
        if (entry.last !== null && !entry.barrier && overlaps(entry.last, first)) reason ??= 'two unbounded quantifiers in a row that can match the same text';
        f.last = min === 0 && entry.last !== null && !entry.barrier ? union(entry.last, cont) : cont;
        f.barrier = false;
        f.hasRepeat = true;
        f.hasUnbounded = true;
        return;
      }
      reason ??= atom.group.hasRepeat ? 'a quantifier applied to a group that contains a quantifier' : 'a quantified group with alternation';
    }
    if (min !== max) f.hasRepeat = true;
    if (max > 32) {
      if (f.last !== null && !f.barrier && overlaps(f.last, atom.set)) reason ??= 'two unbounded quantifiers in a row that can match the same text';
      f.last = atom.set;
      f.barrier = false;
      f.hasUnbounded = true;
    } else if (min > 0 && f.last !== null && !overlaps(f.last, atom.set)) {
      f.barrier = true;
    }
  };
  const atom = (text: string) => {
    commit(top());
    top().pending = { set: charSet(text, flags, fold), group: null };
  };

  for (let i = 0; i < src.length && reason === null; i++) {
    const c = src[i];
    if (c === '\\') {
      const next = src[i + 1] ?? '';
      if (/[1-9]/.test(next) || (next === 'k' && src[i + 2] === '<')) return 'a backreference';
      if (next === 'b' || next === 'B') {
        commit(top());
        i++;
        continue;
      }
      const len = escapeLength(src, i);
      atom(src.slice(i, i + len));
      i += len - 1;
    } else if (c === '[') {
      const end = classEnd(src, i);
      atom(src.slice(i, end + 1));
      i = end;
    } else if (c === '(') {
      commit(top());
      const look = /^\(\?<?[=!]/.test(src.slice(i, i + 4));
      const inner = frame(top(), look);
      stack.push(inner);
      if (src[i + 1] === '?') i += src[i + 2] === '<' && src[i + 3] !== '=' && src[i + 3] !== '!' ? src.indexOf('>', i) - i : src[i + 2] === '<' ? 3 : 2;
      inner.body = [i + 1, i + 1];
    } else if (c === ')' && stack.length > 1) {
      const inner = stack.pop() as Frame;
      inner.body[1] = i;
      commit(inner);
      const outer = top();
      commit(outer);
      if (inner.lookaround) continue;
      outer.hasRepeat ||= inner.hasRepeat;
      outer.hasAlternation ||= inner.hasAlternation;
      if (inner.hasUnbounded) {
        const merged = mergeAlternative(inner);
        outer.last = merged.last;
        outer.barrier = merged.barrier;
        outer.hasUnbounded = true;
      }
      // A group without unbounded parts that always starts with a character of a known set
      // (`(?:cat|less)`) ends an unbounded run before it, as a single atom would.
      outer.pending = { set: inner.hasUnbounded ? 'any' : groupFirstSet(src.slice(...inner.body), flags, fold), group: inner };
    } else if (c === '|') {
      const f = top();
      commit(f);
      f.alts = mergeAlternative(f);
      f.hasAlternation = true;
      f.last = f.entry.last;
      f.barrier = f.entry.barrier;
    } else if (c === '*' || c === '+' || c === '?') {
      quantify(top(), c === '+' ? 1 : 0, c === '?' ? 1 : Infinity);
      if (src[i + 1] === '?') i++;
    } else if (c === '{' && /^\{\d+(,\d*)?\}/.test(src.slice(i))) {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(src.slice(i)) as RegExpExecArray;
      quantify(top(), Number(m[1]), m[2] === undefined ? Number(m[1]) : m[3] === '' ? Infinity : Number(m[3]));
      i += m[0].length - 1;
      if (src[i + 1] === '?') i++;
    } else if (c === '^' || c === '$') {
      commit(top());
    } else {
      atom(c);
    }
  }
  return reason;
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
 * When `body` repeated (`(body)*`, `(body)+`, `(body){n,}`) can match any string in at most one
 * way, the characters the loop could still take where it may stop (`cont`) and those it can
 * start with (`first`); otherwise null.
 *
 * The body is parsed into atoms that each match one character from a set (literals, `\s`,
 * `[...]`, `.`) with a count, inside plain or optional groups and alternations; anything else
 * (anchors, `\b`, lookarounds, backreferences, repeated inner groups) gives null. Its position
 * automaton (Glushkov) must be deterministic: from every atom, the atoms that can take the next
 * character (including the loop starting over, and the atom itself when its count can still grow)
 * match disjoint sets. Optional groups and alternatives must not match empty, and neither may the
 * body, so there is only one way to reach each atom. Then a backtracking matcher follows one
 * path through the loop and can only choose where it stops, like `\w*`.
 * @example loopContinuation('-\\S+\\s+', '', '')?.cont // the characters `-` and \s
 * @example loopContinuation('\\w+-?', '', '') // null: `\w+` can run on or start the next round
 */
function loopContinuation(body: string, flags: string, fold: string): { cont: CharSet; first: CharSet } | null {
  const sets: CharSet[] = [];
  const counts: [number, number][] = [];
  let i = 0;
  const fail = (): never => {
    throw new Error('unsupported');
  };
  const quantifier = (): [number, number] => {
    const c = body[i];
    let q: [number, number] = [1, 1];
    if (c === '*' || c === '+' || c === '?') {
      q = [c === '+' ? 1 : 0, c === '?' ? 1 : Infinity];
      i++;
    } else if (c === '{') {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(body.slice(i));
      if (!m) fail();
      const [, lo, comma, hi] = m as RegExpExecArray;
      q = [Number(lo), comma === undefined ? Number(lo) : hi === '' ? Infinity : Number(hi)];
      i += (m as RegExpExecArray)[0].length;
    }
    if (q[1] === 0 || q[0] > q[1]) fail();
    if (body[i] === '?' && (q[0] !== 1 || q[1] !== 1)) i++;
    return q;
  };
  const addAtom = (text: string): Node => {
    // Only plain ASCII atoms: sample-based disjointness is exact for them.
    if (/[^\x20-\x7e]|\\[upPxc0-9kbB]/.test(text)) fail();
    sets.push(charSet(text, flags, fold));
    const [min, max] = quantifier();
    counts.push([min, max]);
    return { kind: 'atom', pos: sets.length - 1, min, max };
  };
  const alternatives = (): Node[][] => {
    const alts: Node[][] = [[]];
    const push = (node: Node) => alts[alts.length - 1].push(node);
    while (i < body.length && body[i] !== ')') {
      const c = body[i];
      if (c === '|') {
        alts.push([]);
        i++;
      } else if (c === '(') {
        if (body[i + 1] === '?') {
          const named = /^\(\?<[A-Za-z_$][\w$]*>/.exec(body.slice(i));
          if (named) i += named[0].length;
          else if (body[i + 2] === ':') i += 3;
          else fail();
        } else i++;
        const inner = alternatives();
        if (body[i] !== ')') fail();
        i++;
        const [min, max] = quantifier();
        if (max > 1) fail();
        push({ kind: 'group', alts: inner, min, max });
      } else if (c === '\\') {
        const len = escapeLength(body, i);
        const text = body.slice(i, i + len);
        i += len;
        push(addAtom(text));
      } else if (c === '[') {
        const end = classEnd(body, i);
        const text = body.slice(i, end + 1);
        i = end + 1;
        push(addAtom(text));
      } else if ('^$*+?{}]'.includes(c)) {
        fail();
      } else {
        i++;
        push(addAtom(c));
      }
    }
    return alts;
  };

  let root: Node[][];
  try {
    root = alternatives();
    if (i !== body.length) fail();
  } catch {
    return null;
  }

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
  const none: CharSet = SAMPLES.map(() => false);
  return {
    cont: top.last.map((p) => options(p)).flat().reduce<CharSet>((a, b) => union(a, b), none),
    first: top.first.map((p) => sets[p]).reduce<CharSet>((a, b) => union(a, b), none),
  };
}

/**
 * The characters a group's body can start with, when every alternative starts with a
 * mandatory single-character atom; otherwise 'any'.
 * @example groupFirstSet('cat|less', '', '') // the characters c and l
 */
function groupFirstSet(body: string, flags: string, fold: string): CharSet {
  let set: CharSet = SAMPLES.map(() => false);
  for (let start = 0; start <= body.length;) {
    let end = start;
    let len: number;
    const c = body[start];
    if (c === undefined || c === '|' || c === '(' || c === ')' || c === '^' || c === '$') return 'any';
    if (c === '\\') {
      if (/[1-9bBk]/.test(body[start + 1] ?? '')) return 'any';
      len = escapeLength(body, start);
    } else len = c === '[' ? classEnd(body, start) - start + 1 : 1;
    if (/^(?:[?*]|\{0[,}])/.test(body.slice(start + len))) return 'any';
    set = union(set, charSet(body.slice(start, start + len), flags, fold));
    // On to the next top-level alternative, if any.
    let depth = 0;
    for (end = start; end < body.length; end++) {
      const d = body[end];
      if (d === '\\') end++;
      else if (d === '[') end = classEnd(body, end);
      else if (d === '(') depth++;
      else if (d === ')') depth--;
      else if (d === '|' && depth === 0) break;
    }
    if (end >= body.length) return set;
    start = end + 1;
  }
  return set;
}

function union(a: CharSet, b: CharSet): CharSet {
  if (a === 'any' || b === 'any') return 'any';
  return a.map((v, j) => v || b[j]);
}

/**
 * The frame's `last`/`barrier` merged with those of its earlier alternatives: the text after
 * the group may follow any of them, so a run is still open if it is open in one of them.
 */
function mergeAlternative(f: Frame): { last: CharSet | null; barrier: boolean } {
  const a = f.alts;
  const b = { last: f.last, barrier: f.barrier };
  if (a === null) return b;
  if (a.last === null || (a.barrier && !b.barrier && b.last !== null)) return b;
  if (b.last === null || (b.barrier && !a.barrier)) return a;
  return { last: union(a.last, b.last), barrier: a.barrier && b.barrier };
}

/** The length of the escape sequence at `i` (`\d`, `\x41`, `\u{1F600}`, `\p{L}`, `\cA`). */
function escapeLength(src: string, i: number): number {
  const next = src[i + 1];
  if ((next === 'u' || next === 'p' || next === 'P') && src[i + 2] === '{') return src.indexOf('}', i) - i + 1 || 2;
  if (next === 'u') return 6;
  if (next === 'x') return 4;
  if (next === 'c') return 3;
  return 2;
}

/** The index of the `]` closing the class opened at `start`. */
function classEnd(src: string, start: number): number {
  for (let i = start + 1; i < src.length; i++) {
    if (src[i] === '\\') i++;
    else if (src[i] === ']') return i;
  }
  return src.length - 1;
}

/** The characters among the samples that one atom matches; 'any' when it cannot be compiled alone. */
function charSet(atom: string, flags: string, fold: string): CharSet {
  let re: RegExp;
  try {
    re = new RegExp(`^(?:${atom})$`, `${fold}${flags.includes('s') ? 's' : ''}${flags.includes('u') || flags.includes('v') ? 'u' : ''}`);
  } catch {
    return 'any';
  }
  return SAMPLES.map((s) => re.test(s));
}

function overlaps(a: CharSet, b: CharSet): boolean {
  if (a === 'any' || b === 'any') return true;
  for (let i = 0; i < a.length; i++) if (a[i] && b[i]) return true;
  return false;
}
