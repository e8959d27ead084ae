/**
 * The longest literal text every match of a regular expression must contain, found at
 * compile time so that the evaluator can skip a pattern (and its watchdog) when the text
 * does not contain it. Read from the pattern's tree (language/regex-syntax.ts): classes,
 * escapes with meaning and anything quantified break a run; groups are read only where
 * every match must go through them, so a literal found here is always required.
 */
import { parseRegex, type AST } from '../language/regex-syntax';

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
  const tree = parseRegex(source, flags);
  if (tree === null) return [];
  const runs = requiredStrings(tree.alternatives);
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
  const tree = parseRegex(source, flags);
  if (tree === null || tree.alternatives.length !== 1) return null;
  let best: string[] | null = null;
  const shortest = (set: string[]) => Math.min(...set.map((l) => l.length));
  for (const element of tree.alternatives[0].elements) {
    const set = element.type === 'Group' || element.type === 'CapturingGroup' ? groupLiterals(element) : null;
    if (set && set.length > 1 && shortest(set) >= 2 && (!ignoreCase || set.every((l) => /^[\x20-\x7e]+$/.test(l)))) {
      const cased = ignoreCase ? set.map((l) => l.toLowerCase()) : set;
      if (!best || shortest(cased) > shortest(best)) best = cased;
    }
  }
  return best;
}

/** The alternatives of a group without modifiers when each is a plain, non-empty literal; else null. */
function groupLiterals(group: AST.Group | AST.CapturingGroup): string[] | null {
  if (group.type === 'Group' && group.modifiers !== null) return null;
  const alternatives: string[] = [];
  for (const alt of group.alternatives) {
    let text = '';
    for (const element of alt.elements) {
      const c = element.type === 'Character' ? literalText(element) : null;
      if (c === null) return null;
      text += c;
    }
    if (text === '') return null;
    alternatives.push(text);
  }
  return alternatives;
}

/**
 * What every match of the alternatives contains: for an alternation, what every alternative
 * requires (`-f|--force|-[a-z]*f` -> `-`, `f`).
 */
function requiredStrings(alternatives: readonly AST.Alternative[]): string[] {
  let common: string[] | null = null;
  for (const alternative of alternatives) {
    const strings = sequenceStrings(alternative.elements);
    common = common === null ? strings : shared(common, strings);
  }
  return common ?? [];
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
 * The literal runs of a sequence, and what its groups require: a group that must match
 * (not optional, not a negative lookaround) contributes requiredStrings of its content.
 */
function sequenceStrings(elements: readonly AST.Element[]): string[] {
  const runs: string[] = [];
  let run = '';
  const cut = () => {
    if (run !== '') runs.push(run);
    run = '';
  };
  for (const element of elements) {
    const text = element.type === 'Character' ? literalText(element) : null;
    if (text !== null) {
      run += text;
      continue;
    }
    // A class, boundary, back-reference, character code (`\x60` is a backtick, not "60"),
    // anything quantified (it may occur zero times, or more than once): the run ends.
    cut();
    const quantified = element.type === 'Quantifier';
    const group = quantified ? element.element : element;
    if (quantified && element.min === 0) continue;
    if (isRequiredGroup(group)) runs.push(...requiredStrings(group.alternatives));
  }
  cut();
  return runs;
}

/** A group every match goes through when it is not skipped by a quantifier: any but a negative lookaround, or one whose modifiers change case folding. */
function isRequiredGroup(node: AST.Node): node is AST.Group | AST.CapturingGroup | AST.LookaroundAssertion {
  if (node.type === 'CapturingGroup') return true;
  // Inside `(?i:...)` the text may differ in case from the literal; the prefilter compares exactly.
  if (node.type === 'Group') return node.modifiers === null || (!node.modifiers.add.ignoreCase && !node.modifiers.remove?.ignoreCase);
  return node.type === 'Assertion' && (node.kind === 'lookahead' || node.kind === 'lookbehind') && !node.negate;
}

/** Escaped characters that stand for themselves (no class, no boundary, no back-reference). */
const LITERAL_ESCAPE = /^\\[-\\/^$.*+?()[\]{}|=!:,#&~'"`<>%@; ]$/;
/** Characters written plainly that this reader does not take as literal text. */
const NOT_LITERAL = '{}]';

/** The text a literal character node stands for, or null when it is written as an escape with meaning (`\n`, `\x41`, `\0`). */
function literalText(node: AST.Character): string | null {
  const raw = node.raw;
  if (raw[0] === '\\') return LITERAL_ESCAPE.test(raw) ? raw[1] : null;
  return NOT_LITERAL.includes(raw) ? null : raw;
}
