/**
 * Which decisions the decision log records (`settings.log.record`), decided from the
 * Decision alone: the evaluator asks it before it analyses a shell command for the
 * record's paths, the host before it writes a line or queues a webhook record.
 */
import type { CompiledPolicy, Decision, RuleHit } from '../types';

/**
 * The categories a decision falls in, as named by `log.record`; rules with `log: false`
 * do not count. Empty when only such rules fired.
 * @example logCategories(denyDecision, policy) // ['deny', 'warn']
 */
export function logCategories(decision: Decision, policy: CompiledPolicy): string[] {
  const hits = loggedHits(decision.hits, policy);
  const decided = loggedHits(decision.decidedBy, policy);
  const categories: string[] = [];
  if (decision.outcome !== 'none' && decided.length > 0) categories.push(decision.outcome);
  if (hits.some((h) => h.outcome === 'warn')) categories.push('warn');
  if (hits.some((h) => h.outcome === 'context')) categories.push('context');
  if (decision.bypass) categories.push('bypass');
  if (decision.errors.some((e) => e.severity === 'error')) categories.push('error');
  const silent = decision.hits.length > 0 || decision.outcome !== 'none';
  if (categories.length === 0 && !silent) categories.push('none');
  return categories;
}

/**
 * True when the policy logs somewhere (`log.file`, `log.webhook` or `log.otlp`; `elsewhere`:
 * the host exports anyway, as OTEL_EXPORTER_OTLP_* asks) and `log.record` asks for this decision.
 * @example shouldRecord(denyDecision, policy) // true with the default log.record
 */
export function shouldRecord(decision: Decision, policy: CompiledPolicy, elsewhere = false): boolean {
  const log = policy.settings.log;
  if (!log.file && !log.webhook && !log.otlp && !elsewhere) return false;
  return logCategories(decision, policy).some((c) => log.record.includes(c));
}

/**
 * The hits of rules that do not say `log: false`.
 * @example loggedHits(decision.hits, policy).map((h) => h.id) // ['no-env-writes']
 */
export function loggedHits(hits: readonly RuleHit[], policy: CompiledPolicy): RuleHit[] {
  const silent = new Set(policy.rules.filter((r) => r.log === false).map((r) => r.id));
  return hits.filter((h) => !silent.has(h.id));
}
