/**
 * How the file walker reads a glob: the folder to start from and a test for the paths
 * under it. The globs rules actually write (`*`, `**`, `?`, `{a,b}`) are compiled here,
 * with picomatch's meaning (dot files included); anything else (classes, extglobs, nested
 * braces, `..`) goes to picomatch, which then costs its load (~2-4 ms) to the event.
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
 * `?` and flat `{a,b}` alternatives.
 * @example simpleWalkGlob('src/**\/*.{ts,md}')?.test('deep/a.md') // true
 */
export function simpleWalkGlob(pattern: string): WalkGlob | null {
  // Plain string scans, no regexes: each regex costs its compile at the first event.
  if (!supported(pattern)) return null;
  const lead = pattern.startsWith('/') ? '/' : '';
  const body = pattern.startsWith('./') ? pattern.slice(2) : pattern.slice(lead.length);
  const segments = body.split('/');
  // `**` inside a name (`a**`, `**{x,y}`) has more than one reading in picomatch too.
  if (segments.some((s) => s === '' || s === '.' || s === '..' || (s !== '**' && s.includes('**')))) return null;
  const firstGlob = segments.findIndex(hasWildcard);
  if (firstGlob < 0) return plainPath(lead + body);
  const base = lead + segments.slice(0, firstGlob).join('/');
  const re = new RegExp(`^${globSource(segments.slice(firstGlob))}$`);
  return { base, isGlob: true, test: (rel) => re.test(rel) };
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

/** The regex source of `/`-joined glob segments; `**` alone in a segment spans folders. */
function globSource(segments: string[]): string {
  const collapsed = segments.filter((s, i) => s !== '**' || segments[i - 1] !== '**');
  let out = '';
  collapsed.forEach((segment, i) => {
    const last = i === collapsed.length - 1;
    if (segment !== '**') out += segmentSource(segment) + (last ? '' : '/');
    else if (!last) out += '(?:[^/]+/)*';
    // A trailing `**` also matches its folder itself unless that ends in a star (`a/**`
    // matches `a`; `*/**` does not match `a`), as in picomatch.
    else if (out === '') out = '.*';
    else out = collapsed[i - 1].endsWith('*') ? `${out}.*` : `${out.slice(0, -1)}(?:/.*)?`;
  });
  return out;
}

const REGEX_SPECIAL = '.^$|+(){}[]\\';

function segmentSource(segment: string): string {
  let out = '';
  for (let i = 0; i < segment.length; i++) {
    const c = segment[i];
    if (c === '*') {
      out += '[^/]*';
    } else if (c === '?') {
      out += '[^/]';
    } else if (c === '{') {
      const end = segment.indexOf('}', i);
      out += `(?:${segment.slice(i + 1, end).split(',').map(segmentSource).join('|')})`;
      i = end;
    } else {
      out += REGEX_SPECIAL.includes(c) ? `\\${c}` : c;
    }
  }
  return out;
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
  return scan.isGlob ? { base: scan.base, isGlob: true, test: picomatch(scan.glob, { dot: true }) } : plainPath(scan.base);
}
