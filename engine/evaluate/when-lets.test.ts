import { buildRules, compiled } from '../compile/test-support';
import { storeContext } from '../../test/support/memory-store';
import { memoryContext } from '../../test/support/memory-facts';
import { evaluate } from '../evaluate';
import { InMemoryMemory } from '../memory/in-memory';
import type { HookEvent, MemoryFacts } from '../types';

// Claude Code's Stop always carries stop_hook_active (JSONata's $not of a missing field is no value, not true).
const stop = (extra: Record<string, unknown> = {}): HookEvent => ({ hook_event_name: 'Stop', session_id: 's1', stop_hook_active: false, ...extra });
const failures = (n: number) => Array.from({ length: n }, (_, i) => ({ kind: 'test-fail', text: `run ${i + 1} failed` }));

const threeFails = compiled(buildRules(
  '  - id: stop-after-failures',
  '    on: Stop',
  '    let: { fails: { count: test-fail } }',
  '    when: "$fails >= 3 and $not(stop_hook_active)"',
  '    block: "{{fails}} test runs failed in this session: fix them before stopping."',
));

describe('lets in when', () => {
  test('a when that names a let: lets first, bound as $name (a count is a number)', async () => {
    expect(threeFails.rules[0].letsFirst).toBe(true);
    const d = await evaluate(threeFails, stop(), storeContext(failures(3)));
    expect(d.outcome).toBe('block');
    expect(d.reason).toBe('3 test runs failed in this session: fix them before stopping.');
    expect((await evaluate(threeFails, stop(), storeContext(failures(2)))).outcome).toBe('none');
  });

  // An expr let arrived as text: `$changed * 2` threw and the rule failed open (issue 31).
  test('an expr let keeps its JSON type in when: a number is a number, a boolean a boolean', async () => {
    const policy = compiled(buildRules(
      '  - id: many-paths',
      '    on: PreToolUse',
      '    let:',
      '      changed: { expr: "$count($paths)" }',
      '      doubled: { expr: "$changed * 2" }',
      '      big: { expr: "$changed > 1" }',
      '    when: "$doubled >= 2 and $big = false and $changed * 2 = 2"',
      '    deny: "{{changed}} path, {{doubled}} doubled, big: {{big}}"',
    ));
    const d = await evaluate(policy, { hook_event_name: 'PreToolUse', cwd: '/p', tool_name: 'Write', tool_input: { file_path: '/p/a.ts' } }, memoryContext({}));
    expect(d.errors).toEqual([]);
    expect(d.outcome).toBe('deny');
    expect(d.reason).toBe('1 path, 2 doubled, big: false');
  });

  test('the Stop-loop guard: stop_hook_active lets Claude stop', async () => {
    const d = await evaluate(threeFails, stop({ stop_hook_active: true }), storeContext(failures(5)));
    expect(d.outcome).toBe('none');
    expect(d.trace[0].failed?.condition).toBe('when');
  });

  test('a maximum count of earlier blocks, recorded by the same rule', async () => {
    const policy = compiled(buildRules(
      '  - id: keep-going',
      '    on: Stop',
      '    let: { blocks: { count: stop-blocked, since_minutes: 60 } }',
      '    when: "$blocks < 2"',
      '    block: "Run the tests first."',
      '    record: { kind: stop-blocked, text: "block {{blocks}}" }',
    ));
    const first = await evaluate(policy, stop(), storeContext([]));
    expect(first.outcome).toBe('block');
    expect(first.records?.map((r) => r.text)).toEqual(['block 0']);
    const third = await evaluate(policy, stop(), storeContext([{ kind: 'stop-blocked', text: 'block 0' }, { kind: 'stop-blocked', text: 'block 1' }]));
    expect(third.outcome).toBe('none');
    expect(third.records).toBeUndefined();
  });

  test('sub-values as $name_sub; numbers for age and count', async () => {
    const policy = compiled(buildRules(
      '  - id: stale',
      '    on: Stop',
      '    let: { seen: { last: gc-seen, optional: true } }',
      '    when: "$seen_age_minutes > 30 and $seen_fields_version = \'2\' and $seen = \'GC-v2\'"',
      '    context: "stale"',
    ));
    const ctx = storeContext([{ kind: 'gc-seen', text: 'GC-v2', at: '-45m', fields: { version: '2' } }]);
    expect((await evaluate(policy, stop(), ctx)).contexts).toEqual(['stale']);
    const none = await evaluate(policy, stop(), storeContext([]));
    expect(none.errors).toEqual([]);
    expect(none.contexts).toEqual([]);
  });

  test('an optional let that failed is unbound: $n >= 3 is false, not an error', async () => {
    const policy = compiled(buildRules('  - id: r', '    on: Stop', '    let: { n: { count: x, optional: true } }', '    when: "$n >= 3"', '    block: b'));
    const d = await evaluate(policy, stop(), memoryContext());
    expect(d.errors).toEqual([]);
    expect(d.outcome).toBe('none');
  });

  test('an optional text let that failed is unbound too: $exists tells', async () => {
    const policy = compiled(buildRules('  - id: r', '    on: Stop', '    let: { seen: { last: k, optional: true } }', '    when: "$not($exists($seen))"', '    context: "[{{seen}}]"'));
    expect((await evaluate(policy, stop(), storeContext([]))).contexts).toEqual(['[]']);
    expect((await evaluate(policy, stop(), storeContext([{ kind: 'k', text: '' }]))).contexts).toEqual([]);
  });

  test('a file let is visible in when too (the teammate edits only its own section)', async () => {
    const policy = compiled(buildRules(
      '  - id: own-section',
      '    on: PreToolUse',
      '    tools: Edit',
      '    match: { tool_input.file_path: "*/TEAM-MEMORY.md" }',
      '    let:',
      '      section: { file: TEAM-MEMORY.md, extract: "(?:^|\\\\n)(## [^\\\\n]*\\\\n(?:(?!## )[^\\\\n]*\\\\n?)*)" , optional: true }',
      '    when: "$not($contains($section, tool_input.old_string)) or $not($contains($section, \'## \' & teammate_name))"',
      '    deny: "{{teammate_name}} may edit only its own section of TEAM-MEMORY.md"',
    ));
    const files = { 'TEAM-MEMORY.md': { content: '## ba\nvan notes\n## murdock\ntest notes\n' } };
    const edit = (teammate: string, old: string): HookEvent => ({ hook_event_name: 'PreToolUse', cwd: '/proj', teammate_name: teammate, tool_name: 'Edit', tool_input: { file_path: '/proj/TEAM-MEMORY.md', old_string: old } });
    expect(policy.rules[0].letsFirst).toBe(true);
    expect((await evaluate(policy, edit('ba', 'van notes'), memoryContext(files))).outcome).toBe('none');
    expect((await evaluate(policy, edit('ba', 'test notes'), memoryContext(files))).outcome).toBe('deny');
  });

  test('a when that names no let runs first: a rule it rules out reads no memory', async () => {
    const policy = compiled(buildRules('  - id: r', '    on: Stop', '    let: { n: { count: x } }', '    when: "stop_hook_active"', '    block: "{{n}}"'));
    expect(policy.rules[0].letsFirst).toBeUndefined();
    const calls: string[] = [];
    const spy: MemoryFacts = new Proxy(new InMemoryMemory([]), {
      get: (target, name) => {
        calls.push(String(name));
        return Reflect.get(target, name);
      },
    });
    const ctx = memoryContext();
    await evaluate(policy, stop(), { ...ctx, facts: Object.assign(ctx.facts, { memory: spy }) });
    expect(calls).toEqual([]);
  });
});
