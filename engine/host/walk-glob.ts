/**
 * How the file walker reads a glob: the folder to start from and a test for the paths
 * under it. The globs rules actually write (`*`, `**`, `?`, `{a,b}`) are matched here,
 * name by name without a regex, with picomatch's meaning (dot files included), in time
 * linear in the path's names; anything else (classes, extglobs, nested braces, `..`) goes
 * to picomatch, which then costs its load (~2-4 ms) to the event, and whose regex may
 * backtrack for long on a crafted name: file-facts.ts walks it under the watchdog.
 * Property-tested against picomatch (walk-glob.test.ts).
 */
import type picomatchType from 'picomatch';

export interface WalkGlob {
  /** The leading folders without glob characters ('' for none), as written. */
  base: string;
  /** False when the whole pattern is a plain path. */
  isGlob: boolean;
  /** Tests a path relative to `base`, `/`-separated. */
  test: (rel: string) => boolean;
  /** True when `test` is picomatch's regex, which may backtrack for long on a crafted name: the walk runs under the watchdog. */
  native?: true;
}

const plans = new Map<string, WalkGlob>();

/**
 * The walk plan of a `/`-separated glob, remembered per pattern.
 * @example walkGlob('.agent/teams/*\/global-context.md') // { base: '.agent/teams', isGlob: true, test: ... }
 */
export function walkGlob(pattern: string): WalkGlob {
  let plan = plans.get(pattern);
  if (!plan) {
    plan = simpleWalkGlob(pattern) ?? picomatchWalkGlob(pattern);
    if (plans.size >= 500) plans.clear();
    plans.set(pattern, plan);
  }
  return plan;
}

/**
 * The plan without picomatch, or null when the pattern uses anything beyond `*`, `**`,
 * `?` and flat `{a,b}` alternatives (or expands to more than 64 alternatives in a folder
 * name).
 * @example simpleWalkGlob('src/**\/*.{ts,md}')?.test('deep/a.md') // true
 */
export function simpleWalkGlob(pattern: string): WalkGlob | null {
  // Plain string scans and a hand-written matcher, no regexes: each regex costs its
  // compile at the first event (~0.1-0.2 ms, and again at its second test).
  if (!supported(pattern)) return null;
  const lead = pattern.startsWith('/') ? '/' : '';
  const body = pattern.startsWith('./') ? pattern.slice(2) : pattern.slice(lead.length);
  const segments = body.split('/');
  // `**` inside a name (`a**`, `**{x,y}`) has more than one reading in picomatch too.
  if (segments.some((s) => s === '' || s === '.' || s === '..' || (s !== '**' && s.includes('**')))) return null;
  const firstGlob = segments.findIndex(hasWildcard);
  if (firstGlob < 0) return plainPath(lead + body);
  const steps = walkSteps(segments.slice(firstGlob));
  if (steps === null) return null;
  return { base: lead + segments.slice(0, firstGlob).join('/'), isGlob: true, test: stepMatcher(steps) };
}
/**
 * False for what is left to picomatch: classes, extglobs and escapes; a wildcard right
 * after a dot, which picomatch reads in more than one way (`a.*` matches `a.`, `*.*` does
 * not); `$$`, which some of picomatch's shortcuts read as one `$`; and braces that nest, do not close, hold `/`, `**`, `..` (a range) or an empty
 * alternative, or have no comma.
 */
function supported(pattern: string): boolean {
  let open = -1;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    const next = pattern[i + 1];
    if ('[]()!+@\\'.includes(c) || (c === '.' && (next === '*' || next === '?')) || (c === '$' && next === '$')) return false;
    if (c === '{') {
      if (open >= 0 || next === ',' || next === '}') return false;
      open = i;
    } else if (c === '}') {
      if (open < 0 || !pattern.slice(open, i).includes(',')) return false;
      open = -1;
    } else if (open >= 0 && (c === '/' || (c === '*' && next === '*') || (c === '.' && next === '.') || (c === ',' && (next === ',' || next === '}')))) {
      return false;
    }
  }
  return open < 0;
}

function hasWildcard(segment: string): boolean {
  return segment.includes('*') || segment.includes('?') || segment.includes('{');
}

/**
 * One step per folder name: `**` (any number of names), or the name's alternatives with
 * its braces expanded (`*.{ts,md}` -> `*.ts`, `*.md`); null past 64 alternatives.
 * A trailing `**` also matches its folder itself unless that ends in a star (`a/**`
 * matches `a`; `*\/**` does not match `a`), as in picomatch.
 */
type Step = { kind: 'names'; alternatives: string[] } | { kind: 'any'; last: boolean; needsOne: boolean };

const MAX_ALTERNATIVES = 64;

function walkSteps(segments: string[]): Step[] | null {
  const collapsed = segments.filter((s, i) => s !== '**' || segments[i - 1] !== '**');
  const steps: Step[] = [];
  for (let i = 0; i < collapsed.length; i++) {
    const segment = collapsed[i];
    if (segment === '**') {
      const last = i === collapsed.length - 1;
      steps.push({ kind: 'any', last, needsOne: last && i > 0 && collapsed[i - 1].endsWith('*') });
      continue;
    }
    const alternatives = expandBraces(segment);
    if (alternatives.length > MAX_ALTERNATIVES) return null;
    steps.push({ kind: 'names', alternatives });
  }
  return steps;
}

/** A name's flat `{a,b}` groups expanded, left to right. */
function expandBraces(segment: string): string[] {
  const open = segment.indexOf('{');
  if (open < 0) return [segment];
  const close = segment.indexOf('}', open);
  const head = segment.slice(0, open);
  const tails = expandBraces(segment.slice(close + 1));
  const out: string[] = [];
  for (const choice of segment.slice(open + 1, close).split(',')) {
    for (const tail of tails) {
      out.push(head + choice + tail);
      if (out.length > MAX_ALTERNATIVES) return out;
    }
  }
  return out;
}

/**
 * A test of `/`-separated paths against the steps: every step a name may be at is followed
 * at once, name by name (never one choice after another, which a path of many names and a
 * glob of many `**` would make exponential). `**` spans whole names that hold no line
 * terminator (as picomatch's `.` does not match them), and, before the end, no empty one;
 * `*` and `?` stay within one name. Its state lists are made once per glob.
 */
function stepMatcher(steps: Step[]): (rel: string) => boolean {
  // A state is a step index; `steps.length` is the end; DONE, a last `**` that has taken a name.
  const DONE = steps.length + 1;
  let current = new Int32Array(DONE + 1);
  let next = new Int32Array(DONE + 1);
  const seen = new Int32Array(DONE + 1);
  let stamp = 0;
  /** Adds `s` to `list` at `count`, with every `**` before the end that may take no name stepped over. */
  const add = (list: Int32Array, count: number, s: number): number => {
    for (;;) {
      if (seen[s] === stamp) return count;
      seen[s] = stamp;
      list[count++] = s;
      const step = steps[s];
      if (step === undefined || step.kind !== 'any' || step.last) return count;
      s++;
    }
  };
  return (rel) => {
    const names = rel.split('/');
    stamp++;
    let count = add(current, 0, 0);
    for (const name of names) {
      stamp++;
      let nextCount = 0;
      const broken = hasLineTerminator(name);
      for (let i = 0; i < count; i++) {
        const s = current[i];
        const step = steps[s];
        if (s === DONE || (step?.kind === 'any' && step.last)) {
          if (!broken) nextCount = add(next, nextCount, DONE);
        } else if (step === undefined) {
          // Past the end: a name left over cannot match.
        } else if (step.kind === 'names') {
          if (step.alternatives.some((a) => wildcardMatch(a, name))) nextCount = add(next, nextCount, s + 1);
        } else if (name !== '' && !broken) {
          nextCount = add(next, nextCount, s);
        }
      }
      if (nextCount === 0) return false;
      [current, next] = [next, current];
      count = nextCount;
    }
    for (let i = 0; i < count; i++) {
      const s = current[i];
      const step = steps[s];
      if (s === steps.length || s === DONE || (step?.kind === 'any' && step.last && !step.needsOne)) return true;
    }
    return false;
  };
}

/** `*` (any run) and `?` (one character) against one folder or file name. */
function wildcardMatch(pattern: string, name: string): boolean {
  let p = 0;
  let t = 0;
  let star = -1;
  let resume = 0;
  while (t < name.length) {
    if (p < pattern.length && pattern[p] === '*') {
      star = p++;
      resume = t;
    } else if (p < pattern.length && (pattern[p] === '?' || pattern[p] === name[t])) {
      p++;
      t++;
    } else if (star >= 0) {
      p = star + 1;
      t = ++resume;
    } else {
      return false;
    }
  }
  while (p < pattern.length && pattern[p] === '*') p++;
  return p === pattern.length;
}

function hasLineTerminator(name: string): boolean {
  return name.includes('\n') || name.includes('\r') || name.includes('\u2028') || name.includes('\u2029');
}

/** A pattern without glob characters: the walker stats `base` itself; nothing under it matches. */
function plainPath(base: string): WalkGlob {
  return { base, isGlob: false, test: (rel) => rel === '' };
}

let picomatchModule: typeof picomatchType | undefined;

function picomatchWalkGlob(pattern: string): WalkGlob {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const picomatch = (picomatchModule ??= require('picomatch') as typeof picomatchType);
  const scan = picomatch.scan(pattern);
  return scan.isGlob ? { base: scan.base, isGlob: true, test: picomatch(scan.glob, { dot: true }), native: true } : plainPath(scan.base);
}
