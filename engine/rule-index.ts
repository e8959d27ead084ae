/**
 * The rule index answers "which rules can apply to this event and tool" without scanning
 * every rule: rules are bucketed by event, then by exact tool name; rules with no tool
 * filter are kept in their own list, and rules with wildcard tool patterns by the literal
 * start of their patterns, so that `mcp__github__*` is not even a candidate for `Bash`.
 * A rule with `prompts` is a candidate for UserPromptSubmit only.
 */
import type { CompiledRule, RegexSource, RuleIndex } from './types';

/** The one event whose prompts a rule's `prompts` tells apart. */
const PROMPT_EVENT = 'UserPromptSubmit';

/** Builds the index for rules in policy order. */
export function buildRuleIndex(rules: readonly CompiledRule[]): RuleIndex {
  const byEvent: RuleIndex['byEvent'] = {};
  rules.forEach((rule, i) => {
    for (const event of rule.events) {
      if (rule.prompts && event !== PROMPT_EVENT) continue;
      const bucket = (byEvent[event] ??= { byTool: {}, patterned: [], byPrefix: {}, anyTool: [] });
      if (!rule.tools) {
        bucket.anyTool.push(i);
        continue;
      }
      for (const name of rule.tools.names) (bucket.byTool[name] ??= []).push(i);
      if (rule.tools.patterns.length === 0) continue;
      bucket.patterned.push(i);
      for (const pattern of rule.tools.patterns) {
        const list = ((bucket.byPrefix ??= {})[literalPrefix(pattern)] ??= []);
        if (list[list.length - 1] !== i) list.push(i);
      }
    }
  });
  return { byEvent };
}

/**
 * Indices of the rules that may apply to `event` and `tool`, ascending (= policy order).
 * Patterned rules are candidates only when the tool name starts with their prefix; the
 * evaluator still tests their patterns.
 * @example candidateRules(index, 'PreToolUse', 'Write') // [0, 3, 7]
 */
export function candidateRules(index: RuleIndex, event: string, tool: string | null): readonly number[] {
  let merged = mergedLists.get(index);
  if (merged === undefined) mergedLists.set(index, (merged = new Map()));
  const key = tool === null ? event : `${event}\0${tool}`;
  let found = merged.get(key);
  if (found === undefined) {
    found = findCandidates(index, event, tool);
    if (merged.size >= MAX_MERGED) merged.clear();
    merged.set(key, found);
  }
  return found;
}

/** (event, tool) pairs remembered per index before the table starts over (tool names are open-ended: MCP). */
const MAX_MERGED = 64;
// Merging the lists (a Set and a sort of ~300 numbers at a Write on the 1,000-rule policy,
// ~10% of its evaluation) is done once per index, event and tool. Nothing changes an index.
const mergedLists = new WeakMap<RuleIndex, Map<string, readonly number[]>>();

function findCandidates(index: RuleIndex, event: string, tool: string | null): readonly number[] {
  const bucket = index.byEvent[event];
  if (!bucket) return [];
  const parts = [bucket.anyTool];
  if (tool !== null) {
    if (Object.prototype.hasOwnProperty.call(bucket.byTool, tool)) parts.push(bucket.byTool[tool]);
    if (!bucket.byPrefix) parts.push(bucket.patterned);
    // One look-up per prefix of the name: the cost follows the name's length, not the number of patterns.
    else for (let k = 0; k <= tool.length; k++) {
      const key = tool.slice(0, k);
      if (Object.prototype.hasOwnProperty.call(bucket.byPrefix, key)) parts.push(bucket.byPrefix[key]);
    }
  }
  const nonEmpty = parts.filter((p) => p.length > 0);
  if (nonEmpty.length === 0) return [];
  if (nonEmpty.length === 1) return nonEmpty[0];
  return [...new Set(nonEmpty.flat())].sort((a, b) => a - b);
}

/**
 * The literal text every match of an anchored pattern starts with: what wildcardRegex
 * writes before its first wildcard. Conservative: '' for a pattern that is not anchored
 * (or anchored per line), ignores case, or has an alternation, and the text stops at the first construct that is
 * not a plain character (a quantifier also takes back the character it applies to).
 * @example literalPrefix({ source: '^mcp__github__.*$', flags: '' }) // 'mcp__github__'
 */
export function literalPrefix(pattern: RegexSource): string {
  const s = pattern.source;
  if (!s.startsWith('^') || pattern.flags.includes('i') || pattern.flags.includes('m') || hasUnescaped(s, '|')) return '';
  let out = '';
  for (let i = 1; i < s.length; i++) {
    const c = s[i];
    if (c === '\\') {
      const next = s[i + 1];
      // \d, \w, \b, \1, \u... are classes, assertions or codes, not the character itself.
      if (next === undefined || isAlphanumeric(next)) break;
      out += next;
      i++;
    } else if ('.[](){}?*+^$'.includes(c)) {
      if ('?*+{'.includes(c)) out = out.slice(0, -1);
      break;
    } else {
      out += c;
    }
  }
  return out;
}

function hasUnescaped(source: string, char: string): boolean {
  for (let i = 0; i < source.length; i++) {
    if (source[i] === '\\') i++;
    else if (source[i] === char) return true;
  }
  return false;
}

function isAlphanumeric(c: string): boolean {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}
