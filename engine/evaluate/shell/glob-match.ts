/**
 * One segment of a pathname pattern (`*.ts`, `.[C]LAUDE`, `@(a|b)*`) matched against a name
 * in time linear in the name, whatever the pattern: an automaton whose states are the
 * pattern's positions, all followed at once. A backtracking regex would try every way the
 * stars can split the name: `*a*a*a*a*b` against a name of 250 `a`s takes minutes, and the
 * agent chooses both the pattern and the names.
 */

/** A segment's pattern as matched: the positions of the automaton. */
type State =
  | { kind: 'char'; test: (c: string) => boolean; next: number }
  | { kind: 'split'; next: number[] }
  | { kind: 'match' };

/** One parsed item of a pattern. */
type Item =
  | { kind: 'char'; test: (c: string) => boolean }
  | { kind: 'star' }
  | { kind: 'group'; alternatives: Item[][]; optional: boolean };

export interface SegmentPattern {
  /** True when the segment has a pattern character; false: it names itself. */
  pattern: boolean;
  /** The name matches the whole segment. */
  test(name: string): boolean;
}

/**
 * The matcher of one segment (escapes kept: `\*` is a star itself). `@(a|b)` and `?(a|b)`
 * are alternations; `*(x)`, `+(x)` and `!(x)` any text, which they are within; `caseless`
 * folds case as nocaseglob does.
 * @example segmentPattern('*.[tj]s', false).test('a.ts') // true
 */
export function segmentPattern(segment: string, caseless: boolean): SegmentPattern {
  const parsed = parseItems(segment, 0, false, caseless);
  if (!parsed.pattern) return { pattern: false, test: (name) => name === segment.replace(/\\([\s\S])/g, '$1') };
  const states: State[] = [];
  const end = build(parsed.items, states, () => states.push({ kind: 'match' }) - 1);
  return { pattern: true, test: (name) => run(states, end, name) };
}

/** Items from `start` up to the end (or, inside a group, the `|` or `)` that ends an alternative). */
function parseItems(segment: string, start: number, inGroup: boolean, caseless: boolean): { items: Item[]; pattern: boolean; end: number } {
  const items: Item[] = [];
  let pattern = false;
  let i = start;
  const literal = (c: string) => {
    const folded = caseless ? c.toLowerCase() : c;
    items.push({ kind: 'char', test: caseless ? (x) => x.toLowerCase() === folded : (x) => x === c });
  };
  for (; i < segment.length; i++) {
    const c = segment[i];
    if (inGroup && (c === '|' || c === ')')) break;
    if (c === '\\' && i + 1 < segment.length) literal(segment[++i]);
    else if ('?*+@!'.includes(c) && segment[i + 1] === '(') {
      const group = parseGroup(segment, i + 2, caseless);
      if (group === null) {
        literal(c);
        continue;
      }
      pattern = true;
      if (c === '@' || c === '?') items.push({ kind: 'group', alternatives: group.alternatives, optional: c === '?' });
      else items.push({ kind: 'star' });
      i = group.end;
    } else if (c === '*') {
      pattern = true;
      items.push({ kind: 'star' });
    } else if (c === '?') {
      pattern = true;
      items.push({ kind: 'char', test: () => true });
    } else if (c === '[') {
      const bracket = readBracket(segment, i);
      if (bracket === null) literal(c);
      else {
        pattern = true;
        const cls = characterClass(bracket.source, caseless);
        items.push({ kind: 'char', test: (x) => cls?.test(x) === true });
        i = bracket.end;
      }
    } else literal(c);
  }
  return { items, pattern, end: i };
}

/** The alternatives of an extended pattern whose text starts at `start` (after `X(`), and its closing `)`; null when it is not closed. */
function parseGroup(segment: string, start: number, caseless: boolean): { alternatives: Item[][]; end: number } | null {
  const alternatives: Item[][] = [];
  let i = start;
  for (;;) {
    const part = parseItems(segment, i, true, caseless);
    alternatives.push(part.items);
    if (part.end >= segment.length) return null;
    if (segment[part.end] === ')') return { alternatives, end: part.end };
    i = part.end + 1;
  }
}

/** Adds the states of `items`, each leading to what `after` makes; returns the first. */
function build(items: readonly Item[], states: State[], after: () => number): number {
  let next = after();
  for (let k = items.length - 1; k >= 0; k--) {
    const item = items[k];
    const then = next;
    if (item.kind === 'char') next = states.push({ kind: 'char', test: item.test, next: then }) - 1;
    else if (item.kind === 'star') {
      // split: take a character and come back, or go on.
      const split = states.push({ kind: 'split', next: [] }) - 1;
      const take = states.push({ kind: 'char', test: () => true, next: split }) - 1;
      (states[split] as { next: number[] }).next.push(take, then);
      next = split;
    } else {
      const starts = item.alternatives.map((alternative) => build(alternative, states, () => then));
      next = states.push({ kind: 'split', next: item.optional ? [...starts, then] : starts }) - 1;
    }
  }
  return next;
}

/** True when the automaton from `start` takes the whole name (code point by code point). */
function run(states: readonly State[], start: number, name: string): boolean {
  let current = closure(states, [start]);
  for (const c of name) {
    const next: number[] = [];
    for (const s of current) {
      const state = states[s];
      if (state.kind === 'char' && state.test(c)) next.push(state.next);
    }
    if (next.length === 0) return false;
    current = closure(states, next);
  }
  return current.some((s) => states[s].kind === 'match');
}

/** The states reachable through splits, each once. */
function closure(states: readonly State[], from: readonly number[]): number[] {
  const seen = new Set<number>();
  const stack = [...from];
  while (stack.length > 0) {
    const s = stack.pop() as number;
    if (seen.has(s)) continue;
    seen.add(s);
    const state = states[s];
    if (state.kind === 'split') stack.push(...state.next);
  }
  return [...seen];
}

/** `[...]` from `start` (the `[`): its regex class and where it ends, or null when it is not closed. */
function readBracket(segment: string, start: number): { source: string; end: number } | null {
  let i = start + 1;
  let negate = false;
  if (segment[i] === '!' || segment[i] === '^') {
    negate = true;
    i++;
  }
  let body = '';
  let first = true;
  for (; i < segment.length; i++) {
    const c = segment[i];
    if (c === ']' && !first) return { source: `[${negate ? '^' : ''}${body}]`, end: i };
    first = false;
    if (c === '[' && segment[i + 1] === ':') {
      const close = segment.indexOf(':]', i + 2);
      const cls = close > 0 ? CLASSES[segment.slice(i + 2, close)] : undefined;
      if (cls) {
        body += cls;
        i = close + 1;
        continue;
      }
    }
    if (c === '\\' && i + 1 < segment.length) {
      body += escapeClass(segment[++i]);
      continue;
    }
    body += c === '-' && body !== '' && segment[i + 1] !== ']' ? '-' : escapeClass(c);
  }
  return null;
}

/** A bracket's class as a regex of one character; null for one bash matches nothing with (`[z-a]`). */
function characterClass(source: string, caseless: boolean): RegExp | null {
  try {
    return new RegExp(`^${source}$`, caseless ? 'iu' : 'u');
  } catch {
    return null;
  }
}

const CLASSES: Record<string, string> = {
  alpha: 'A-Za-z', digit: '0-9', alnum: 'A-Za-z0-9', upper: 'A-Z', lower: 'a-z', space: ' \\t\\n\\r\\f\\v',
  xdigit: '0-9A-Fa-f', punct: '!-\\/:-@\\[-`{-~', word: 'A-Za-z0-9_', blank: ' \\t',
};

function escapeClass(c: string): string {
  return /[\\\]^-]/.test(c) ? `\\${c}` : c;
}
