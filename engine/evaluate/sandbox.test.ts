import { yamlBlocks } from '../../test/support/doc-sections';
import { memoryContext } from '../../test/support/memory-facts';
import { buildPolicy } from '../build-policy';
import { evaluate } from '../evaluate';
import { memoryReader } from '../load';
import { renderResponse } from '../render';
import type { CompiledPolicy, EvaluationContext, HookEvent } from '../types';

const POLICY = `version: 1
agents: { roles: { tester: [murdock] } }
rules:
  - id: lane
    on: PreToolUse
    tools: Bash|PowerShell
    agents: tester
    unparsable: sandbox
    paths: { allow: ["tests/**"] }
    deny: "{{agent}} writes tests only, not {{path}}"
  - id: asks-unknown
    on: PreToolUse
    tools: Bash
    agents: tester
    command: ['^make\\b']
    ask: "make? really?"
  - id: no-rm
    on: PreToolUse
    tools: Bash
    command: ['\\brm -rf /']
    deny: "no"
`;

function build(): CompiledPolicy {
  const result = buildPolicy(['p.yaml'], memoryReader({ 'p.yaml': POLICY }));
  expect(result.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  return result.policy!;
}

const policy = build();
const bash = (command: string, tool = 'Bash'): HookEvent => ({
  hook_event_name: 'PreToolUse', cwd: '/proj', session_id: 's', agent_type: 'murdock', agent_id: 'a1', tool_name: tool,
  tool_input: { command, description: 'run it', timeout: 60000 },
});
const launcher: NonNullable<EvaluationContext['sandbox']> = (command, _event, rules) => `sandboxed[${rules.join(',')}] ${command}`;
const run = (event: HookEvent, sandbox: EvaluationContext['sandbox'] | 'none' = launcher) => evaluate(policy, event, { ...memoryContext({}), sandbox: sandbox === 'none' ? undefined : sandbox });

describe('unparsable: sandbox', () => {
  test('a command whose writes cannot be known runs in the sandbox: no permission decision, the input rewritten with every other field kept', async () => {
    const d = await run(bash('npm test'));
    expect(d.outcome).toBe('none');
    expect(d.sandbox).toEqual({ rules: ['lane'], reason: expect.stringContaining('Cannot tell which files this Bash command writes'), input: { command: 'sandboxed[lane] npm test', description: 'run it', timeout: 60000 } });
    const out = renderResponse(d, { onError: 'open' });
    expect(JSON.parse(out.stdout)).toEqual({ hookSpecificOutput: { hookEventName: 'PreToolUse', updatedInput: { command: 'sandboxed[lane] npm test', description: 'run it', timeout: 60000 } } });
    expect(out).toMatchObject({ stderr: '', exitCode: 0 });
  });

  test('a write the analysis knows is judged as ever: out of the lane is denied, not sandboxed', async () => {
    const d = await run(bash('npm test > src/out.txt'));
    expect(d.outcome).toBe('deny');
    expect(d.sandbox).toBeUndefined();
  });

  test('a command that writes only in the lane is left alone', async () => {
    expect(await run(bash('echo x > tests/a.test.ts'))).toMatchObject({ outcome: 'none' });
    expect((await run(bash('echo x > tests/a.test.ts'))).sandbox).toBeUndefined();
  });

  test('another rule that asks keeps the ask', async () => {
    const d = await run(bash('make build'));
    expect(d.outcome).toBe('ask');
    expect(d.decidedBy.map((h) => h.id)).toEqual(['lane', 'asks-unknown']);
    expect(d.sandbox).toBeUndefined();
  });

  test('a deny wins', async () => {
    expect((await run(bash('npm test; rm -rf /'))).outcome).toBe('deny');
  });

  test.each<[string, HookEvent, EvaluationContext['sandbox'] | 'none']>([
    ['no sandbox on this machine', bash('npm test'), () => null],
    ['no launcher at all', bash('npm test'), 'none'],
    ['PowerShell is not parsed, nor sandboxed', bash('npm test', 'PowerShell'), launcher],
  ])('%s: the rule asks', async (_name, event, sandbox) => {
    const d = await run(event, sandbox);
    expect(d.outcome).toBe('ask');
    expect(d.sandbox).toBeUndefined();
  });
});

describe('docs/paths.md, The sandbox', () => {
  const blocks = yamlBlocks('paths.md', '### The sandbox');
  const asPolicy = (block: string) => (block.startsWith('- ') ? `version: 1\nagents: { roles: { tester: [murdock] } }\nrules:\n${block.replace(/^/gm, '  ')}` : `version: 1\n${block}`);
  const built = blocks.map((block) => buildPolicy(['p.yaml'], memoryReader({ 'p.yaml': asPolicy(block) })));

  test('its examples build without an error', () => {
    expect(blocks).toHaveLength(2);
    for (const b of built) expect(b.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  });

  test('the rule sandboxes the tester\'s test run and denies a write it can see', async () => {
    const rule = built[0].policy!;
    expect((await evaluate(rule, bash('npm test'), { ...memoryContext({}), sandbox: launcher })).sandbox?.rules).toEqual(['tester-writes-tests-only']);
    expect((await evaluate(rule, bash('npm test > src/out.txt'), { ...memoryContext({}), sandbox: launcher })).outcome).toBe('deny');
  });

  test('the keep list is a setting', () => {
    expect(built[1].policy!.settings.sandboxKeep).toContain('target/**');
  });
});
