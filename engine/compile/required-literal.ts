/**
 * The longest literal text every match of a regular expression must contain, found at
 * compile time so that the evaluator can skip a pattern (and its watchdog) when the text
 * does not contain it. Only the top-level sequence is read; groups, classes, escapes with
 * meaning and anything quantified break a run, so a literal found here is always required.
 */

/**
 * The longest required literal of `source` (lower-cased under the `i` flag), or null
 * when there is none worth checking or the pattern is outside what this reader trusts.
 * @example requiredLiteral('\\bgit\\s+push\\b.*--force', '') // '--force'
 * @example requiredLiteral('a|b', '') // null (top-level alternation)
 */
export function requiredLiteral(source: string, flags: string): string | null {
  const ignoreCase = flags.includes('i');
  // Unicode case folding under `iu` can match non-ASCII text to ASCII letters: no prefilter.
  if (ignoreCase && (flags.includes('u') || flags.includes('v'))) return null;
  const runs = literalRuns(source);
  if (runs === null) return null;
  let best = '';
  for (const run of runs) if (run.length > best.length) best = run;
  if (best.length < 2 || (ignoreCase && !/^[\x20-\x7e]+$/.test(best))) return null;
  return ignoreCase ? best.toLowerCase() : best;
}

/** The literal runs of the top-level sequence, or null for a top-level alternation or a malformed source. */
function literalRuns(source: string): string[] | null {
  const runs: string[] = [];
  let run = '';
  const cut = () => {
    if (run !== '') runs.push(run);
    run = '';
  };
  let i = 0;
  while (i < source.length) {
    const c = source[i];
    if (c === '|') return null;
    if (c === '(') {
      const end = skipGroup(source, i);
      if (end < 0) return null;
      cut();
      i = end;
    } else if (c === '[') {
      const end = skipClass(source, i);
      if (end < 0) return null;
      cut();
      i = end;
    } else if (c === '*' || c === '+' || c === '?' || (c === '{' && QUANTIFIER.test(source.slice(i)))) {
      // The quantified character may occur zero times (or more than once): it leaves the run.
      run = run.slice(0, -1);
      cut();
      i += c === '{' ? (source.slice(i).match(QUANTIFIER) as RegExpMatchArray)[0].length : 1;
      if (source[i] === '?') i++;
    } else if (c === '\\') {
      const next = source[i + 1];
      if (next === undefined) return null;
      if (LITERAL_ESCAPE.test(next)) run += next;
      else cut();
      i += 2;
    } else if (c === '.' || c === '^' || c === '$' || c === '{' || c === '}' || c === ')' || c === ']') {
      cut();
      i++;
    } else {
      run += c;
      i++;
    }
  }
  cut();
  return runs;
}

const QUANTIFIER = /^\{\d+(,\d*)?\}/;
/** Escaped characters that stand for themselves (no class, no boundary, no back-reference). */
const LITERAL_ESCAPE = /^[-\\/^$.*+?()[\]{}|=!:,#&~'"`<>%@; ]$/;

/** Index just past the group opening at `start`, or -1 when it never closes. */
function skipGroup(source: string, start: number): number {
  let depth = 0;
  for (let i = start; i < source.length; i++) {
    const c = source[i];
    if (c === '\\') i++;
    else if (c === '[') {
      const end = skipClass(source, i);
      if (end < 0) return -1;
      i = end - 1;
    } else if (c === '(') depth++;
    else if (c === ')' && --depth === 0) return i + 1;
  }
  return -1;
}

/** Index just past the character class opening at `start`, or -1 when it never closes. */
function skipClass(source: string, start: number): number {
  for (let i = start + 1; i < source.length; i++) {
    if (source[i] === '\\') i++;
    else if (source[i] === ']') return i + 1;
  }
  return -1;
}
