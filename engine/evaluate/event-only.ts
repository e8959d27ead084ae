/**
 * Rules that fail on what the event names alone: its tool, its agent, whether it is the
 * main session. Their not-matched result is the same at every event with the same event
 * name, tool and agent, so it is worked out once per policy and such key, and reused: a
 * Write on a policy of 1,000 rules has ~300 candidates, most of them for other agents.
 */
import { isBuiltInRule } from '../built-in-rule';
import type { CompiledRule, RuleIndex, RuleTrace } from '../types';
import { checkAgents, checkTools } from './conditions';
import { notMatched, type RuleResult } from './rule';
import type { EventScope } from './scope';

/** Keys remembered per policy before the table starts over (tool names are open-ended: MCP). */
const MAX_KEYS = 64;

/** A key's table: each candidate's fixed result, and where each run of plain ones ends. */
export interface EventOnlyTable {
  /** Per candidate (aligned with the candidates), its not-matched result, or null (evaluate it). */
  results: Array<RuleResult | null>;
  /**
   * Per candidate, where the run of plain fixed results starting there ends (exclusive; the
   * candidate itself when it is not plain). Plain: no bypass switch, not built in, and nothing
   * that makes the evaluator read the clock (lets, require, only_if_exists): such a run is
   * only traced, in one go.
   */
  runEnd: Int32Array;
  /** Per run start, the traces of the run (made when the run is first met): pushed in one call. */
  runTraces: Array<RuleTrace[] | undefined>;
}

const tables = new WeakMap<RuleIndex, Map<string, EventOnlyTable>>();

/**
 * The table of the event's tool, agent and session for these candidates. Rules with
 * `prompts` are never fixed: a prompt's kind is the event's content, not its name.
 * @example eventOnlyFailures(policy.index, policy.rules, candidates, scope).results[0]?.trace.failed // { condition: 'agents', ... }
 */
export function eventOnlyFailures(index: RuleIndex, rules: readonly CompiledRule[], candidates: readonly number[], scope: EventScope): EventOnlyTable {
  let byKey = tables.get(index);
  if (byKey === undefined) tables.set(index, (byKey = new Map()));
  const key = `${scope.eventName}\0${scope.tool ?? '\u0001'}\0${scope.agent ?? '\u0001'}\0${scope.mainSession ? 1 : 0}`;
  let table = byKey.get(key);
  if (table === undefined) {
    table = buildTable(rules, candidates, scope);
    if (byKey.size >= MAX_KEYS) byKey.clear();
    byKey.set(key, table);
  }
  return table;
}

function buildTable(rules: readonly CompiledRule[], candidates: readonly number[], scope: EventScope): EventOnlyTable {
  const results = candidates.map((k) => fixedResult(rules[k], scope));
  const runEnd = new Int32Array(candidates.length);
  for (let k = candidates.length - 1; k >= 0; k--) {
    const plain = results[k] !== null && isPlain(rules[candidates[k]]);
    runEnd[k] = plain ? (k + 1 < candidates.length && runEnd[k + 1] > k + 1 ? runEnd[k + 1] : k + 1) : k;
  }
  return { results, runEnd, runTraces: new Array(candidates.length) };
}

/**
 * The traces of the run of fixed results that starts at `k` (see runEnd), made once per table.
 * @example runTraces(table, 0).length // table.runEnd[0]
 */
export function runTraces(table: EventOnlyTable, k: number): RuleTrace[] {
  let traces = table.runTraces[k];
  if (traces === undefined) {
    traces = [];
    for (let i = k; i < table.runEnd[k]; i++) traces.push((table.results[i] as RuleResult).trace);
    table.runTraces[k] = traces;
  }
  return traces;
}

function fixedResult(rule: CompiledRule, scope: EventScope): RuleResult | null {
  if (rule.prompts) return null;
  try {
    const failed = checkTools(rule, scope) ?? checkAgents(rule, scope);
    return failed ? notMatched(rule, failed) : null;
  } catch {
    return null; // evaluateRule reports it, as for any rule
  }
}

function isPlain(rule: CompiledRule): boolean {
  return rule.bypasses.length === 0 && !isBuiltInRule(rule) && rule.onlyIfExists === null && rule.lets.length === 0 && rule.requires.length === 0;
}
