import { buildPolicy } from '../build-policy';
import { memoryReader } from '../load/memory-reader';
import { evaluate } from '../evaluate';
import { renderResponse } from '../render';
import { compiledPolicy, compiledRule, toolFilter } from '../../test/support/compiled';
import { memoryContext } from '../../test/support/memory-facts';
import type { CompiledPolicy } from '../types';
import { withoutAgentRules } from './identity';
import { adapter as gemini } from './gemini/adapter';

const POLICY = `version: 1
agents: { main: lead, roles: { reviewer: [lynch] } }
rules:
  - id: reviewer-writes-nothing
    on: PreToolUse
    tools: Write|Bash
    agents: reviewer
    deny: "{{agent}} writes nothing"
  - id: lead-no-src
    on: PreToolUse
    tools: Write
    agents: lead
    paths: { deny: ["src/**"] }
    deny: "the lead delegates src/"
  - id: no-env
    on: PreToolUse
    tools: Write
    paths: { deny: [".env"] }
    deny: "no .env"
`;

function policy(text = POLICY, onError: 'open' | 'closed' = 'open'): CompiledPolicy {
  const built = buildPolicy(['p.yaml'], memoryReader({ 'p.yaml': text.replace('version: 1', `version: 1\nsettings: { on_error: ${onError} }`) }));
  return built.policy as CompiledPolicy;
}

const write = (file: string) => ({ hook_event_name: 'PreToolUse', cwd: '/proj', tool_name: 'Write', tool_input: { file_path: file, content: '' } });

describe('withoutAgentRules: a host that names no acting agent', () => {
  it('sets every rule that names agents aside, and keeps the others', () => {
    const judged = withoutAgentRules(policy(), 'Gemini CLI');
    expect(judged.rules.map((r) => r.id)).toEqual(['no-env']);
    expect(judged.broken?.map((b) => [b.name, b.diagnostics[0].code])).toEqual([['reviewer-writes-nothing', 'host-no-identity'], ['lead-no-src', 'host-no-identity']]);
  });

  it('answers an event those rules could have judged per on_error, visibly: open lets it through and says so', async () => {
    const judged = withoutAgentRules(policy(), 'Gemini CLI');
    const d = await evaluate(judged, write('src/a.ts'), memoryContext({}));
    const out = JSON.parse(renderResponse(d, { onError: 'open', host: gemini }).stdout);
    expect(out.decision).toBeUndefined();
    expect(out.systemMessage).toContain('rule "lead-no-src" names agents (lead), and Gemini CLI names no acting agent');
    expect(out.systemMessage).toContain('failing open');
  });

  it('closed refuses it, and says why', async () => {
    const judged = withoutAgentRules(policy(POLICY, 'closed'), 'Gemini CLI');
    const d = await evaluate(judged, write('src/a.ts'), memoryContext({}));
    const out = JSON.parse(renderResponse(d, { onError: 'closed', host: gemini }).stdout);
    expect(out.decision).toBe('deny');
    expect(out.reason).toContain('Gemini CLI names no acting agent');
  });

  it('still denies what rules without agents deny', async () => {
    const d = await evaluate(withoutAgentRules(policy(), 'Gemini CLI'), write('.env'), memoryContext({}));
    expect(d.outcome).toBe('deny');
  });

  it('keeps self-protection at its strictest: the rule for agents holds for everyone, the main session\'s openings go', () => {
    const forAgents = compiledRule({ id: 'hookpolicy-self-protection', actors: 'agents', tools: toolFilter('Write') });
    const forMain = compiledRule({ id: 'hookpolicy-self-protection-main', actors: 'main', tools: toolFilter('Write') });
    const judged = withoutAgentRules(compiledPolicy([forAgents, forMain]), 'Gemini CLI');
    expect(judged.rules.map((r) => [r.id, r.actors])).toEqual([['hookpolicy-self-protection', undefined]]);
    expect(judged.broken ?? []).toEqual([]);
  });

  it('returns a policy without such rules as it is', () => {
    const p = policy('version: 1\nrules:\n  - { id: a, on: Stop, block: x }\n');
    expect(withoutAgentRules(p, 'Gemini CLI')).toBe(p);
  });
});
