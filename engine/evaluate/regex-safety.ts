/**
 * Which regular expressions can backtrack for a very long time: a static check over the
 * pattern's source. It flags nested quantifiers (`(a+)+`), quantified groups with
 * alternation (`(a|a)*`), backreferences, and two unbounded quantifiers in a row that can
 * match the same characters (`\s*\s*`, `.*x.*`). Flagged patterns run under the
 * watchdog (regex.ts). It may flag safe patterns (they then pay for the watchdog too); it
 * aims never to pass a pattern that is more than quadratic.
 */

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
  /** The atom just read, waiting to see whether a quantifier follows. */
  pending: { set: CharSet; group: Frame | null } | null;
}

const SAMPLES: string[] = [...Array.from({ length: 128 }, (_v, i) => String.fromCharCode(i)), '\u00e9', '\u00c9', '\u00a0', '\u2028', '\u4e2d', '\u{1F600}'];
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

function classify(src: string, flags: string): string | null {
  const frame = (parent: Frame | null, lookaround: boolean): Frame => {
    const entry = { last: parent?.last ?? null, barrier: parent?.barrier ?? false };
    return { lookaround, hasRepeat: false, hasAlternation: false, hasUnbounded: false, ...entry, entry, pending: null };
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
    if (atom.group && max > 1 && (atom.group.hasRepeat || atom.group.hasAlternation)) {
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
      stack.push(frame(top(), look));
      if (src[i + 1] === '?') i += src[i + 2] === '<' && src[i + 3] !== '=' && src[i + 3] !== '!' ? src.indexOf('>', i) - i : src[i + 2] === '<' ? 3 : 2;
    } else if (c === ')' && stack.length > 1) {
      const inner = stack.pop() as Frame;
      commit(inner);
      const outer = top();
      commit(outer);
      if (inner.lookaround) continue;
      outer.hasRepeat ||= inner.hasRepeat;
      outer.hasAlternation ||= inner.hasAlternation;
      if (inner.hasUnbounded) {
        outer.last = inner.hasAlternation ? 'any' : inner.last;
        outer.barrier = inner.hasAlternation ? false : inner.barrier;
        outer.hasUnbounded = true;
      }
      outer.pending = { set: 'any', group: inner };
    } else if (c === '|') {
      const f = top();
      commit(f);
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
