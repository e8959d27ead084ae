import type { CompiledAgents, HookEvent } from '../types';
import { isMainSession, resolveAgent } from './agent';

const agents: CompiledAgents = {
  identity: ['agent_type', 'teammate_name'],
  stripPrefixes: ['ai-team:'],
  main: 'hannibal',
  roles: {},
  known: [],
};

function event(fields: Record<string, unknown>): HookEvent {
  return { hook_event_name: 'PreToolUse', ...fields };
}

describe('resolveAgent', () => {
  test.each<[string, Record<string, unknown>, Partial<CompiledAgents>, string | null]>([
    ['strips the prefix', { agent_type: 'ai-team:murdock' }, {}, 'murdock'],
    ['plain name', { agent_type: 'murdock' }, {}, 'murdock'],
    ['teammate_name when agent_type is absent', { teammate_name: 'ba' }, {}, 'ba'],
    ['teammate_name when agent_type is empty', { agent_type: '', teammate_name: 'ba' }, {}, 'ba'],
    ['agent_type wins over teammate_name', { agent_type: 'amy', teammate_name: 'ba' }, {}, 'amy'],
    ['identity order is configurable', { agent_type: 'amy', teammate_name: 'ba' }, { identity: ['teammate_name', 'agent_type'] }, 'ba'],
    ['fields outside identity are ignored', { session_id: 'x1', teammate: 'ba' }, {}, 'hannibal'],
    // Claude Code's internal subagents send agent_type "": a subagent all the same, never the main session
    ['an agent_id with no identity is a subagent the policy cannot name', { agent_id: 'a1f3', agent_type: '' }, {}, null],
    ['an empty agent_id is no agent', { agent_id: '' }, {}, 'hannibal'],
    ['no identity field: main session', {}, {}, 'hannibal'],
    ['no identity field and no main: null', {}, { main: null }, null],
    ['non-string identity is skipped', { agent_type: null, teammate_name: 7 }, {}, 'hannibal'],
    ['unknown agents keep their name', { agent_type: 'Explore' }, {}, 'Explore'],
    ['a foreign prefix is kept', { agent_type: 'plugin:agent' }, {}, 'plugin:agent'],
    ['several prefixes: the first that matches', { agent_type: 'x:y:lynch' }, { stripPrefixes: ['zz:', 'x:y:'] }, 'lynch'],
    ['a name that is only the prefix falls through', { agent_type: 'ai-team:', teammate_name: 'ba' }, {}, 'ba'],
  ])('%s', (_name, fields, override, expected) => {
    expect(resolveAgent({ ...agents, ...override }, event(fields))).toBe(expected);
  });
});

describe('isMainSession', () => {
  test.each<[Record<string, unknown>, boolean]>([
    [{}, true],
    [{ agent_type: 'murdock', agent_id: 'a1' }, false],
    [{ agent_type: '', agent_id: 'a1' }, false],
    [{ teammate_name: 'ba' }, false],
  ])('%j: %s', (fields, expected) => {
    expect(isMainSession(agents, event(fields))).toBe(expected);
  });
});
