import { memoryContext } from '../../test/support/memory-facts';
import { buildPolicy } from '../build-policy';
import { evaluate } from '../evaluate';
import { memoryReader } from '../load';
import { renderResponse } from '../render';
import type { CompiledPolicy, HookEvent } from '../types';
import { brokenReports } from './broken';

// A team policy whose first rule says `tool:` for `tools:`, next to a pack like security-guard.
const TEAM = [
  'version: 1',
  'include: [guard]',
  'rules:',
  '  - id: no-src-writes',
  '    on: PreToolUse',
  '    tool: Write',
  '    paths: { deny: ["src/**"] }',
  '    deny: "not in src"',
  '  - id: tests-pass',
  '    on: Stop',
  '    block: "run the tests"',
  '',
].join('\n');
const GUARD = 'version: 1\nrules:\n  - { id: guard-env, on: PreToolUse, tools: Write|Edit, paths: { deny: [".env"] }, deny: "no secrets" }\n';
const BROKEN = 'hookpolicy: team.yaml:6:5: error schema-unknown-key: Unknown key "tool" in rules[0] (did you mean "tools"?)';

function policyOf(team: string): CompiledPolicy {
  const built = buildPolicy(['team.yaml'], memoryReader({ 'team.yaml': team, 'guard.yaml': GUARD }, { guard: 'guard.yaml' }));
  if (!built.policy) throw new Error('no policy');
  return built.policy;
}

const write = (file: string): HookEvent => ({ hook_event_name: 'PreToolUse', tool_name: 'Write', tool_input: { file_path: file } });

async function answer(event: HookEvent, onError: 'open' | 'closed', team = TEAM) {
  const decision = await evaluate(policyOf(team), event, memoryContext({}));
  return { decision, response: renderResponse(decision, { onError }), json: (r: string) => (r === '' ? null : JSON.parse(r)) };
}

describe('a broken rule next to valid ones', () => {
  test.each(['open', 'closed'] as const)('the valid rules still deny (on_error %s); the broken rule is named', async (mode) => {
    const { decision, response } = await answer(write('.env'), mode);
    expect(decision.outcome).toBe('deny');
    expect(decision.decidedBy.map((h) => h.id)).toEqual(['guard-env']);
    const out = JSON.parse(response.stdout);
    expect(out.hookSpecificOutput.permissionDecision).toBe('deny');
    expect(out.systemMessage).toBe(`${BROKEN} (rule "no-src-writes" was left out: failing ${mode})`);
    expect(response.stderr).toBe(`${out.systemMessage}\n`);
  });

  test('on_error open: an event the broken rule could have judged goes through, with the warning', async () => {
    const { decision, response } = await answer(write('src/a.ts'), 'open');
    expect(decision.outcome).toBe('none');
    expect(decision.broken).toEqual([{ kind: 'rule', name: 'no-src-writes', covers: true, diagnostics: decision.errors }]);
    expect(JSON.parse(response.stdout)).toEqual({ systemMessage: `${BROKEN} (rule "no-src-writes" was left out: failing open)` });
  });

  test('on_error closed: an event the broken rule could have judged is refused, the diagnostic as reason', async () => {
    const { response } = await answer(write('src/a.ts'), 'closed');
    const text = `${BROKEN} (rule "no-src-writes" was left out: failing closed)`;
    expect(JSON.parse(response.stdout)).toEqual({
      systemMessage: text,
      hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: text },
    });
  });

  test.each(['open', 'closed'] as const)('on_error %s: an event it could not have judged is decided by the valid rules alone', async (mode) => {
    const { decision, response } = await answer({ hook_event_name: 'Stop' }, mode);
    expect(decision.broken?.map((b) => b.covers)).toEqual([false]);
    const text = `${BROKEN} (rule "no-src-writes" was left out; it could not have judged this event)`;
    expect(JSON.parse(response.stdout)).toEqual({ decision: 'block', reason: 'run the tests', systemMessage: text });
    expect(response.stderr).toBe(`${text}\n`);
  });

  test('the diagnostics are in the decision\'s errors on every event, for the decision log', async () => {
    for (const event of [write('src/a.ts'), { hook_event_name: 'Stop' }, { hook_event_name: 'SessionEnd' }, { hook_event_name: 'NoSuchEvent' }]) {
      const { decision } = await answer(event, 'open');
      expect(decision.errors.map((d) => `${d.code} ${d.file}:${d.line}:${d.column}`)).toContain('schema-unknown-key team.yaml:6:5');
    }
  });

  test('on_error closed on an event that cannot be blocked: said, nothing blocked', async () => {
    const team = TEAM.replace('    on: PreToolUse', '    on: [PreToolUse, SessionEnd]');
    const { response } = await answer({ hook_event_name: 'SessionEnd' }, 'closed', team);
    expect(response).toEqual({ stdout: '', stderr: `${BROKEN} (rule "no-src-writes" was left out: failing closed, but SessionEnd cannot be blocked)\n`, exitCode: 0 });
  });

  test('on_error closed on an event that blocks by exit code: exit 2 with the message once', async () => {
    const team = TEAM.replace('    on: PreToolUse', '    on: [PreToolUse, TeammateIdle]');
    const { response } = await answer({ hook_event_name: 'TeammateIdle' }, 'closed', team);
    expect(response).toEqual({ stdout: '', stderr: `${BROKEN} (rule "no-src-writes" was left out: failing closed)\n`, exitCode: 2 });
  });

  test('a file left out could have judged every event', async () => {
    const built = buildPolicy(['team.yaml'], memoryReader({
      'team.yaml': 'version: 1\ninclude: [guard, ./extra.yaml]\n',
      'extra.yaml': 'version: 1\nrulez: []\n',
      'guard.yaml': GUARD,
    }, { guard: 'guard.yaml' }));
    const decision = await evaluate(built.policy!, { hook_event_name: 'Stop' }, memoryContext({}));
    const text = 'hookpolicy: extra.yaml:2:1: error schema-unknown-key: Unknown key "rulez" at the top level (did you mean "rules"?) (this file was left out: failing closed)';
    expect(JSON.parse(renderResponse(decision, { onError: 'closed' }).stdout)).toEqual({ decision: 'block', reason: text, systemMessage: text });
  });
});

describe('brokenReports', () => {
  const broken = (events: string[] | null, tools: string[] | null, patterns: string[] = []) => ({
    kind: 'rule' as const,
    name: 'r',
    source: { file: 'p.yaml', line: 1, column: 1 },
    events,
    tools: tools === null ? null : { names: tools, patterns: patterns.map((p) => ({ source: p, flags: '' })) },
    diagnostics: [],
  });

  test.each([
    ['its event, any tool', broken(['PreToolUse'], null), 'PreToolUse', 'Bash', true],
    ['another event', broken(['PreToolUse'], null), 'Stop', null, false],
    ['any event (on unreadable)', broken(null, null), 'Stop', null, true],
    ['its tool', broken(['PreToolUse'], ['Write']), 'PreToolUse', 'Write', true],
    ['another tool', broken(['PreToolUse'], ['Write']), 'PreToolUse', 'Bash', false],
    ['a tool its pattern matches', broken(['PreToolUse'], [], ['^mcp__.*$']), 'PreToolUse', 'mcp__gh__x', true],
    ['tools, on an event without a tool', broken(null, ['Write']), 'Stop', null, false],
    ['an event the runner does not know', broken(null, null), null, null, false],
  ])('%s', (_name, b, event, tool, covers) => {
    expect(brokenReports([b], event, tool).map((r) => r.covers)).toEqual([covers]);
  });
});
