/**
 * The longest literal text every match of a regular expression must contain, found at
 * compile time so that the evaluator can skip a pattern (and its watchdog) when the text
 * does not contain it. Classes, escapes with meaning and anything quantified break a run;
 * groups are read only where every match must go through them, so a literal found here
 * is always required.
 */

/**
 * The longest required literal of `source` (lower-cased under the `i` flag), or null
 * when there is none worth checking or the pattern is outside what this reader trusts.
 * @example requiredLiteral('\\bgit\\s+push\\b.*--force', '') // '--force'
 * @example requiredLiteral('a|b', '') // null (top-level alternation)
 */
export function requiredLiteral(source: string, flags: string): string | null {
  const best = requiredLiterals(source, flags)[0];
  return best !== undefined && best.length >= 2 ? best : null;
}

/**
 * Every literal text each match contains (lower-cased under `i`), longest first, without
 * repeats: the runs of the top-level sequence, and what the groups every match goes
 * through require, an alternation giving what all its alternatives share; empty when
 * there is none or the pattern is outside what this reader trusts. Under `i`, only
 * printable ASCII texts.
 * @example requiredLiterals('\\bgit\\s+push\\b[^;&|]*\\s\\+(?:main|master)', '') // ['push', 'git', '+', 'm', 'a']
 */
export function requiredLiterals(source: string, flags: string): string[] {
  const ignoreCase = flags.includes('i');
  // Unicode case folding under `iu` can match non-ASCII text to ASCII letters: no prefilter.
  if (ignoreCase && (flags.includes('u') || flags.includes('v'))) return [];
  const runs = requiredStrings(source);
  if (runs === null) return [];
  const kept = ignoreCase ? runs.filter((r) => /^[\x20-\x7e]+$/.test(r)).map((r) => r.toLowerCase()) : runs;
  return [...new Set(kept)].sort((x, y) => y.length - x.length);
}

/**
 * The best set of literals one of which every match must contain: the alternatives of a
 * top-level group that is neither quantified nor a lookaround and holds only plain
 * literals (`\\b(?:curl|wget)\\b` -> ['curl', 'wget']), the set whose shortest member is
 * longest; lower-cased under `i`. Null when there is none worth checking.
 * @example requiredAlternatives('\\b(?:curl|wget)\\b.*\\|\\s*sh', '') // ['curl', 'wget']
 */
export function requiredAlternatives(source: string, flags: string): string[] | null {
  const ignoreCase = flags.includes('i');
  if (ignoreCase && (flags.includes('u') || flags.includes('v'))) return null;
  if (sequenceStrings(source, false) === null) return null;
  let best: string[] | null = null;
  const shortest = (set: string[]) => Math.min(...set.map((l) => l.length));
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === '\\') i++;
    else if (c === '[') i = skipClass(source, i) - 1;
    else if (c === '(') {
      const end = skipGroup(source, i);
      const set = QUANTIFIER_START.test(source.slice(end)) ? null : groupLiterals(source.slice(i, end));
      if (set && set.length > 1 && shortest(set) >= 2 && (!ignoreCase || set.every((l) => /^[\x20-\x7e]+$/.test(l)))) {
        const cased = ignoreCase ? set.map((l) => l.toLowerCase()) : set;
        if (!best || shortest(cased) > shortest(best)) best = cased;
      }
      i = end - 1;
    }
  }
  return best;
}

const QUANTIFIER_START = /^(?:[*+?]|\{\d)/;

/** The alternatives of a group `(...)`, `(?:...)` or `(?<name>...)` when each is a plain literal; else null. */
function groupLiterals(group: string): string[] | null {
  const head = /^\((?:\?:|\?<[A-Za-z_$][\w$]*>)?/.exec(group) as RegExpExecArray;
  if (group[1] === '?' && head[0] === '(') return null;
  const alternatives: string[] = [];
  let text = '';
  for (let i = head[0].length; i < group.length - 1; i++) {
    const c = group[i];
    if (c === '|') {
      alternatives.push(text);
      text = '';
    } else if (c === '\\') {
      if (!LITERAL_ESCAPE.test(group[i + 1] ?? '')) return null;
      text += group[++i];
    } else if ('^$.*+?()[]{}'.includes(c)) return null;
    else text += c;
  }
  alternatives.push(text);
  return alternatives.every((a) => a !== '') ? alternatives : null;
}

/**
 * What every match of `pattern` contains: for an alternation, what every alternative
 * requires (`-f|--force|-[a-z]*f` -> `-`, `f`); null when the pattern is malformed.
 */
function requiredStrings(pattern: string): string[] | null {
  const alternatives = splitAlternatives(pattern);
  if (alternatives === null) return null;
  let common: string[] | null = null;
  for (const alternative of alternatives) {
    const strings = sequenceStrings(alternative, true);
    if (strings === null) return null;
    common = common === null ? strings : shared(common, strings);
  }
  return common ?? [];
}

/** The top-level alternatives of a pattern (escapes, classes and groups respected), or null when malformed. */
function splitAlternatives(pattern: string): string[] | null {
  const out: string[] = [];
  let start = 0;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\') i++;
    else if (c === '[' || c === '(') {
      const end = c === '[' ? skipClass(pattern, i) : skipGroup(pattern, i);
      if (end < 0) return null;
      i = end - 1;
    } else if (c === '|') {
      out.push(pattern.slice(start, i));
      start = i + 1;
    }
  }
  out.push(pattern.slice(start));
  return out;
}

/** The strings required by both lists: a member of one that a member of the other contains, or one character of such a member. */
function shared(a: string[], b: string[]): string[] {
  const within = (list: string[], text: string) => list.some((m) => m.includes(text));
  const kept = new Set<string>();
  for (const m of a) {
    if (within(b, m)) kept.add(m);
    else for (const ch of m) if (within(b, ch)) kept.add(ch);
  }
  for (const m of b) if (within(a, m)) kept.add(m);
  return [...kept];
}

/**
 * The literal runs of a sequence (null for an alternation in it or a malformed source);
 * with `descend`, also what its groups require: a group that must match (not optional,
 * not a negative lookaround) contributes requiredStrings of its content.
 */
function sequenceStrings(source: string, descend: boolean): string[] | null {
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
      if (descend && groupIsRequired(source, i, end)) {
        const inner = requiredStrings(source.slice(i + groupHead(source, i).length, end - 1));
        if (inner === null) return null;
        runs.push(...inner);
      }
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
      if (LITERAL_ESCAPE.test(next)) {
        run += next;
        i += 2;
      } else {
        // A class, boundary, back-reference or character code (`\x60` is a backtick, not
        // "60"): the whole escape leaves the run.
        cut();
        i += escapeLength(source, i);
      }
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

/** The opening of the group at `start`: `(`, `(?:`, `(?=`, `(?!`, `(?<=`, `(?<!` or `(?<name>`. */
function groupHead(source: string, start: number): string {
  return (/^\((?:\?(?::|=|!|<=|<!|<[A-Za-z_$][\w$]*>))?/.exec(source.slice(start)) as RegExpExecArray)[0];
}

/** True when every match goes through the group at start..end: it is not a negative lookaround and no quantifier lets it match zero times. */
function groupIsRequired(source: string, start: number, end: number): boolean {
  const head = groupHead(source, start);
  if (head === '(?!' || head === '(?<!') return false;
  if (head === '(' && source[start + 1] === '?') return false; // a group syntax this reader does not know
  const after = source.slice(end);
  if (after.startsWith('*') || after.startsWith('?')) return false;
  const counted = QUANTIFIER.exec(after);
  return !counted || !/^\{0*[,}]/.test(counted[0]);
}

/**
 * The length of the escape at `i` (a backslash) that is not a plain character: `\xHH`,
 * `\uHHHH`, `\u{...}`, `\cX`, `\k<name>`, `\p{...}`, a back-reference or octal escape
 * with all its digits; 2 for the rest (`\d`, `\b`, an identity escape like `\a`).
 */
function escapeLength(source: string, i: number): number {
  const next = source[i + 1];
  const rest = source.slice(i + 2);
  const m = next === 'x' ? /^[0-9a-fA-F]{2}/.exec(rest)
    : next === 'u' ? /^(?:[0-9a-fA-F]{4}|\{[0-9a-fA-F]+\})/.exec(rest)
    : next === 'c' ? /^[A-Za-z]/.exec(rest)
    : next === 'k' ? /^<[^>]*>/.exec(rest)
    : next === 'p' || next === 'P' ? /^\{[^}]*\}/.exec(rest)
    : next >= '0' && next <= '9' ? /^[0-9]*/.exec(rest)
    : null;
  return 2 + (m ? m[0].length : 0);
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
