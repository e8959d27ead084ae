/**
 * Regular expressions read as a tree: the one reader of regex source that hookpolicy's
 * analyses share (the super-linear check, the required literals of the prefilter, the
 * literals of a glob, the linear-time program of a pattern that may backtrack). The tree is
 * regexpp's (@eslint-community/regexpp), parsed at the newest ECMAScript version it knows,
 * so a pattern that any Node the package runs on accepts (modifier groups `(?i:...)`,
 * duplicate named groups, the `v` flag's class sets) is read as that Node reads it.
 * Compile time only: the runner never loads it on an ordinary event (scripts/build.mjs
 * fails a dist/hook.cjs that bundles it).
 */
import { RegExpParser, type AST } from '@eslint-community/regexpp';

export type { AST };

/** How a part of a pattern reads: the pattern's flags, as the modifier groups around it (`(?i:...)`, `(?-s:...)`) set or clear them. */
export interface RegexMode {
  ignoreCase: boolean;
  multiline: boolean;
  dotAll: boolean;
  unicode: boolean;
  unicodeSets: boolean;
}

/** A node that matches one character (or, in a `v` class, maybe a string): a literal, an escape, `.`, a class. */
export type CharacterNode = AST.Character | AST.CharacterSet | AST.CharacterClass | AST.ExpressionCharacterClass;

/** A group of the pattern: plain, capturing, or a lookaround. */
export type GroupNode = AST.Group | AST.CapturingGroup | AST.LookaroundAssertion;

const trees = new Map<string, AST.Pattern | null>();
let parser: RegExpParser | undefined;

/**
 * The tree of `source` read under `flags`, or null when it is not a pattern this reader
 * knows (callers then treat it as the worst case: unsafe, no literal). Remembered for the
 * analyses that read the same pattern one after the other, and only for them: a tree is
 * large, and a compile's hundreds would weigh on every collection after it.
 * @example parseRegex('(?i:a+)+$', '')?.alternatives[0].elements[0].type // 'Quantifier'
 */
export function parseRegex(source: string, flags: string): AST.Pattern | null {
  const key = `${flags}/${source}`;
  let tree = trees.get(key);
  if (tree === undefined) {
    // No ecmaVersion: regexpp's newest, so a newer regexpp reads newer syntax.
    parser ??= new RegExpParser();
    try {
      tree = parser.parsePattern(source, 0, source.length, { unicode: flags.includes('u'), unicodeSets: flags.includes('v') });
    } catch {
      tree = null;
    }
    if (trees.size >= 8) trees.clear();
    trees.set(key, tree);
  }
  return tree;
}

/**
 * The mode the pattern's own flags give.
 * @example modeOf('iu').ignoreCase // true
 */
export function modeOf(flags: string): RegexMode {
  return {
    ignoreCase: flags.includes('i'),
    multiline: flags.includes('m'),
    dotAll: flags.includes('s'),
    unicode: flags.includes('u'),
    unicodeSets: flags.includes('v'),
  };
}

/**
 * The mode inside a group: a modifier group's own flags set or cleared, any other group's unchanged.
 * @example innerMode(groupOf('(?i:a)'), modeOf('')).ignoreCase // true
 */
export function innerMode(group: GroupNode, mode: RegexMode): RegexMode {
  if (group.type !== 'Group' || group.modifiers === null) return mode;
  const { add, remove } = group.modifiers;
  const set = (flag: 'ignoreCase' | 'multiline' | 'dotAll') => (remove?.[flag] ? false : add[flag] ? true : mode[flag]);
  return { ...mode, ignoreCase: set('ignoreCase'), multiline: set('multiline'), dotAll: set('dotAll') };
}

/**
 * Flags that make a standalone RegExp read one part as it reads inside the pattern (`i`,
 * `m`, `s`, and `u` or `v`).
 * @example modeFlags({ ignoreCase: true, multiline: false, dotAll: true, unicode: false, unicodeSets: false }) // 'is'
 */
export function modeFlags(mode: RegexMode): string {
  return `${mode.ignoreCase ? 'i' : ''}${mode.multiline ? 'm' : ''}${mode.dotAll ? 's' : ''}${mode.unicodeSets ? 'v' : mode.unicode ? 'u' : ''}`;
}

/**
 * The character node that `node` is, looking through a guard group `(?:(?!L)A)` or
 * `(?:(?<=L)A)` whose lookaround does bounded work (no unbounded quantifier): such a group
 * matches one character of A's set, its lookaround a bounded number of steps at each
 * position, so an analysis may read it as A (its set only grows). Null for anything else.
 * @example characterOf(groupOf('(?:(?!git )[^;])')).raw // '[^;]'
 */
export function characterOf(node: AST.Node): CharacterNode | null {
  if (isCharacterNode(node)) return node;
  if (node.type !== 'Group' || node.modifiers !== null || node.alternatives.length !== 1) return null;
  const [look, atom] = node.alternatives[0].elements;
  if (node.alternatives[0].elements.length !== 2 || look.type !== 'Assertion' || (look.kind !== 'lookahead' && look.kind !== 'lookbehind')) return null;
  if (!isCharacterNode(atom) || hasUnboundedQuantifier(look)) return null;
  return atom;
}

function isCharacterNode(node: AST.Node): node is CharacterNode {
  return node.type === 'Character' || node.type === 'CharacterSet' || node.type === 'CharacterClass' || node.type === 'ExpressionCharacterClass';
}

/**
 * True when a character node may match a string that is not one character: a `v` class
 * with `\q{...}` or a property of strings (`\p{RGI_Emoji}`).
 * @example matchesStrings(nodeOf('[\\q{ab|c}]', 'v')) // true
 */
export function matchesStrings(node: AST.Node): boolean {
  switch (node.type) {
    case 'CharacterSet':
      return node.kind === 'property' && node.strings;
    case 'ClassStringDisjunction':
      return node.alternatives.some((a) => a.elements.length !== 1);
    case 'CharacterClass':
      return node.unicodeSets && node.elements.some(matchesStrings);
    case 'ExpressionCharacterClass':
      return matchesStrings(node.expression);
    case 'ClassIntersection':
    case 'ClassSubtraction':
      return matchesStrings(node.left) || matchesStrings(node.right);
    default:
      return false;
  }
}

/**
 * True when a quantifier below `node` has no upper bound (`*`, `+`, `{n,}`).
 * @example hasUnboundedQuantifier(parseRegex('(?!a+)', '')!) // true
 */
export function hasUnboundedQuantifier(node: AST.Node): boolean {
  switch (node.type) {
    case 'Quantifier':
      return node.max === Infinity || hasUnboundedQuantifier(node.element);
    case 'Pattern':
    case 'Group':
    case 'CapturingGroup':
      return node.alternatives.some(hasUnboundedQuantifier);
    case 'Assertion':
      return (node.kind === 'lookahead' || node.kind === 'lookbehind') && node.alternatives.some(hasUnboundedQuantifier);
    case 'Alternative':
      return node.elements.some(hasUnboundedQuantifier);
    default:
      return false;
  }
}
