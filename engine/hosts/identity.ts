/**
 * A host whose events name no acting agent (Gemini CLI): a rule that names agents cannot
 * tell a subagent's call from the main session's, so it neither passes nor blocks in
 * silence. It is set aside as a broken rule is (evaluate/broken.ts): an event it could have
 * judged is answered per the policy's on_error, visibly (stderr, systemMessage where shown),
 * and counted by the fail-open counter. Lint says so per host beforehand (host-no-identity).
 *
 * hookpolicy's own self-protection keeps its strictest form: with main-session openings it
 * is two built-in rules, one for agents and one, with more openings, for the main session;
 * where nobody is named, the one for agents holds for every call.
 */
import { diagnostic } from '../diagnostics';
import { buildRuleIndex } from '../rule-index';
import type { BrokenRule, CompiledPolicy, CompiledRule } from '../types';

/**
 * The policy as a host without agent identity can apply it.
 * @example withoutAgentRules(policy, 'Gemini CLI').broken?.map((b) => b.name) // ['reviewer-writes-nothing']
 */
export function withoutAgentRules(policy: CompiledPolicy, hostTitle: string): CompiledPolicy {
  const rules: CompiledRule[] = [];
  const broken: BrokenRule[] = [];
  let changed = false;
  for (const rule of policy.rules) {
    if (rule.actors) changed = true;
    if (rule.actors === 'main') continue;
    if (rule.actors === 'agents') {
      const { actors: _everyone, ...forAll } = rule;
      rules.push(forAll);
    } else if (rule.agents) {
      broken.push({
        kind: 'rule',
        name: rule.id,
        source: rule.source,
        events: rule.events,
        tools: rule.tools,
        diagnostics: [diagnostic('host-no-identity',
          `rule "${rule.id}" names agents (${rule.agents.join(', ')}), and ${hostTitle} names no acting agent: it cannot judge this event`,
          rule.source)],
        onlyWhereItJudges: true,
      });
    } else {
      rules.push(rule);
    }
  }
  if (broken.length === 0 && !changed) return policy;
  return { ...policy, rules, index: buildRuleIndex(rules), broken: [...(policy.broken ?? []), ...broken] };
}
