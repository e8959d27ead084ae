import { buildRules, compiled, where } from '../compile/test-support';
import { sectionsDigest } from '../memory/sections';
import { storeContext } from '../../test/support/memory-store';
import { evaluate } from '../evaluate';
import type { HookEvent } from '../types';

const TEAM = '# Team memory\n\n## Lead\nplan: v2\n\n## researcher-1\nfound: bind pooling\n\n## implementer-1\nwip\n';
const edit = (agent: string, oldString: string): HookEvent => ({
  hook_event_name: 'PreToolUse', session_id: 's1', cwd: '/p', agent_type: agent, tool_name: 'Edit',
  tool_input: { file_path: '/p/TEAM-MEMORY.md', old_string: oldString, new_string: 'x' },
});

describe('section functions in expressions', () => {
  const ownSection = compiled(buildRules(
    '  - id: own-section',
    '    on: PreToolUse',
    '    tools: Edit',
    '    let: { tm: { file: TEAM-MEMORY.md } }',
    '    when: "$section_of($tm, tool_input.old_string) != $agent"',
    '    deny: "{{agent}} edits only its own section"',
  ));
  const files = { 'TEAM-MEMORY.md': { content: TEAM } };

  test('$section_of in when: an edit outside the agent\'s own section is denied, inside it is not', async () => {
    expect((await evaluate(ownSection, edit('researcher-1', 'found: bind pooling'), storeContext([], { files }))).outcome).toBe('none');
    const other = await evaluate(ownSection, edit('researcher-1', 'wip'), storeContext([], { files }));
    expect(other.outcome).toBe('deny');
    expect(other.reason).toBe('researcher-1 edits only its own section');
    // Across a heading: no one section holds it.
    expect((await evaluate(ownSection, edit('researcher-1', 'pooling\n\n## implementer-1'), storeContext([], { files }))).outcome).toBe('deny');
  });

  test('an expr let sees the lets before it: $sections_delta against the stored digest', async () => {
    const policy = compiled(buildRules(
      '  - id: delta',
      '    on: SubagentStart',
      '    let:',
      '      gc: { file: gc.md }',
      '      seen: { last: global-context, scope: agent }',
      '      delta: { expr: "$sections_delta($seen, $gc)" }',
      '    when: "$delta != \'\'"',
      '    context: "Changed since you last looked:\\n{{delta}}"',
    ));
    const event: HookEvent = { hook_event_name: 'SubagentStart', session_id: 's1', agent_type: 'ba', agent_id: 'a1' };
    const digest = sectionsDigest('## Scope\nlogin\n## Risks\nnone');
    const seen = [{ kind: 'global-context', text: digest, agent: 'ba' }];
    const d = await evaluate(policy, event, storeContext(seen, { files: { 'gc.md': { content: '## Scope\nlogin and logout\n## API\nPOST /login' } } }));
    expect(d.contexts).toEqual(['Changed since you last looked:\n- CHANGED: Scope\n  login and logout\n- ADDED: API\n  POST /login\n- REMOVED: Risks']);
    const same = await evaluate(policy, event, storeContext(seen, { files: { 'gc.md': { content: '## Scope\nlogin\n## Risks\nnone' } } }));
    expect(same.contexts).toEqual([]);
  });

  test('a let cannot be named like one of them', () => {
    const { diagnostics } = buildRules('  - id: r', '    on: Stop', '    let: { section_of: { expr: "1" } }', '    context: x');
    expect(diagnostics.filter((d) => d.code === 'let-name-reserved').map(where)).toEqual([expect.stringMatching(/^let-name-reserved .+:\d+:\d+$/)]);
  });
});
