/**
 * Rule coverage across a test run: which rules some case made a candidate (exercised) and
 * which some case made fire (decided). Rules are keyed by their source file and id, so a
 * pack included by several suites counts once.
 */
import type { CompiledPolicy, Decision } from '../types';
import type { CoverageReport, RuleCoverage } from './types';
import { isBuiltInRule } from '../self-protection';

/** Accumulated coverage; create with createCoverage(). */
export interface CoverageTally {
  rules: Map<string, RuleCoverage>;
}

export function createCoverage(): CoverageTally {
  return { rules: new Map() };
}

function keyOf(file: string, id: string): string {
  return `${file}\u0000${id}`;
}

/**
 * Registers every rule of a policy (so a rule no case reaches still shows up), but the
 * built-in ones, which the team's suites owe no case.
 * @example addPolicyRules(tally, policy) // tally.rules.size === the team's rules
 */
export function addPolicyRules(tally: CoverageTally, policy: CompiledPolicy): void {
  for (const rule of policy.rules) {
    if (isBuiltInRule(rule)) continue;
    const key = keyOf(rule.source.file, rule.id);
    if (!tally.rules.has(key)) tally.rules.set(key, { id: rule.id, source: rule.source, exercised: 0, decided: 0 });
  }
}

/**
 * Counts one case: rules in the trace were exercised, rules that fired decided (a rule
 * that only records fires without a hit).
 * @example recordDecision(tally, decision)
 */
export function recordDecision(tally: CoverageTally, decision: Decision): void {
  const seen = new Set<string>();
  for (const t of decision.trace) {
    const key = keyOf(t.source.file, t.id);
    if (seen.has(key)) continue;
    seen.add(key);
    const entry = tally.rules.get(key);
    if (entry) entry.exercised++;
  }
  const fired = new Set<string>();
  const firedTraces = decision.trace.filter((t) => t.status === 'fired');
  for (const hit of [...decision.decidedBy, ...decision.hits, ...firedTraces]) {
    const key = keyOf(hit.source.file, hit.id);
    if (fired.has(key)) continue;
    fired.add(key);
    const entry = tally.rules.get(key);
    if (entry) entry.decided++;
  }
}

/**
 * The report: every rule in policy order per file, the count that decided and the percent.
 * @example summarizeCoverage(tally) // { rules: [...], total: 8, decided: 6, percent: 75 }
 */
export function summarizeCoverage(tally: CoverageTally): CoverageReport {
  const rules = [...tally.rules.values()].map((r) => ({ ...r }));
  const total = rules.length;
  const decided = rules.filter((r) => r.decided > 0).length;
  const percent = total === 0 ? 100 : Math.floor((decided / total) * 10000) / 100;
  return { rules, total, decided, percent };
}

/** Rules no case made a candidate. */
export function unexercisedRules(report: CoverageReport): RuleCoverage[] {
  return report.rules.filter((r) => r.exercised === 0);
}

/** Rules that never fired in any case. */
export function undecidedRules(report: CoverageReport): RuleCoverage[] {
  return report.rules.filter((r) => r.decided === 0);
}
