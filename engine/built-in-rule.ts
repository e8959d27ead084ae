/**
 * How a built-in rule (the engine's own, not the team's) is told apart: it has no source
 * position. Its own module, so the evaluator can ask without loading how the rules are built.
 */
import type { CompiledRule } from './types';

/** The `source.file` of every built-in rule. */
export const BUILT_IN_SOURCE = '(built-in)';

/**
 * True for the built-in rules (not the team's): they have no source position and no test
 * suite owes them a case.
 * @example isBuiltInRule({ source: { file: '(built-in)', line: 0, column: 0 } }) // true
 */
export function isBuiltInRule(rule: Pick<CompiledRule, 'source'>): boolean {
  return rule.source.file === BUILT_IN_SOURCE;
}
