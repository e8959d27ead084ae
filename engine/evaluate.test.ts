import { compiledPolicy, compiledRule, matchFilter, pathFilter, toolFilter } from '../test/support/compiled';
import { memoryContext, type MemoryFile } from '../test/support/memory-facts';
import { evaluate, evaluateNow } from './evaluate';
import type { CompiledAgents, CompiledRule, Decision, HookEvent, RuleTrace } from './types';

const agents: Partial<CompiledAgents> = {
  identity: ['agent_type', 'teammate_name'],
  stripPrefixes: ['ai-team:'],
  main: 'hannibal',
};

function pre(tool: string, input: Record<string, unknown>, extra: Record<string, unknown> = {}): HookEvent {
  return { hook_event_name: 'PreToolUse', cwd: '/proj', tool_name: tool, tool_input: input, ...extra };
}

async function run(rules: CompiledRule[], event: HookEvent, files: Record<string, MemoryFile> = {}, env: Record<string, string> = {}) {
  return evaluate(compiledPolicy(rules, {}, agents), event, memoryContext(files, env));
}

function traceOf(trace: RuleTrace): Pick<RuleTrace, 'status' | 'failed'> {
  return trace.failed ? { status: trace.status, failed: trace.failed } : { status: trace.status };
}

describe('conditions', () => {
  const write = pre('Write', { file_path: 'src/app.ts' }, { agent_type: 'ai-team:ba' });
  const bash = pre('Bash', { command: 'rm -rf build' });
  test.each<[string, Partial<CompiledRule>, HookEvent, Pick<RuleTrace, 'status' | 'failed'>]>([
    ['tools: named', { tools: toolFilter('Write|Edit') }, write, { status: 'fired' }],
    ['tools: pattern', { tools: toolFilter('mcp__*__delete_*') }, pre('mcp__gh__delete_repo', {}), { status: 'fired' }],
    ['tools: pattern fails', { tools: toolFilter('Edit|mcp__*_delete') }, pre('mcp__x', {}),
      { status: 'not-matched', failed: { condition: 'tools', detail: 'tool "mcp__x" is not in [Edit, /^mcp__.*_delete$/]' } }],
    ['agents: listed', { agents: ['ba', 'amy'] }, write, { status: 'fired' }],
    ['agents: not listed', { agents: ['murdock'] }, write,
      { status: 'not-matched', failed: { condition: 'agents', detail: 'agent "ba" is not in [murdock]' } }],
    ['agents: main session', { agents: ['hannibal'] }, pre('Write', { file_path: 'a' }), { status: 'fired' }],
    ['match: wildcard', { match: matchFilter({ 'tool_input.url': 'https://*.example.com/*' }) },
      pre('WebFetch', { url: 'https://api.example.com/x' }), { status: 'fired' }],
    ['match: number as text', { match: matchFilter({ 'tool_input.limit': '10' }) }, pre('Read', { limit: 10 }), { status: 'fired' }],
    ['match: boolean as text', { match: matchFilter({ 'tool_input.all': ['false', 'true'] }) }, pre('Read', { all: true }), { status: 'fired' }],
    ['match: value differs', { match: matchFilter({ 'tool_input.url': 'https://*.example.com/*' }) },
      pre('WebFetch', { url: 'http://evil.test/' }),
      { status: 'not-matched', failed: { condition: 'match', detail: 'tool_input.url "http://evil.test/" matches none of /^https://.*\\.example\\.com/.*$/' } }],
    ['match: object field', { match: matchFilter({ tool_input: '*' }) }, pre('Read', {}),
      { status: 'not-matched', failed: { condition: 'match', detail: 'tool_input is missing or not a string, number or boolean' } }],
    ['paths: deny', { paths: pathFilter({ deny: ['src/**'] }) }, write, { status: 'fired' }],
    ['paths: deny misses', { paths: pathFilter({ deny: ['.env', '.env.*'] }) }, write,
      { status: 'not-matched', failed: { condition: 'paths', detail: 'no touched path matches deny [.env, .env.*] (touched: src/app.ts)' } }],
    ['paths: allow list', { paths: pathFilter({ allow: ['**/*.test.*'] }) }, pre('Write', { file_path: 'src/a.test.ts' }),
      { status: 'not-matched', failed: { condition: 'paths', detail: 'no touched path outside the allow list [**/*.test.*] (touched: src/a.test.ts)' } }],
    ['paths: except wins', { paths: pathFilter({ deny: ['src/**'], except: ['src/*.ts'] }) }, write,
      { status: 'not-matched', failed: { condition: 'paths', detail: 'no touched path matches deny [src/**] (touched: src/app.ts)' } }],
    ['paths: no path', { paths: pathFilter({ deny: ['**'] }) }, bash,
      { status: 'not-matched', failed: { condition: 'paths', detail: 'the tool touches no path' } }],
    ['paths: relative glob never matches outside', { paths: pathFilter({ deny: ['**'] }) }, pre('Read', { file_path: '/etc/hosts' }),
      { status: 'not-matched', failed: { condition: 'paths', detail: 'no touched path matches deny [**] (touched: /etc/hosts)' } }],
    ['paths: absolute glob matches outside', { paths: pathFilter({ deny: ['/etc/**'] }) }, pre('Read', { file_path: '/etc/hosts' }), { status: 'fired' }],
    ['paths: allow list catches outside', { paths: pathFilter({ allow: ['**'] }) }, pre('Read', { file_path: '../x' }), { status: 'fired' }],
    ['paths: dot files with **', { paths: pathFilter({ deny: ['**'] }) }, pre('Read', { file_path: '.git/config' }), { status: 'fired' }],
    ['command: matches', { command: [{ source: '\\brm\\s+-rf\\b', flags: '' }] }, bash, { status: 'fired' }],
    ['command: no match', { command: [{ source: '\\bsudo\\b', flags: '' }] }, bash,
      { status: 'not-matched', failed: { condition: 'command', detail: 'the command matches none of /\\bsudo\\b/' } }],
    ['command: no command', { command: [{ source: '.', flags: '' }] }, write,
      { status: 'not-matched', failed: { condition: 'command', detail: 'the event has no command' } }],
    ['when: truthy', { when: 'tool_input.command ~> /rm/ and $agent = "hannibal" and $tool = "Bash"' }, bash, { status: 'fired' }],
    ['when: $paths', { when: '$paths[0] = "src/app.ts"' }, write, { status: 'fired' }],
    ['when: falsy', { when: 'tool_input.command = "ls"' }, bash,
      { status: 'not-matched', failed: { condition: 'when', detail: 'tool_input.command = "ls" gave false' } }],
    ['when: empty array is falsy', { when: '[]' }, bash, { status: 'not-matched', failed: { condition: 'when', detail: '[] gave []' } }],
    ['only_if_exists: folder exists', { onlyIfExists: '.agent/teams/{{team_name}}' }, { ...bash, team_name: 't1' }, { status: 'fired' }],
    ['only_if_exists: absent', { onlyIfExists: '.agent/teams/{{team_name}}' }, { ...bash, team_name: 't2' },
      { status: 'not-matched', failed: { condition: 'only_if_exists', detail: '.agent/teams/t2 does not exist' } }],
    ['only_if_exists: no value', { onlyIfExists: '.agent/teams/{{team_name}}' }, bash,
      { status: 'not-matched', failed: { condition: 'only_if_exists', detail: 'no value for {{team_name}}' } }],
    // `..` would be .agent, which exists: a value never leaves the folder it was meant for
    ['only_if_exists: a value of .. is not a folder name', { onlyIfExists: '.agent/teams/{{team_name}}' }, { ...bash, team_name: '..' },
      { status: 'not-matched', failed: { condition: 'only_if_exists', detail: '{{team_name}} is "..", not one folder name' } }],
    ['only_if_exists: a value holding / is not a folder name', { onlyIfExists: '.agent/teams/{{team_name}}' }, { ...bash, team_name: 't1/../..' },
      { status: 'not-matched', failed: { condition: 'only_if_exists', detail: '{{team_name}} is "t1/../..", not one folder name' } }],
  ])('%s', async (_name, rule, event, expected) => {
    const decision = await run([compiledRule(rule)], event, { '.agent/teams/t1/notes.md': { content: 'x' } });
    expect(decision.trace).toHaveLength(1);
    expect(traceOf(decision.trace[0])).toEqual(expected);
    expect(decision.outcome).toBe(expected.status === 'fired' ? 'deny' : 'none');
  });

  test('conditions are checked in order and stop at the first failure', async () => {
    const rule = compiledRule({ agents: ['murdock'], command: [{ source: 'x', flags: '' }], when: '$error("never evaluated")' });
    const decision = await run([rule], pre('Bash', { command: 'ls' }, { agent_type: 'ba' }));
    expect(decision.trace[0].failed?.condition).toBe('agents');
    expect(decision.errors).toEqual([]);
  });

  test('the hit records the caught paths and {{path}} names the first', async () => {
    const rule = compiledRule({ paths: pathFilter({ deny: ['**/*.key'] }), message: '{{agent}} may not touch {{path}} ({{paths}})' });
    const decision = await run([rule], pre('Edit', { file_path: '/proj/certs/a.key' }, { teammate_name: 'amy' }));
    expect(decision.hits).toEqual([
      { id: rule.id, outcome: 'deny', message: 'amy may not touch certs/a.key (certs/a.key)', source: rule.source, paths: ['certs/a.key'] },
    ]);
  });
});

describe('combining outcomes', () => {
  const ask = compiledRule({ outcome: 'ask', message: 'ask {{rule}}', id: 'ask' });
  const allow = compiledRule({ outcome: 'allow', message: 'allowed', id: 'allow' });
  const deny1 = compiledRule({ outcome: 'deny', message: 'no 1', id: 'deny1' });
  const block = compiledRule({ outcome: 'block', message: 'no 2', id: 'block' });
  const ctx1 = compiledRule({ outcome: 'context', message: 'first context', id: 'ctx1' });
  const warn = compiledRule({ outcome: 'warn', message: 'careful', id: 'warn' });
  const ctx2 = compiledRule({ outcome: 'context', message: 'second context', id: 'ctx2' });

  test.each<[string, CompiledRule[], string, string | null, string[]]>([
    ['deny beats ask and allow', [allow, ask, deny1], 'deny', 'no 1', ['deny1']],
    ['ask beats allow', [allow, ask], 'ask', 'ask ask', ['ask']],
    ['allow alone', [allow], 'allow', 'allowed', ['allow']],
    ['deny and block join in rule order', [deny1, ask, block], 'deny', 'no 1\nno 2', ['deny1', 'block']],
    ['block on PreToolUse renders as deny', [block], 'deny', 'no 2', ['block']],
    ['only context and warn: none', [ctx1, warn], 'none', null, []],
    ['no rules: none', [], 'none', null, []],
  ])('%s', async (_name, rules, outcome, reason, decidedBy) => {
    const decision = await run(rules, pre('Bash', { command: 'ls' }));
    expect(decision.outcome).toBe(outcome);
    expect(decision.reason).toBe(reason);
    expect(decision.decidedBy.map((h) => h.id)).toEqual(decidedBy);
  });

  test.each<[string, string, string]>([
    ['block on Stop', 'block', 'block'],
    ['deny on Stop is a block', 'deny', 'block'],
    ['block on PermissionRequest is a deny', 'block', 'deny'],
  ])('%s', async (name, ruleOutcome, expected) => {
    const event = name.endsWith('PermissionRequest is a deny') ? 'PermissionRequest' : 'Stop';
    const rule = compiledRule({ events: [event], outcome: ruleOutcome as CompiledRule['outcome'], message: 'keep going' });
    const decision = await run([rule], { hook_event_name: event });
    expect(decision.outcome).toBe(expected);
    expect(decision.reason).toBe('keep going');
  });

  test('contexts and warnings accumulate in rule order beside the decision', async () => {
    const decision = await run([ctx1, warn, deny1, ctx2], pre('Bash', { command: 'ls' }));
    expect(decision.contexts).toEqual(['first context', 'second context']);
    expect(decision.warnings).toEqual(['careful']);
    expect(decision.hits.map((h) => h.id)).toEqual(['ctx1', 'warn', 'deny1', 'ctx2']);
    expect(decision.outcome).toBe('deny');
  });

  test('only candidate rules are traced, in policy order', async () => {
    const rules = [
      compiledRule({ id: 'edit', tools: toolFilter('Edit') }),
      compiledRule({ id: 'stop', events: ['Stop'] }),
      compiledRule({ id: 'mcp', tools: toolFilter('mcp__*') }),
      compiledRule({ id: 'any' }),
      compiledRule({ id: 'bash', tools: toolFilter('Bash') }),
      compiledRule({ id: 'b-glob', tools: toolFilter('B*_x') }),
    ];
    // A patterned rule is a candidate when the tool name starts with its pattern's literal part.
    const decision = await run(rules, pre('Bash', { command: 'ls' }));
    expect(decision.trace.map((t) => `${t.id}:${t.status}`)).toEqual(['any:fired', 'bash:fired', 'b-glob:not-matched']);
  });

  test('messages are cut to 10,000 characters', async () => {
    const decision = await run([compiledRule({ message: '{{tool_input.command}}' })], pre('Bash', { command: 'y'.repeat(12_000) }));
    expect(decision.reason).toHaveLength(10_000);
  });
});

describe('bypass', () => {
  const bypasses = [{ env: 'ATEAM_ENFORCEMENT', values: ['off', '0'], source: { file: 'policy.yaml', line: 3, column: 3 } }];
  const rules = [compiledRule({ id: 'guarded', bypasses: [0] }), compiledRule({ id: 'always', outcome: 'warn', message: 'w' })];

  test('a matching value turns the rule off and is reported', async () => {
    const ctx = memoryContext({}, { ATEAM_ENFORCEMENT: 'off' });
    const decision = await evaluate(compiledPolicy(rules, { bypasses }), pre('Bash', {}), ctx);
    expect(decision.outcome).toBe('none');
    expect(decision.trace.map((t) => `${t.id}:${t.status}`)).toEqual(['guarded:bypassed', 'always:fired']);
    expect(decision.bypass).toEqual({ env: 'ATEAM_ENFORCEMENT', value: 'off', rules: ['guarded'] });
  });

  test.each([[{}], [{ ATEAM_ENFORCEMENT: 'on' }]])('other values keep the rule on (%j)', async (env) => {
    const decision = await evaluate(compiledPolicy(rules, { bypasses }), pre('Bash', {}), memoryContext({}, env));
    expect(decision.outcome).toBe('deny');
    expect(decision.bypass).toBeNull();
  });

  test("an including file's switch also turns off the rules it includes", async () => {
    const two = [...bypasses, { env: 'TEAM_OFF', values: ['1'], source: { file: 'top.yaml', line: 2, column: 3 } }];
    const packRule = compiledRule({ id: 'pack-rule', bypasses: [0, 1] });
    const decision = await evaluate(compiledPolicy([packRule], { bypasses: two }), pre('Bash', {}), memoryContext({}, { TEAM_OFF: '1' }));
    expect(decision.outcome).toBe('none');
    expect(decision.bypass).toEqual({ env: 'TEAM_OFF', value: '1', rules: ['pack-rule'] });
  });
});

describe('runtime problems', () => {
  test('an unknown event gives no opinion and an info diagnostic', async () => {
    const decision = await run([compiledRule({ events: ['PreTool'] })], { hook_event_name: 'PreTool' });
    expect(decision.outcome).toBe('none');
    expect(decision.trace).toEqual([]);
    expect(decision.errors.map((e) => [e.code, e.severity])).toEqual([['event-unknown', 'info']]);
  });

  test('an expression that throws is an error on its rule; other rules go on', async () => {
    const broken = compiledRule({ id: 'broken', when: '$error("boom")', source: { file: 'p.yaml', line: 12, column: 7 } });
    const ok = compiledRule({ id: 'ok', outcome: 'ask', message: 'sure?' });
    const decision = await run([broken, ok], pre('Bash', {}));
    expect(decision.trace.map((t) => `${t.id}:${t.status}`)).toEqual(['broken:error', 'ok:fired']);
    expect(decision.outcome).toBe('ask');
    expect(decision.errors).toHaveLength(1);
    expect(decision.errors[0]).toMatchObject({ code: 'expression-error', severity: 'error', file: 'p.yaml', line: 12, column: 7 });
    expect(decision.errors[0].message).toContain('boom');
    expect(decision.trace[0].error).toEqual(decision.errors[0]);
  });

  test('an expression with a syntax error is an expression-error too', async () => {
    const decision = await run([compiledRule({ when: 'tool_name = ' })], pre('Bash', {}));
    expect(decision.errors.map((e) => e.code)).toEqual(['expression-error']);
    expect(decision.outcome).toBe('none');
  });

  test('a facts call that throws is a fact-error', async () => {
    const ctx = memoryContext();
    ctx.facts.stat = () => {
      throw new Error('EACCES');
    };
    const rule = compiledRule({ onlyIfExists: 'x' });
    const decision = await evaluate(compiledPolicy([rule]), pre('Bash', {}), ctx);
    expect(decision.errors.map((e) => [e.code, e.message])).toEqual([['fact-error', `rule "${rule.id}": cannot stat x: EACCES`]]);
  });

  test('the deadline stops evaluation after a rule that read facts', async () => {
    let clock = 0;
    const rules = [compiledRule({ id: 'a', outcome: 'warn', onlyIfExists: '.' }), compiledRule({ id: 'b' }), compiledRule({ id: 'c' })];
    const now = () => {
      clock += 60;
      return clock;
    };
    const decision = await evaluate(compiledPolicy(rules, { deadlineMs: 50 }), pre('Bash', {}), memoryContext({}, {}, now));
    expect(decision.trace.map((t) => t.id)).toEqual(['a']);
    expect(decision.errors.map((e) => e.code)).toEqual(['deadline-exceeded']);
    expect(decision.outcome).toBe('none');
    expect(decision.warnings).toEqual(['denied by a']);
  });

  test('condition-only rules do not read the clock', async () => {
    const now = jest.fn(() => 0);
    const rules = [compiledRule({ outcome: 'warn' }), compiledRule({ agents: ['x'] })];
    await evaluate(compiledPolicy(rules), pre('Bash', {}), memoryContext({}, {}, now));
    expect(now).toHaveBeenCalledTimes(1);
  });

  test.each<[string, Record<string, unknown>]>([
    ['tool_input null', { tool_name: 'Write', tool_input: null }],
    ['tool_name a number', { tool_name: 5, tool_input: 'x' }],
    ['cwd an object', { tool_name: 'Write', cwd: {}, tool_input: { file_path: 'a' } }],
    ['identity not a string', { tool_name: 'Write', agent_type: ['x'] }],
  ])('odd input never throws: %s', async (_name, fields) => {
    const rules = [
      compiledRule({ agents: ['hannibal'], paths: pathFilter({ deny: ['zzz'] }) }),
      compiledRule({ command: [{ source: 'x', flags: '' }] }),
      compiledRule({ match: matchFilter({ 'tool_input.file_path': '*' }), outcome: 'warn' }),
    ];
    const decision = await run(rules, { hook_event_name: 'PreToolUse', ...fields } as HookEvent);
    expect(decision.errors).toEqual([]);
    expect(decision.trace.every((t) => t.status !== 'error')).toBe(true);
  });
});

describe('templates in messages', () => {
  test('special names, env, let values and event fields', async () => {
    const rule = compiledRule({
      message: '{{event}}|{{agent}}|{{tool}}|{{command}}|{{rule}}|{{project}}|{{env.USER}}|{{session_id}}|{{tool_input.n}}|{{nope}}|',
      id: 'r-msg',
    });
    const decision = await run([rule], pre('Bash', { command: 'ls', n: 3 }, { session_id: 's1', agent_type: 'amy' }), {}, { USER: 'me' });
    expect(decision.reason).toBe('PreToolUse|amy|Bash|ls|r-msg|proj|me|s1|3||');
  });
});

describe('evaluateNow', () => {
  const bash = pre('Bash', { command: 'rm -rf build' });
  const regexRule = compiledRule({ id: 'no-rm', command: [{ source: '\\brm\\s+-rf\\b', flags: '' }] });
  const expressionRule = compiledRule({ id: 'expr', when: 'tool_input.command ~> /rm/' });
  const later = compiledRule({ id: 'later', outcome: 'warn', message: 'after the expression' });
  const policy = (rules: CompiledRule[]) => compiledPolicy(rules, {}, agents);

  test('answers at once, with the same decision as evaluate, when no rule has to wait', async () => {
    const now = evaluateNow(policy([regexRule]), bash, memoryContext({}));
    expect(now).not.toBeInstanceOf(Promise);
    expect(now).toEqual(await evaluate(policy([regexRule]), bash, memoryContext({})));
    expect((now as Decision).outcome).toBe('deny');
  });

  test('goes asynchronous at the first rule that waits, and evaluates the rules after it', async () => {
    const pending = evaluateNow(policy([regexRule, expressionRule, later]), bash, memoryContext({}));
    expect(pending).toBeInstanceOf(Promise);
    const decision = await pending;
    expect(decision.trace.map((t) => [t.id, t.status])).toEqual([['no-rm', 'fired'], ['expr', 'fired'], ['later', 'fired']]);
    expect(decision).toEqual(await evaluate(policy([regexRule, expressionRule, later]), bash, memoryContext({})));
  });

  test('trace: false (the runner, the policy server) gives the same decision with an empty trace', async () => {
    const env = { SKIP: '1' };
    const rules = [
      compiledRule({ id: 'bash-only', tools: toolFilter('Bash'), outcome: 'warn', message: 'bash' }),
      compiledRule({ id: 'write-only', tools: toolFilter('Write'), message: 'write' }),
      regexRule, expressionRule, later,
    ];
    for (const event of [bash, pre('Write', { file_path: '/proj/a' })]) {
      const traced = await evaluate(policy(rules), event, memoryContext({}, env));
      const quiet = await evaluate(policy(rules), event, { ...memoryContext({}, env), trace: false });
      expect(traced.trace.length).toBeGreaterThan(0);
      expect(quiet).toEqual({ ...traced, trace: [] });
    }
  });

  test('an unknown event is answered at once', () => {
    const now = evaluateNow(policy([regexRule]), { hook_event_name: 'NoSuchEvent' }, memoryContext({}));
    expect((now as Decision).errors.map((e) => e.code)).toEqual(['event-unknown']);
  });
});
