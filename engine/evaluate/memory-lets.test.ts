import { build, buildRules, compiled } from '../compile/test-support';
import { memoryContext } from '../../test/support/memory-facts';
import { NOW_MS, storeContext } from '../../test/support/memory-store';
import { evaluate } from '../evaluate';
import { renderResponse } from '../render';
import type { MemorySeed } from '../memory/in-memory';
import type { EvaluationContext, HookEvent } from '../types';

const stop: HookEvent = { hook_event_name: 'Stop', session_id: 's1' };

/** The context message of a one-rule policy whose `let` is `letLine` (and `when` if given). */
async function run(letLines: string[], context: string, seeds: MemorySeed[], event: HookEvent = stop, extra: string[] = [], ctx?: EvaluationContext) {
  const policy = compiled(buildRules('  - id: r', '    on: [Stop, SubagentStop, UserPromptSubmit, SessionStart]', '    let:', ...letLines.map((l) => `      ${l}`), ...extra, `    context: ${JSON.stringify(context)}`));
  const d = await evaluate(policy, event, ctx ?? storeContext(seeds));
  return { d, text: d.contexts[0] ?? null, trace: d.trace[0] };
}

const fails: MemorySeed[] = [
  { kind: 'test-fail', text: 'jest: 2 failed', at: '-50m' },
  { kind: 'test-fail', text: 'jest: 1 failed', at: '-10m', agent: 'murdock' },
  { kind: 'test-fail', text: 'old session', session: 's0', at: '-2d' },
  { kind: 'test-pass', text: 'jest: ok', at: '-5m' },
];

describe('count', () => {
  test.each<[string, string, string]>([
    ['session (the default)', 'n: { count: test-fail }', '2'],
    ['agent: this agent in this session (the main session here)', 'n: { count: test-fail, scope: agent }', '1'],
    ['project: every session', 'n: { count: test-fail, scope: project }', '3'],
    ['any kind', 'n: { count: "*" }', '3'],
    ['since_minutes', 'n: { count: test-fail, since_minutes: 30 }', '1'],
    ['none is 0', 'n: { count: deploy }', '0'],
  ])('%s', async (_name, line, expected) => {
    expect((await run([line], '{{n}}', fails)).text).toBe(expected);
  });

  test('scope agent for a subagent: its own records', async () => {
    const event = { hook_event_name: 'SubagentStop', session_id: 's1', agent_type: 'murdock' };
    expect((await run(['n: { count: test-fail, scope: agent }'], '{{n}}', fails, event)).text).toBe('1');
  });
});

describe('last', () => {
  const seen: MemorySeed[] = [
    { kind: 'gc-seen', text: 'GC-v1', at: '-3h', agent: 'murdock', fields: { version: '1' } },
    { kind: 'gc-seen', text: 'GC-v2', at: '-45m', agent: 'murdock', fields: { version: '2' }, importance: 0.9 },
    { kind: 'gc-seen', text: 'GC-v5', at: '-1m', agent: 'ba' },
  ];
  const start = { hook_event_name: 'SubagentStop', session_id: 's1', agent_type: 'murdock' };

  test('the newest record of the kind in the scope, with its sub-values', async () => {
    const { text } = await run(['seen: { last: gc-seen, scope: agent }'], '{{seen}}|{{seen.at}}|{{seen.age_minutes}}|{{seen.kind}}|{{seen.importance}}|{{seen.id}}|{{seen.fields.version}}', seen, start);
    expect(text).toBe(`GC-v2|${new Date(NOW_MS - 45 * 60_000).toISOString()}|45|gc-seen|0.9|2|2`);
  });

  test('first: the oldest', async () => {
    expect((await run(['seen: { last: gc-seen, scope: agent, first: true }'], '{{seen}}', seen, start)).text).toBe('GC-v1');
  });

  test('none: the rule does not apply, unless optional (then empty, no sub-values)', async () => {
    const { d, trace } = await run(['seen: { last: gc-seen, scope: agent }'], 'x', seen, { ...start, agent_type: 'lynch' });
    expect(d.contexts).toEqual([]);
    expect(trace.failed).toEqual({ condition: 'let', detail: 'let seen: no gc-seen record in the agent scope' });
    expect((await run(['seen: { last: gc-seen, scope: agent, optional: true }'], '[{{seen}}][{{seen.at}}]', seen, { ...start, agent_type: 'lynch' })).text).toBe('[][]');
  });
});

describe('summaries', () => {
  const sessions: MemorySeed[] = [
    { kind: 'summary', text: 'Express project set up', session: 'a', at: '2026-01-13T09:00:00Z' },
    { kind: 'summary', text: 'User model schema', session: 'b', at: '2026-01-14T09:00:00Z' },
    { kind: 'summary', text: 'JWT middleware (interim)', session: 'c', at: '2026-01-15T08:00:00Z' },
    { kind: 'summary', text: 'JWT middleware done', session: 'c', at: '2026-01-15T09:00:00Z' },
    { kind: 'summary', text: 'this session so far', session: 's1', at: '2026-01-15T09:30:00Z' },
  ];

  test('other sessions\' newest summaries, newest first, as the seed\'s lines', async () => {
    const { text } = await run(['recent: { summaries: 3 }'], '📝 이전 세션 컨텍스트:\n{{recent}}', sessions, { hook_event_name: 'SessionStart', session_id: 's1' });
    expect(text).toBe('📝 이전 세션 컨텍스트:\n- [1/15] JWT middleware done\n- [1/14] User model schema\n- [1/13] Express project set up');
  });

  test('budget_tokens: lines that do not fit are left out (a token is 4 characters, rounded up)', async () => {
    // '- [1/15] JWT middleware done' is 28 characters: 7 tokens; the next line costs 7 + 1.
    const { text, d } = await run(['recent: { summaries: 3, budget_tokens: 14 }'], '{{recent}} ({{recent.count}})', sessions);
    expect(text).toBe('- [1/15] JWT middleware done (1)');
    expect(d.errors).toEqual([]);
  });

  test('no summary of another session: the rule does not apply', async () => {
    const { d } = await run(['recent: { summaries: 3 }'], '{{recent}}', sessions.slice(4));
    expect(d.contexts).toEqual([]);
  });
});

describe('search', () => {
  const notes: MemorySeed[] = [
    { kind: 'note', text: 'JWT auth middleware', at: '2026-01-15T09:00:00Z', session: 'a' },
    { kind: 'note', text: 'error handling pattern for auth', at: '2026-01-14T09:00:00Z', session: 'b' },
    { kind: 'note', text: 'unrelated', at: '2026-01-14T09:00:00Z', session: 'b' },
  ];
  const prompt = (text: string): HookEvent => ({ hook_event_name: 'UserPromptSubmit', session_id: 's1', prompt: text });

  test('lines with date, relevance and id; count and top', async () => {
    const { text } = await run(['related: { search: "{{prompt}}", limit: 5 }'], '🔍 관련 메모리 발견:\n{{related}}\n({{related.count}}, top {{related.top}})', notes, prompt('JWT auth'));
    expect(text).toBe('🔍 관련 메모리 발견:\n- JWT auth middleware (1/15, relevance: 1.00) #1\n- error handling pattern for auth (1/14, relevance: 0.50) #2\n(2, top 1.00)');
  });

  test('min_relevance and limit', async () => {
    expect((await run(['related: { search: "{{prompt}}", min_relevance: 0.8 }'], '{{related.count}}', notes, prompt('JWT auth'))).text).toBe('1');
    expect((await run(['related: { search: "{{prompt}}", limit: 1 }'], '{{related.count}}', notes, prompt('JWT auth'))).text).toBe('1');
  });

  test('nothing found: the rule does not apply; the query is the template rendered once', async () => {
    const { d, trace } = await run(['related: { search: "{{prompt}}" }'], 'x', notes, prompt('kubernetes'));
    expect(d.contexts).toEqual([]);
    expect(trace.failed?.detail).toBe('let related: nothing in the memory store matches');
  });
});

describe('summary and metrics of this session', () => {
  const session: MemorySeed[] = [
    { kind: 'file-change', text: 'Write src/a.ts', fields: { paths: 'src/a.ts' } },
    { kind: 'metric', text: 'Bash 120 ms', fields: { tool: 'Bash', duration_ms: '120', success: 'true' } },
    { kind: 'metric', text: 'Bash 80 ms', fields: { tool: 'Bash', duration_ms: '80', success: 'false' } },
    { kind: 'file-change', text: 'other session', session: 's0', fields: { paths: 'src/b.ts' } },
  ];

  test('summary: session is summarizeSession of this session\'s records', async () => {
    expect((await run(['s: { summary: session }'], '{{s}}', session)).text).toBe('1 file changed (src/a.ts)');
  });

  test('metrics: session is the aggregate as JSON', async () => {
    const metrics = JSON.parse((await run(['m: { metrics: session }'], '{{m}}', session)).text!);
    expect(metrics).toMatchObject({ count: 2, failures: 1, tools: { Bash: { count: 2 } } });
  });

  test('an event without session_id: the let fails', async () => {
    const { trace } = await run(['s: { summary: session }'], '{{s}}', session, { hook_event_name: 'Stop' });
    expect(trace.failed?.detail).toBe('let s: the event has no session_id');
  });
});

describe('without a store, or with a failing one', () => {
  test('no facts.memory: the let fails like an unreadable file; optional applies', async () => {
    const none = memoryContext();
    const { trace } = await run(['n: { count: test-fail }'], '{{n}}', [], stop, [], none);
    expect(trace.failed?.detail).toBe('let n: the project has no memory store');
    expect((await run(['n: { count: test-fail, optional: true }'], '[{{n}}]', [], stop, [], none)).text).toBe('[]');
  });

  test('a store that cannot be read: a rule that only adds context does not apply, and no error', async () => {
    const ctx = memoryContext();
    const broken = { ...ctx, facts: Object.assign(ctx.facts, { memory: { count: () => { throw new Error('better-sqlite3 is not built'); } } as never }) };
    const { d, trace } = await run(['n: { count: test-fail }'], '{{n}}', [], stop, [], broken);
    expect(d.errors).toEqual([]);
    expect(trace.failed?.detail).toBe('let n: the memory store cannot be read: better-sqlite3 is not built');
    expect((await run(['n: { count: test-fail, optional: true }'], '[{{n}}]', [], stop, [], broken)).text).toBe('[]');
  });

  describe('a rule that denies, asks or blocks fails per on_error instead: nothing counted must not let the call through', () => {
    const unreadable = () => {
      const ctx = memoryContext();
      return { ...ctx, facts: Object.assign(ctx.facts, { memory: { count: () => { throw new Error('index.db is a symbolic link'); } } as never }) };
    };
    const guard = (onError: string, optional = '') => compiled(build({ 'p.yaml': [
      'version: 1', `settings: { on_error: ${onError} }`, 'rules:',
      '  - id: stop-after-failures', '    on: Stop', `    let: { fails: { count: test-fail${optional} } }`, '    when: "$fails >= 3"', '    block: "{{fails}} test runs failed"',
    ].join('\n') }));

    test('the rule fails with a fact-error, as for a file that cannot be read', async () => {
      const d = await evaluate(guard('closed'), stop, unreadable());
      expect(d.trace[0]).toMatchObject({ id: 'stop-after-failures', status: 'error' });
      expect(d.errors.map((e) => [e.code, e.severity, e.message])).toEqual([
        ['fact-error', 'error', 'rule "stop-after-failures": let fails: the memory store cannot be read: index.db is a symbolic link'],
      ]);
    });

    test.each<[string, 'open' | 'closed', number, string]>([
      ['closed: Stop is blocked', 'closed', 0, '"decision":"block"'],
      ['open: Stop goes on, and the error is shown', 'open', 0, '"systemMessage"'],
    ])('%s', async (_name, onError, exitCode, shown) => {
      const r = renderResponse(await evaluate(guard(onError), stop, unreadable()), { onError });
      expect(r.exitCode).toBe(exitCode);
      expect(r.stdout).toContain(shown);
      expect(r.stderr).toContain(`let fails: the memory store cannot be read: index.db is a symbolic link (failing ${onError})`);
    });

    test('optional does not make an unreadable store an empty one', async () => {
      const d = await evaluate(guard('closed', ', optional: true'), stop, unreadable());
      expect([d.trace[0].status, d.errors.map((e) => e.code)]).toEqual(['error', ['fact-error']]);
    });

    test('a store that reads, with nothing counted, is not an error', async () => {
      const d = await evaluate(guard('closed'), stop, storeContext([]));
      expect([d.outcome, d.errors]).toEqual(['none', []]);
    });
  });
});

describe('the store-reading lets are loaded only when needed', () => {
  test('not for rules that record, stop the chain or read files; then for a rule with one', async () => {
    let loaded = false;
    await jest.isolateModulesAsync(async () => {
      jest.doMock('./memory-lets', () => {
        loaded = true;
        return jest.requireActual('./memory-lets');
      });
      const isolated = jest.requireActual<typeof import('../evaluate')>('../evaluate').evaluate;
      const build = jest.requireActual<typeof import('../compile/test-support')>('../compile/test-support');
      const plain = build.compiled(build.buildRules(
        '  - id: a', '    on: Stop', '    record: { kind: k, text: t }',
        '  - id: b', '    on: Stop', '    let: { f: { file: a.md, optional: true } }', '    when: "$not($exists($f))"', '    block: x', '    final: true',
      ));
      const d = await isolated(plain, stop, storeContext([]));
      expect(d.outcome).toBe('block');
      expect(loaded).toBe(false);
      const reading = build.compiled(build.buildRules('  - id: c', '    on: Stop', '    let: { n: { count: k } }', '    block: "{{n}}"'));
      expect((await isolated(reading, stop, storeContext([]))).reason).toBe('0');
      expect(loaded).toBe(true);
    });
  });
});
